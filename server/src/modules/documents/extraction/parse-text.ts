/**
 * The parser's view of a document's text (docs/ocr.md "Fields"): lines split into cells (a two-column layout,
 * a table's cells), with the small text helpers every field uses. Pure.
 */

/** One cell of a line: a run of text separated from the next by a wide gap (about two font sizes or more). */
export interface TextCell {
  text: string;
  /** The cell's left edge in PDF units (a text layer only). */
  x?: number;
}

/** One line of text as read: a PDF's text layer fills the geometry; OCR lines may lack it. */
export interface TextLine {
  text: string;
  /** 0..1 */
  confidence: number;
  /** The line's left edge, its baseline (PDF units, up is larger) and its font size: a text layer only. */
  x?: number;
  y?: number;
  height?: number;
  /** 1-based page of a multi-page PDF. */
  page?: number;
  /** The line's cells when it has more than one (a text layer's wide gaps). */
  cells?: TextCell[];
}

/** How a text layer's cells are joined in a line's text; the parser splits a line's text on it (or on " | "). */
export const CELL_SEPARATOR = '    ';
const CELL_SPLIT = /\s{3,}|\t+|\s+\|\s+/;

export interface Cell {
  text: string;
  x: number | null;
}

export interface Row {
  cells: Cell[];
  /** The cells joined by a space. */
  text: string;
  confidence: number;
  y: number | null;
  height: number | null;
  page: number;
}

/** Words of certificates' letter-spaced headings and labels, to split "CREDITHOURS" back into words. */
const HEADING_WORDS = new Set(
  (
    'a an and approval approved at attendance awarded by certificate certification certified certify class clock code ' +
    'commission completed completion continuing course credit credits date day department dre education estate ' +
    'ethics exam expires for hours id in issued license licensee name no number of on order program provider ' +
    'purchased real record school seminar state student the this title to total transcript update'
  ).split(' '),
);

/** "CREDITHOURS" → "CREDIT HOURS" when the whole run splits into known words (fewest words), else null. */
function segment(run: string): string | null {
  const lower = run.toLowerCase();
  const best: Array<string[] | null> = [[]];
  for (let i = 1; i <= lower.length; i++) {
    best[i] = null;
    for (let j = Math.max(0, i - 14); j < i; j++) {
      const prev = best[j];
      if (prev && HEADING_WORDS.has(lower.slice(j, i)) && (!best[i] || prev.length + 1 < best[i]!.length))
        best[i] = [...prev, run.slice(j, i)];
    }
  }
  return best[lower.length]?.join(' ') ?? null;
}

/**
 * Letter-spaced capitals as pdf.js or OCR return them ("C R E D I T H O U R S", kerned "S TAT E") as words:
 * a run of one- to three-letter capital groups, mostly single letters, joined and split into known words.
 */
export function unspace(text: string): string {
  text = text.replace(/\b[A-Za-z]{1,2}(?: [A-Za-z]{1,2}){5,}\b/g, (run) => {
    // Mixed case ("R e a l t y A c a d e m y o f Te x a s"): words start at capitals; a trailing "of" is its own word.
    const groups = run.split(' ');
    if (groups.filter((g) => g.length === 1).length < 0.7 * groups.length || !/[a-z]/.test(run) || !/[A-Z]/.test(run)) return run;
    return groups
      .join('')
      .split(/(?=[A-Z])/)
      .map((w) => w.replace(/^([A-Z][a-z]{2,})(of|and|the)$/, '$1 $2'))
      .join(' ');
  });
  if (/^\s*(?:[A-Z] )+[A-Z]\s*$/.test(text)) {
    const joined = text.replace(/\s+/g, '');
    return segment(joined) ?? joined;
  }
  return text.replace(/\b[A-Z]{1,3}(?: [A-Z]{1,3}){2,}\b/g, (run) => {
    const groups = run.split(' ');
    if (groups.filter((g) => g.length === 1).length < 0.6 * groups.length) return run;
    const joined = groups.join('');
    return segment(joined) ?? joined;
  });
}

export function normalise(s: string): string {
  return unspace(s.normalize('NFKC')).replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
}

/** The lines as rows of cells; empty lines dropped. */
/** A document's lines read at most (a certificate has far fewer), and a cell's characters (values are short). */
const MAX_ROWS = 600;
const MAX_CELL = 400;

export function rowsOf(lines: TextLine[]): Row[] {
  const rows: Row[] = [];
  for (const line of lines.slice(0, MAX_ROWS)) {
    const raw: Cell[] = line.cells?.length
      ? line.cells.map((c) => ({ text: c.text, x: c.x ?? null }))
      : line.text.split(CELL_SPLIT).map((text, i) => ({ text, x: i === 0 ? (line.x ?? null) : null }));
    const cells = raw
      .map((c) => ({ text: normalise(c.text.slice(0, MAX_CELL)), x: c.x }))
      .filter((c) => c.text && !/^[|_\-–—.:\s]+$/.test(c.text));
    if (!cells.length) continue;
    rows.push({
      cells,
      text: cells.map((c) => c.text).join(' '),
      confidence: Math.max(0, Math.min(1, line.confidence)),
      y: line.y ?? null,
      height: line.height ?? null,
      page: line.page ?? 1,
    });
  }
  return rows;
}

/** OCR's usual confusions inside numbers (O for 0, l for 1, S for 5) repaired before a number is read. */
export function digits(s: string): string {
  return s.replace(/[Oo]/g, '0').replace(/[lI|]/g, '1').replace(/[Ss]/g, '5').replace(/,/g, '.');
}

/** Quotes, rules and leading or trailing punctuation removed; spaces collapsed. */
export function clean(s: string): string {
  return s
    .replace(/[“”"«»_|~]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:;,.\-–—#*•]+|[\s:;,\-–—*•]+$/g, '')
    .replace(/(?<![A-Z])\.$/, '')
    .trim();
}

/** A plausible free-text value (a course, a provider, a name): mostly letters. */
export function plausible(s: string, min = 3): boolean {
  const letters = s.replace(/[^A-Za-z]/g, '').length;
  return letters >= min && letters / Math.max(1, s.replace(/\s/g, '').length) > 0.6;
}

const CONNECTOR = /\b(?:in|of|for|by|with|and|to|the|a|an|on|at|&|or)$/i;

/** The value stops before its last word: it goes on (a title over two lines). */
export function endsOpen(s: string): boolean {
  return CONNECTOR.test(s.trim()) || /[:,\-–&]$/.test(s.trim());
}

/**
 * Prose, not a value: certificates print sentences around their values ("listed in accordance with 22 TAC",
 * "three (3) hours of continuing education in"); a course name or provider is never one.
 */
export function isProse(s: string): boolean {
  const words = s.split(/\s+/).filter(Boolean);
  if (words.length > 14) return true;
  if (/^[a-z]/.test(s)) return true;
  if (endsOpen(s) && !/[:]$/.test(s.trim())) return true;
  return /\b(?:in\s+accordance|accordance\s+with|pursuant|hereby|has\s+been|have\s+been|approved\s+by|is\s+approved|listed|requirements?|satisf(?:y|ies|ied)|fulfil+(?:s|ed|ment)?|towards?|rule|rules|TAC|statutes?|chapter|successfully|certif(?:y|ies|ied)\s+that|this\s+is\s+to|who\s+has|has\s+(?:completed|attended)|for\s+the\s+purpose|hours?\s+of|awarded\s+to|presented\s+to|signature|instructor|director|registrar)\b|§/i.test(
    s,
  );
}

/** Most words of a title start with a capital (or the whole is in capitals). */
export function titleLike(s: string): boolean {
  const words = s.split(/\s+/).filter((w) => /^[A-Za-z]/.test(w) && w.length > 3);
  if (!words.length) return /^[A-Z0-9]/.test(s);
  const caps = words.filter((w) => /^[A-Z]/.test(w)).length;
  return caps / words.length >= 0.5;
}

export function titleCase(s: string): string {
  return s === s.toUpperCase() && /[A-Z]{3}/.test(s)
    ? s
        .toLowerCase()
        .replace(/(^|[\s\-(/])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase())
        .replace(/\b(Ce|Ii|Iii|Iv|Llc|Dre|Trec|Dbpr|Usa)\b/g, (w) => w.toUpperCase())
        .replace(/\b(And|Of|The|In|For|To|On|At|By|With|A|An|Or)\b(?!$|\.)/g, (w, _x, i: number) => (i === 0 ? w : w.toLowerCase()))
    : s;
}

export const round = (n: number) => Math.round(Math.max(0, Math.min(1, n)) * 100) / 100;

/**
 * The best of several readings of one field. Two different values read about as well (a second license number,
 * two hours figures) make the best one a doubt: its confidence drops by a quarter.
 */
export class Choice<T> {
  private offers: Array<{ value: T; confidence: number }> = [];

  offer(value: T | null | undefined, confidence: number): void {
    if (value !== null && value !== undefined && confidence > 0) this.offers.push({ value, confidence });
  }

  best(same: (a: T, b: T) => boolean = (a, b) => a === b): { value: T | null; confidence: number } {
    let top: { value: T; confidence: number } | null = null;
    for (const o of this.offers) if (!top || o.confidence > top.confidence) top = o;
    if (!top) return { value: null, confidence: 0 };
    const rival = this.offers.some((o) => !same(o.value, top.value) && o.confidence >= top.confidence - 0.05);
    return { value: top.value, confidence: rival ? top.confidence * 0.75 : top.confidence };
  }
}

const LABEL_WORDS = new Set(
  (
    'number no no. # id name date hours hour hrs title license licensee lic state provider course credit credits completed ' +
    'completion issued approval code student total expires purchased order type method delivery location instructor ' +
    'signature trec dre dbpr of'
  ).split(' '),
);

/** A label, not a value ("Provider Number", "TREC License Number", "Credit Hours"). */
export function looksLikeLabel(s: string): boolean {
  const words = s
    .toLowerCase()
    .replace(/[:.]+$/, '')
    .split(/\s+/)
    .filter(Boolean);
  return words.length > 0 && words.length <= 4 && words.every((w) => LABEL_WORDS.has(w));
}

/** The cell of a row nearest a column: by x when both have it, else by index when the rows have as many cells. */
export function cellBelow(rows: Row[], from: number, to: number, cellIndex: number): string | null {
  const a = rows[from]!;
  const b = rows[to];
  if (!b || b.page !== a.page) return null;
  // Rows far apart (a text layer) are not label and value.
  if (a.y !== null && b.y !== null && a.height && Math.abs(a.y - b.y) > 3.2 * Math.max(a.height, b.height ?? 0)) return null;
  const cell = a.cells[cellIndex]!;
  if (cell.x !== null && b.cells.every((c) => c.x !== null)) {
    let best: { d: number; text: string } | null = null;
    for (const c of b.cells) {
      const d = Math.abs(c.x! - cell.x);
      if (!best || d < best.d) best = { d, text: c.text };
    }
    const em = a.height ?? 12;
    if (best && (best.d < 4 * em || (a.cells.length === 1 && b.cells.length === 1))) return best.text;
    return null;
  }
  if (a.cells.length === b.cells.length) return b.cells[cellIndex]!.text;
  if (b.cells.length === 1 && a.cells.length === 1) return b.cells[0]!.text;
  return null;
}
