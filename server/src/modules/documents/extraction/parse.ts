/**
 * Reads the fields of a CE certificate from its text (docs/ocr.md). Pure: lines in, fields out. Each field's
 * confidence is how well its pattern matched (a labelled value beats a guess) times the reading confidence of
 * the line it came from (1 for a PDF's text layer, the OCR line confidence for an image).
 */
import type { CertificateFields } from '@lm/shared';

export interface TextLine {
  text: string;
  /** 0..1 */
  confidence: number;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isoOf(y: number, m: number, d: number): string | null {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const s = `${y}-${pad(m)}-${pad(d)}`;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s ? s : null;
}

const DATE_PATTERNS: Array<{ re: RegExp; read: (m: RegExpExecArray) => string | null }> = [
  // 2026-03-03
  { re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/, read: (m) => isoOf(+m[1]!, +m[2]!, +m[3]!) },
  // March 3, 2026 / Mar. 3rd 2026
  {
    re: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i'),
    read: (m) => isoOf(+m[3]!, MONTHS[m[1]!.slice(0, 3).toLowerCase()]!, +m[2]!),
  },
  // 3 Mar 2026 / 3rd of March, 2026 / 03-Mar-2026
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?[\\s-]+${MONTH}\\.?[\\s,-]+(\\d{4})\\b`, 'i'),
    read: (m) => isoOf(+m[3]!, MONTHS[m[2]!.slice(0, 3).toLowerCase()]!, +m[1]!),
  },
  // 03/03/2026 (US order, the office's convention) / 3-3-2026 / 03.03.2026
  { re: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/, read: (m) => isoOf(+m[3]!, +m[1]!, +m[2]!) ?? isoOf(+m[3]!, +m[2]!, +m[1]!) },
];

/** The first date in a text, as YYYY-MM-DD, or null. */
export function parseDate(text: string): string | null {
  let best: { at: number; value: string } | null = null;
  for (const { re, read } of DATE_PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const value = read(m);
    if (value && (!best || m.index < best.at)) best = { at: m.index, value };
  }
  return best?.value ?? null;
}

/** OCR's usual confusions inside numbers (O for 0, l for 1, S for 5) repaired before a number is read. */
function digits(s: string): string {
  return s.replace(/[Oo]/g, '0').replace(/[lI|]/g, '1').replace(/S/g, '5').replace(/,/g, '.');
}

type Found<T> = { value: T | null; confidence: number };
const nothing = <T>(): Found<T> => ({ value: null, confidence: 0 });

function clean(s: string): string {
  return s
    .replace(/[“”"«»_|~]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:;,.\-–—]+|[\s:;,.\-–—]+$/g, '')
    .trim();
}

/** A plausible free-text value (a course, a provider, a name): letters, not a label or a date. */
function plausible(s: string, min = 3): boolean {
  const letters = s.replace(/[^A-Za-z]/g, '').length;
  return letters >= min && letters / Math.max(1, s.replace(/\s/g, '').length) > 0.6 && !/^(date|hours?|license|provider)\b/i.test(s);
}

interface LabelRule {
  label: RegExp;
  score: number;
}

/**
 * The value after a label: on the same line ("Course: Fair Housing") or, when the label ends its line, the
 * next non-empty line.
 */
function labelled(lines: TextLine[], rules: LabelRule[], accept: (v: string) => boolean): Found<string> {
  let best = nothing<string>();
  for (const rule of rules) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const m = rule.label.exec(line.text);
      if (!m) continue;
      const rest = clean(line.text.slice(m.index + m[0].length));
      let value = rest;
      let conf = line.confidence;
      if (!value || !accept(value)) {
        const next = lines.slice(i + 1).find((l) => clean(l.text));
        if (!next || rest) continue;
        value = clean(next.text);
        conf = Math.min(conf, next.confidence);
        if (!accept(value)) continue;
      }
      const confidence = rule.score * conf;
      if (confidence > best.confidence) best = { value, confidence };
    }
  }
  return best;
}

const COURSE_LABELS: LabelRule[] = [
  { label: /\bcourse\s*(?:title|name)?\s*[:#-]\s*/i, score: 1 },
  {
    label:
      /\b(?:has\s+)?(?:successfully\s+)?completed\s+(?:the\s+)?(?:(?:continuing\s+education|ce|online|classroom)\s+)?(?:course|class|program)?\s*(?:entitled|titled|named)?\s*:?\s*/i,
    score: 0.85,
  },
  { label: /\bfor\s+(?:the\s+)?(?:completion\s+of|completing)\s*(?:the\s+)?(?:course)?\s*:?\s*/i, score: 0.8 },
];
const PROVIDER_LABELS: LabelRule[] = [
  { label: /\b(?:course\s+)?provider(?:\s+name)?\s*[:#-]\s*/i, score: 1 },
  {
    label: /\b(?:school|sponsor|sponsored\s+by|offered\s+by|provided\s+by|presented\s+by|issued\s+by|approved\s+provider)\s*:?\s+/i,
    score: 0.85,
  },
];
const HOLDER_LABELS: LabelRule[] = [
  { label: /\b(?:licensee|student|attendee|participant|holder|agent)(?:\s+name)?\s*[:#-]\s*/i, score: 1 },
  { label: /^\s*name\s*[:#-]\s*/i, score: 0.95 },
  {
    label: /\b(?:this\s+(?:is\s+to\s+)?certif(?:y|ies)\s+that|awarded\s+to|presented\s+to|granted\s+to|certifies\s+that)\s*:?\s*/i,
    score: 0.9,
  },
];

const NAME_RE = /^([A-Z][A-Za-z'’.-]+(?:\s+[A-Z][A-Za-z'’.-]*){1,3})/;

function holderName(lines: TextLine[]): Found<string> {
  const raw = labelled(lines, HOLDER_LABELS, (v) => NAME_RE.test(v));
  if (!raw.value) return raw;
  const name = NAME_RE.exec(raw.value)![1]!
    .replace(/\s+(has|license|lic|who|for)\b.*$/i, '')
    .trim();
  return { value: name, confidence: raw.confidence };
}

const LICENSE_RE = /\b(?:license|licence|lic\.?)\s*(?:no\.?|number|num\.?|#)?\s*[:#]?\s*([A-Z]{0,4}[-\s]?\d[\dA-Z-]{3,})\b/i;

function licenseNumber(lines: TextLine[]): Found<string> {
  for (const line of lines) {
    const m = LICENSE_RE.exec(line.text);
    if (m) return { value: m[1]!.replace(/\s+/g, '').toUpperCase(), confidence: line.confidence };
  }
  return nothing();
}

const HOURS_LABELLED =
  /\b(?:(?:ce|credit|clock|contact|approved|continuing\s+education|total)\s+)*(?:hours?|hrs?|credits?|credit\s+hours?)\s*(?:awarded|earned|completed)?\s*[:=-]\s*([\dOolIS]+(?:[.,]\d+)?)/i;
const HOURS_SUFFIXED =
  /\b([\dOolIS]{1,3}(?:[.,]\d{1,2})?)\s*(?:\(\w+\)\s*)?(?:ce\s+|credit\s+|clock\s+|contact\s+|continuing\s+education\s+)*(?:hours?|hrs?\.?|credits?)\b/i;

function hoursOf(lines: TextLine[]): Found<number> {
  let best = nothing<number>();
  const consider = (raw: string, score: number, conf: number) => {
    const n = Number(digits(raw));
    if (!Number.isFinite(n) || n <= 0 || n > 100) return;
    if (score * conf > best.confidence) best = { value: n, confidence: score * conf };
  };
  for (const line of lines) {
    const a = HOURS_LABELLED.exec(line.text);
    if (a) consider(a[1]!, 1, line.confidence);
    const b = HOURS_SUFFIXED.exec(line.text);
    if (b) consider(b[1]!, 0.9, line.confidence);
  }
  return best;
}

const DATE_LABEL =
  /\b(?:date\s+(?:of\s+)?(?:completion|completed|issued?|awarded)|completion\s+date|completed\s+on|date\s+completed|completed|issued\s+on|awarded\s+on|on\s+this\s+date|date)\b/i;

function completionDate(lines: TextLine[]): Found<string> {
  let best = nothing<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const value = parseDate(line.text);
    if (value) {
      const labelledHere = DATE_LABEL.test(line.text);
      const labelledAbove = i > 0 && DATE_LABEL.test(lines[i - 1]!.text) && !parseDate(lines[i - 1]!.text);
      const expires = /\b(expir|valid\s+until|renew)/i.test(line.text);
      const score = expires ? 0.3 : labelledHere ? 1 : labelledAbove ? 0.9 : 0.6;
      if (score * line.confidence > best.confidence) best = { value, confidence: score * line.confidence };
    }
  }
  return best;
}

/** Course names longer than a line (rare) are cut; the title words are what the match needs. */
function courseName(lines: TextLine[]): Found<string> {
  const found = labelled(lines, COURSE_LABELS, (v) => plausible(v, 4) && !/^certif/i.test(v));
  if (found.value) return { value: found.value.replace(/\s*\(.*?\)\s*$/, ''), confidence: found.confidence };
  // A quoted title anywhere.
  for (const line of lines) {
    const m = /[“"]([^”"]{4,})[”"]/.exec(line.text);
    if (m && plausible(m[1]!)) return { value: clean(m[1]!), confidence: 0.7 * line.confidence };
  }
  return nothing();
}

/** Words that name a school; a letterhead line with one is taken for the provider when no label names it. */
const SCHOOL_WORDS =
  /\b(school|academy|institute|college|university|center|centre|online|education|learning|partners|association|realtors?)\b/i;

function titleCase(s: string): string {
  return s === s.toUpperCase()
    ? s
        .toLowerCase()
        .replace(/\b([a-z])/g, (c) => c.toUpperCase())
        .replace(/\bCe\b/g, 'CE')
    : s;
}

function providerOf(lines: TextLine[]): Found<string> {
  const found = labelled(lines, PROVIDER_LABELS, (v) => plausible(v));
  if (found.value) return found;
  // The letterhead: one of the first lines, naming a school, not the certificate's title.
  for (const line of lines.slice(0, 3)) {
    if (SCHOOL_WORDS.test(line.text) && plausible(line.text) && !/certif|complet|continuing\s+education\s+cert/i.test(line.text)) {
      return { value: titleCase(clean(line.text)), confidence: 0.6 * line.confidence };
    }
  }
  return nothing();
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The certificate's fields from its lines. */
export function parseCertificate(lines: TextLine[]): CertificateFields {
  const usable = lines.map((l) => ({ text: l.text.replace(/\s+/g, ' ').trim(), confidence: l.confidence })).filter((l) => l.text);
  const fields: CertificateFields = {
    course_name: courseName(usable),
    provider: providerOf(usable),
    hours: hoursOf(usable),
    completion_date: completionDate(usable),
    holder_name: holderName(usable),
    license_number: licenseNumber(usable),
  };
  for (const f of Object.values(fields)) f.confidence = round(Math.max(0, Math.min(1, f.confidence)));
  return fields;
}
