/**
 * Reads the fields of a CE certificate from its text (docs/ocr.md "Fields"). Pure: lines in, a parse out.
 * Each value's confidence is how well it was read (a labelled, unambiguous value high, a guess low) times the
 * reading confidence of the line it came from (1 for a PDF's text layer, the OCR line confidence for an image).
 * It is not a colour: the judge (judge.ts) decides what is confirmed by a second source.
 */
import type { CertificateKind } from '@lm/shared';
import type { ParsedCertificate, ReadCourse, ReadFields, ReadValue } from './reading.ts';
import { DATE_SCORES, dateMeaning, findDates, type DateMeaning } from './parse-dates.ts';
import {
  cellBelow,
  Choice,
  clean,
  digits,
  endsOpen,
  isProse,
  looksLikeLabel,
  plausible,
  round,
  rowsOf,
  titleCase,
  titleLike,
  type Row,
  type TextLine,
} from './parse-text.ts';
import { readTable, type TableCourse } from './parse-table.ts';
import { stateOf } from './parse-state.ts';

export { parseDate } from './parse-dates.ts';
export { CELL_SEPARATOR, type TextCell, type TextLine } from './parse-text.ts';

type Found<T> = ReadValue<T>;
const nothing = <T>(): Found<T> => ({ value: null, confidence: 0 });

/** Where a value sits relative to its label, and how much that placement is trusted. */
const PLACE = { same: 1, next: 1, below: 0.95, above: 0.8 } as const;

/** A label found in a cell: where it ends and whether it fills the cell. */
interface LabelHit {
  row: number;
  cell: number;
  end: number;
  whole: boolean;
}

export interface LabelRule {
  label: RegExp;
  score: number;
  /** Look at the rows below (up to this many) for an acceptable value, skipping prose (a phrase's value). */
  reach?: number;
}

/** Labels of other fields: a value on the same line stops before them ("Course: Fair Housing Hours: 3"). */
const OTHER_LABEL =
  /\s+(?=(?:course\s*(?:title|name|#|no\b|number|approval|id)|credit\s+hours?|ce\s+hours?|hours?|hrs|credits?|date(?:\s+of\s+\w+)?|completion\s+date|completed(?:\s+on)?|license(?:\s*(?:#|no\b|number|id))?|lic\b\.?|provider(?:\s*(?:#|no\b|name))?|instructor|approval|state|student|licensee|name|location|expires?|issued|sponsor|school|delivery|method|certificate\s*(?:#|no\b|number))\s*[:#])/i;

function cutAtLabel(s: string): string {
  const m = OTHER_LABEL.exec(s);
  return m ? s.slice(0, m.index) : s;
}

function hits(rows: Row[], label: RegExp): LabelHit[] {
  const found: LabelHit[] = [];
  rows.forEach((row, r) =>
    row.cells.forEach((cell, c) => {
      const m = label.exec(cell.text);
      if (!m) return;
      const end = m.index + m[0].length;
      found.push({ row: r, cell: c, end, whole: !clean(cell.text.slice(end)) && m.index <= 2 });
    }),
  );
  return found;
}

/**
 * The value of a label: after it in its cell ("Course: Fair Housing"), in the next cell of its line, in the
 * cell below (label above value, a table's header) or, for a label alone in its cell, the cell above (a caption
 * under a signature line). `accept` cleans a candidate or refuses it (null).
 */
function labelled(
  rows: Row[],
  rules: LabelRule[],
  acceptValue: (v: string, row: number) => string | null,
): Found<string> & { row: number } {
  const accept = (v: string, row: number) => (looksLikeLabel(v) ? null : acceptValue(v, row));
  let best: Found<string> & { row: number } = { ...nothing<string>(), row: -1 };
  const choice = new Choice<string>();
  const offer = (value: string | null, score: number, row: number, conf: number) => {
    if (value && looksLikeLabel(value)) return;
    choice.offer(value, score * conf);
    if (value && score * conf > best.confidence) best = { value, confidence: score * conf, row };
  };
  for (const rule of rules) {
    for (const h of hits(rows, rule.label)) {
      const row = rows[h.row]!;
      const cell = row.cells[h.cell]!;
      let rest = clean(cutAtLabel(cell.text.slice(h.end)));
      // Another label after this one (an OCR line of a form's header row: "Licensee Name TREC License Number").
      if (looksLikeLabel(rest)) rest = '';
      if (rest) {
        offer(accept(rest, h.row), rule.score * PLACE.same, h.row, row.confidence);
        continue;
      }
      const next = row.cells[h.cell + 1];
      if (next) {
        const v = accept(clean(cutAtLabel(next.text)), h.row);
        if (v) {
          offer(v, rule.score * PLACE.next, h.row, row.confidence);
          continue;
        }
      }
      let found = false;
      for (let k = 1; k <= (rule.reach ?? 1) && !found; k++) {
        const below = cellBelow(rows, h.row, h.row + k, h.cell);
        if (below === null) break;
        const v = accept(clean(cutAtLabel(below)), h.row + k);
        if (v) {
          offer(v, rule.score * PLACE.below, h.row + k, Math.min(row.confidence, rows[h.row + k]!.confidence));
          found = true;
        } else if (!rule.reach || !isProse(below)) break;
      }
      if (!found && h.whole && h.cell === 0 && h.row > 0 && !rule.reach) {
        const above = cellBelow(rows, h.row, h.row - 1, h.cell);
        const v = above === null ? null : accept(clean(above), h.row - 1);
        if (v) offer(v, rule.score * PLACE.above, h.row - 1, Math.min(row.confidence, rows[h.row - 1]!.confidence));
      }
    }
  }
  const settled = choice.best((a, b) => a.toLowerCase() === b.toLowerCase());
  return { ...best, confidence: settled.confidence };
}

// ---------------------------------------------------------------- course

const COURSE_LABELS: LabelRule[] = [
  {
    label:
      /\b(?:course\s*(?:title|name)|title\s+of\s+(?:course|program)|program\s+(?:title|name)|class\s+(?:title|name)|seminar\s+title)\s*[:\-–]?\s*/i,
    score: 1,
  },
  { label: /^(?:course|class|program|seminar|title|subject|topic)\s*[:\-–]\s*/i, score: 0.95 },
  { label: /^(?:course|title)\s*$/i, score: 0.9 },
  {
    label:
      /\b(?:has\s+)?(?:successfully\s+)?(?:completed|attended|finished|passed|for\s+attending)\b\s*(?:the\s+)?(?:following\s+)?(?:(?:approved\s+)?(?:continuing\s+education|ce|online|classroom|distance\s+education|real\s+estate|elective|mandatory)\s+)*(?:course|class|program|seminar|module)?\s*(?:entitled|titled|named|of)?\s*:?\s*/i,
    score: 0.85,
    reach: 3,
  },
  {
    label: /\bfor\s+(?:the\s+)?(?:successful(?:ly)?\s+)?(?:completion\s+of|completing)\s*(?:the\s+)?(?:course|class|program)?\s*:?\s*/i,
    score: 0.8,
    reach: 3,
  },
  {
    label:
      /\b(?:hours?|credits?)\s+of\s+(?:approved\s+)?(?:continuing\s+education|ce|instruction|education|training)?\s*(?:credit\s+)?(?:in|on|for|entitled)\s*:?\s*/i,
    score: 0.8,
    reach: 2,
  },
  { label: /\b(?:in\s+the\s+(?:course|subject)\s+of|course\s+entitled|program\s+entitled)\s*:?\s*/i, score: 0.85, reach: 2 },
  { label: /\bfor\s+the\s+(?:course|class|program|seminar)\s*:?\s*$/i, score: 0.85, reach: 2 },
];

const NOT_A_TITLE =
  /^(?:certif|congratulations|course\s*(?:#|no\b|number|approval|date|hours|provider)|date\b|hours?\b|credit|total|license|provider|name\b|student|page\b|approved\b|and\b|with\b)/i;
/** Hours or a price in a value: not a title ("3 CE hours"), unless the title starts so ("14 Hour Continuing Education"). */
const HAS_NUMBERS_OF_OTHER_FIELDS =
  /(?<!^)\b\d+(?:\.\d+)?\s*(?:ce\s+|credit\s+|clock\s+)?(?:hours?|hrs?)\b|^\d+(?:\.\d+)?\s*(?:hours?|hrs?)\s+of\b|^\d+(?:\.\d+)?\s*(?:ce\s+|credit\s+|clock\s+)(?:hours?|hrs?)\b|\$\s?\d/i;

function courseValue(rows: Row[]): (v: string, row: number) => string | null {
  return (v, row) => {
    // A sentence goes on after the title: "attended Code of Ethics Training at our Westchase office on the 12th".
    v = v.replace(
      /\s+(?:(?:at|in)\s+(?:our|its|their)\b|on\s+(?:the\s+)?\d|on\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d).*$/i,
      '',
    );
    let value = v
      .replace(/\s*\((?:\d+(?:\.\d+)?\s*(?:ce\s+|credit\s+)?(?:hours?|hrs?)|online|classroom|live|webinar)[^)]*\)\s*$/i, '')
      .trim();
    // A title over two lines: the next line goes on when this one stops mid-phrase or the next starts in lower case.
    const next = rows[row + 1];
    if (next && next.cells.length === 1 && next.page === rows[row]!.page) {
      const nt = clean(next.text);
      const sameSize = rows[row]!.height !== null && next.height !== null && Math.abs(rows[row]!.height! - next.height!) < 0.5;
      const close = rows[row]!.y !== null && next.y !== null && Math.abs(rows[row]!.y! - next.y!) < 1.6 * (rows[row]!.height ?? 0);
      const goesOn = endsOpen(value) || /^(?:[a-z&]|and\b|of\b|in\b)/.test(nt) || (sameSize && close && rows[row]!.height! >= 14);
      if (
        goesOn &&
        nt &&
        plausible(nt) &&
        !isProse(nt) &&
        !NOT_A_TITLE.test(nt) &&
        !findDates(nt).length &&
        !HAS_NUMBERS_OF_OTHER_FIELDS.test(nt)
      )
        value = `${value} ${nt}`;
    }
    value = clean(value);
    if (!plausible(value, 4) || NOT_A_TITLE.test(value) || findDates(value).length || HAS_NUMBERS_OF_OTHER_FIELDS.test(value)) return null;
    if (isProse(value) || !titleLike(value)) return null;
    return titleCase(value);
  };
}

function courseName(rows: Row[]): Found<string> {
  const found = labelled(rows, COURSE_LABELS, courseValue(rows));
  if (found.value) return { value: found.value, confidence: found.confidence };
  // A quoted title anywhere.
  for (const row of rows) {
    const m = /"([^"]{4,})"/.exec(row.text);
    if (m && plausible(m[1]!) && !isProse(m[1]!)) return { value: clean(m[1]!), confidence: 0.7 * row.confidence };
  }
  return nothing();
}

// ---------------------------------------------------------------- provider

const PROVIDER_LABELS: LabelRule[] = [
  { label: /\b(?:course\s+|education\s+|ce\s+|approved\s+)?provider(?:\s+name)?\s*[:\-–]\s*/i, score: 1 },
  { label: /^(?:school|sponsor|provider|sponsoring\s+organization|education\s+provider)\s*(?:name)?\s*[:\-–]?\s*/i, score: 0.95 },
  { label: /^(?:course|education|ce|approved)\s+provider(?:\s+name)?\s*:?\s*$/i, score: 0.95 },
  { label: /\b(?:sponsored|offered|provided|presented|conducted|delivered)\s+by\s*:?\s*/i, score: 0.9 },
];
/** Words that name a school; a letterhead line with one is taken for the provider when no label names it. */
const SCHOOL_WORDS =
  /\b(school|academy|institute|college|university|center|centre|online|education|learning|partners|association|realtors?|training|seminars?|courses?|ce|inc|llc)\b/i;
const GENERIC_WORDS =
  /\b(?:continuing|education|approved|real|estate|ce|course|courses|credit|hours?|certificate|of|completion|online|training|and|the|for)\b|[^A-Za-z]/gi;
const REGULATOR = /\b(commission|department|division|dbpr|bureau|board\s+of|state\s+of)\b|^(?:trec|dre|frec)$/i;

function providerValue(v: string): string | null {
  const value = clean(
    v.replace(/\s+\d{2,}$/, '').replace(/\s*[,(]?\s*(?:provider|sponsor|trec|dbpr|dre)?\s*(?:#|no\.?|number)\s*:?\s*[\w-]+\)?\s*$/i, ''),
  );
  if (!plausible(value) || isProse(value) || REGULATOR.test(value) || findDates(value).length) return null;
  if (/^(?:name|date|hours?)\b/i.test(value) || value.split(/\s+/).length > 9) return null;
  return titleCase(value);
}

function providerOf(rows: Row[]): Found<string> {
  const found = labelled(rows, PROVIDER_LABELS, (v) => providerValue(v));
  if (found.value) return { value: found.value, confidence: found.confidence };
  // The letterhead: one of the first lines of the page, naming a school, not the certificate's title.
  const firstPage = rows.filter((r) => r.page === rows[0]?.page).slice(0, 5);
  for (const row of firstPage) {
    // A letterhead's parts: "Golden State CE Online — Course Completion Record".
    for (const cell of row.cells.flatMap((c) => c.text.split(/\s+[—–|·•]\s+|\s+-\s+/).map((text) => ({ text })))) {
      if (/:/.test(cell.text)) continue;
      if (!SCHOOL_WORDS.test(cell.text) || /certif|complet|transcript|order|invoice|receipt|page\s+\d/i.test(cell.text)) continue;
      // A label or a generic heading ("Approved Continuing Education") is no school's name.
      if (
        /^(?:course|title|name|student|license|hours?|date|approved|official)\b/i.test(cell.text) ||
        !cell.text.replace(GENERIC_WORDS, '').trim()
      )
        continue;
      const value = providerValue(cell.text);
      if (value) return { value, confidence: 0.6 * row.confidence };
    }
  }
  return nothing();
}

// ---------------------------------------------------------------- holder

const HOLDER_LABELS: LabelRule[] = [
  {
    label: /\b(?:licensee|student|attendee|participant|holder|agent|salesperson|broker|registrant)(?:'s)?\s*(?:full\s+)?name\s*[:\-–]?\s*/i,
    score: 1,
  },
  { label: /\b(?:licensee|student|attendee|participant|agent|awardee|recipient)\s*[:\-–]\s*/i, score: 1 },
  { label: /^\s*(?:full\s+)?name\s*[:\-–]?\s*/i, score: 0.95 },
  { label: /^(?:licensee|student|attendee|participant|agent|salesperson|broker|registrant|recipient)\s*$/i, score: 0.95 },
  {
    label:
      /\b(?:be\s+it\s+known\s+that|know\s+all\s+(?:persons|men)\s+by\s+these\s+presents\s+that|this\s+(?:is\s+to\s+)?certif(?:y|ies)\s+that|is\s+hereby\s+awarded\s+to|awarded\s+to|presented\s+to|granted\s+to|issued\s+to|certifies\s+that|we\s+certify\s+that|it\s+is\s+certified\s+that)\s*:?\s*/i,
    score: 0.9,
  },
];

const NAME_WORD = "[A-Z][A-Za-z'.-]*";
const NAME_RE = new RegExp(`^(${NAME_WORD}(?:\\s+${NAME_WORD}){1,3})`);
const LAST_FIRST = new RegExp(
  `^([A-Z][A-Za-z'-]+(?:\\s+(?:Jr|Sr|II|III)\\.?)?),\\s*(${NAME_WORD}(?:\\s+[A-Z]\\.?|\\s+${NAME_WORD})?)(?=$|[\\s,;(])`,
);
const NOT_A_NAME =
  /\b(?:certificate|completion|course|hours?|license|real\s+estate|school|academy|date|provider|commission|continuing|education|has|the)\b/i;

function nameValue(v: string): string | null {
  // OCR's 0 for O at a name's start ("0'Brien").
  const s = v.replace(/^(?:mr|mrs|ms|dr)\.?\s+/i, '').replace(/(^|\s)0(?=['’]?[A-Za-z])/g, '$1O');
  const lf = LAST_FIRST.exec(s);
  if (lf && !/^(?:License|Lic|Inc|LLC)$/i.test(lf[2]!.split(/\s/)[0]!)) {
    const name = `${lf[2]} ${lf[1]}`.replace(/\s+/g, ' ');
    if (!NOT_A_NAME.test(name)) return titleCase(name);
  }
  const m = NAME_RE.exec(s);
  if (!m) return null;
  const name = m[1]!.replace(/\s+(?:has|license|licensee|lic|who|for|of|is|was|completed|attended|in|agent|broker)\b.*$/i, '').trim();
  if (name.split(/\s+/).length < 2 || NOT_A_NAME.test(name) || !plausible(name, 4)) return null;
  return titleCase(name);
}

function holderName(rows: Row[]): Found<string> {
  const found = labelled(rows, HOLDER_LABELS, (v) => nameValue(v));
  if (found.value) return { value: found.value, confidence: found.confidence };
  // A letter's address block: "Ms. Maria Gonzalez" alone on its line.
  for (const row of rows.slice(0, 12)) {
    const m = /^(?:mr|ms|mrs|miss|dr)\.?\s+(.+)$/i.exec(row.text);
    const name = m ? nameValue(m[1]!) : null;
    if (name && name.split(/\s+/).length <= 4) return { value: name, confidence: 0.75 * row.confidence };
  }
  return nothing();
}

/**
 * A value beside its label: after it in the cell, else in the next cell, else in the cell below (a label above
 * its value); `read` refuses what is not a value. The score says where it was found.
 */
function besideOrBelow<T>(
  rows: Row[],
  r: number,
  c: number,
  rest: string,
  read: (s: string) => T | null,
): { value: T; score: number; conf: number } | null {
  const row = rows[r]!;
  if (rest.trim() && !looksLikeLabel(rest.trim())) {
    const v = read(rest.trim());
    return v === null ? null : { value: v, score: PLACE.same, conf: row.confidence };
  }
  const next = row.cells[c + 1];
  if (next) {
    const v = read(next.text);
    if (v !== null) return { value: v, score: PLACE.next, conf: row.confidence };
  }
  const below = cellBelow(rows, r, r + 1, c);
  if (below !== null) {
    const conf = Math.min(row.confidence, rows[r + 1]!.confidence);
    const v = read(below);
    if (v !== null) return { value: v, score: PLACE.below, conf };
    // An OCR line without cells: a label ending its line ("Licensee Name TREC License Number") has its value
    // at the end of the line below ("GONZALEZ, MARIA 0654321"); a guess.
    const last = below.split(/\s+/).at(-1);
    const w = row.cells.length === 1 && rows[r + 1]!.cells.length === 1 && last ? read(last) : null;
    if (w !== null) return { value: w, score: 0.8, conf };
  }
  return null;
}

// ---------------------------------------------------------------- license

const LICENSE_LABEL =
  /\b(?:(?:dre|trec|bre|dbpr|real\s+estate|re|sales(?:person)?|broker(?:'s)?|agent|state)\s+)?(?:license|licence|lic\.?)\s*(?:n[o0]\.?|number|num\.?|#|id|i\.d\.)?\s*[:#]?\s*/gi;
const LICENSE_VALUE = /^([A-Z]{0,4}[-\s.]?[0-9OolI][0-9A-Za-z-]{3,})\b/;

function licenseNumber(rows: Row[]): Found<string> {
  const choice = new Choice<string>();
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < row.cells.length; c++) {
      const text = row.cells[c]!.text;
      LICENSE_LABEL.lastIndex = 0;
      for (let m = LICENSE_LABEL.exec(text); m; m = LICENSE_LABEL.exec(text)) {
        if (/\b(?:provider|school|sponsor|course|instructor|teacher|company|firm|office)(?:'s)?\s*$/i.test(text.slice(0, m.index)))
          continue;
        if (/^(?:law|laws|expir|renew|status|type|class)/i.test(text.slice(m.index + m[0].length))) continue;
        const found = besideOrBelow(rows, r, c, text.slice(m.index + m[0].length), (rest) => {
          const v = LICENSE_VALUE.exec(rest.trim().replace(/^(?:no\.?|number|#)\s*:?\s*/i, ''));
          if (!v) return null;
          // Digits read with letters by OCR are repaired after the letter prefix.
          // "CA 02145678": the state's code before the number is not part of it.
          const raw = v[1]!
            .replace(
              /^(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)\s+(?=\d{5,}$)/,
              '',
            )
            .replace(/\s+/g, '');
          const prefix = /^[A-Z]{0,4}[-.]?/.exec(raw)![0];
          const value = (prefix + digits(raw.slice(prefix.length)).replace(/\./g, '')).toUpperCase();
          return /\d{3,}/.test(value) ? value : null;
        });
        if (!found) continue;
        const { value, score, conf } = found;
        choice.offer(value, score * conf);
      }
    }
  }
  return choice.best();
}

// ---------------------------------------------------------------- approval number

const APPROVAL_LABELS =
  /\b(?:(?:trec|dbpr|dre|state|ce|frec|arello|course)\s+)*(?:course\s+)?(?:approval|approved\s+course|certification|course|offering|activity)\s*(?:no\.?|number|num\.?|#|id|code|i\.d\.)\s*[:#]?\s*|\bapproval\s*[:#]\s*/gi;
const APPROVAL_VALUE = /^#?\s*([A-Z0-9][A-Z0-9./-]*\d[A-Z0-9./-]*)\b/i;

function approvalNumber(rows: Row[]): Found<string> {
  const choice = new Choice<string>();
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < row.cells.length; c++) {
      const text = row.cells[c]!.text;
      APPROVAL_LABELS.lastIndex = 0;
      for (let m = APPROVAL_LABELS.exec(text); m; m = APPROVAL_LABELS.exec(text)) {
        const label = m[0];
        const before = text.slice(Math.max(0, m.index - 20), m.index);
        // A provider's or a certificate's own number is not the course's approval.
        if (/\b(?:provider|sponsor|school|certificate|order|invoice|license)\s*$/i.test(before)) continue;
        if (/^(?:certification)/i.test(label.trim()) && !/approval|course/i.test(label)) continue;
        const found = besideOrBelow(rows, r, c, text.slice(m.index + label.length), (rest) => {
          const v = APPROVAL_VALUE.exec(rest.trim());
          if (!v || findDates(rest.trim().slice(0, 12)).length) return null;
          const value = v[1]!.replace(/[.-]$/, '').toUpperCase();
          return value.replace(/[^0-9]/g, '').length < 2 ? null : value;
        });
        if (!found) continue;
        const { value, conf } = found;
        const score = found.score * (/approv/i.test(label) ? 1 : 0.9);
        choice.offer(value, score * conf);
      }
    }
  }
  return choice.best();
}

// ---------------------------------------------------------------- hours

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
  'forty-five': 45,
  'twenty-four': 24,
};
const NUM = `(?:[\\dOolIS]{1,3}(?:[.,]\\d{1,2})?|\\d*\\.\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})`;
const HALF = '(?:\\s+and\\s+(?:one[-\\s])?half|\\s+and\\s+a\\s+half|\\s*½)?';
const UNIT =
  '(?:ce\\s+|credit\\s+|clock\\s+|contact\\s+|continuing\\s+education\\s+|classroom\\s+|instructional\\s+|elective\\s+|core\\s+|approved\\s+)*(?:hours?|hrs?\\.?|credits?)';
/** "Credit Hours: 3", "Total CE Hours 3", "Hours Awarded: 7.5". */
const HOURS_LABELLED = new RegExp(
  `\\b(?:(?:ce|credit|clock|contact|approved|continuing\\s+education|total|course|awarded|earned)\\s+)*(?:hours?|hrs?|credits?|credit\\s+hours?)\\s*(?:awarded|earned|completed|approved|credited)?\\s*(?:[:=\\-–]\\s*|\\s+)(${NUM})${HALF}\\b(?!\\s*[/.-]\\d)`,
  'gi',
);
/** "3 CE hours", "three (3) hours", "Three Clock Hours", "7.5 hrs". */
const HOURS_SUFFIXED = new RegExp(
  `\\b(${NUM})${HALF}\\s*(?:\\((\\d{1,3}(?:\\.\\d{1,2})?)\\)\\s*|\\([a-z-]+\\)\\s*)?[-\\s]?${UNIT}\\b`,
  'gi',
);
const TOTAL = /\btotal\b/i;
/** Hours that are not the course's: a license's requirement, a deadline, office hours. */
const NOT_COURSE_HOURS =
  /\b(?:within|per|every|required|requirement|renewal|office|business|open|after|before|up\s+to|of\s+the\s+\d+|need|needs|must|remaining|minimum)\b/i;

function numberOf(raw: string, half: string): number | null {
  const word = NUMBER_WORDS[raw.toLowerCase()];
  const n = word ?? Number(digits(raw));
  if (!Number.isFinite(n) || n <= 0 || n > 60) return null;
  return n + (half.trim() ? 0.5 : 0);
}

interface HoursHit {
  value: number;
  score: number;
  total: boolean;
}

function hoursIn(text: string): HoursHit[] {
  const found: Array<HoursHit & { at: number; end: number }> = [];
  const take = (m: RegExpExecArray, score: number, paren?: string) => {
    const half = /and|½/.test(m[0]) ? 'half' : '';
    const value = paren ? Number(paren) : numberOf(m[1]!, half);
    if (value === null || !Number.isFinite(value) || value <= 0 || value > 60) return;
    const at = m.index;
    const end = at + m[0].length;
    if (found.some((f) => at < f.end && end > f.at)) return;
    const before = text.slice(Math.max(0, at - 24), at);
    if (NOT_COURSE_HOURS.test(before)) return;
    found.push({ value, score, total: TOTAL.test(m[0]) || /\btotal\b[^,;]*$/i.test(before), at, end });
  };
  HOURS_LABELLED.lastIndex = 0;
  for (let m = HOURS_LABELLED.exec(text); m; m = HOURS_LABELLED.exec(text)) {
    // A bare number after "hours" with no colon must stand alone ("Hours 3", not "hours of the 18").
    if (
      !/[:=\-–]/.test(m[0]) &&
      !/^\s*$/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 1)) &&
      text.length > m.index + m[0].length
    ) {
      if (!/^[\s,;)]/.test(text.slice(m.index + m[0].length))) continue;
    }
    take(m, /[:=\-–]/.test(m[0]) ? 1 : 0.9);
  }
  HOURS_SUFFIXED.lastIndex = 0;
  for (let m = HOURS_SUFFIXED.exec(text); m; m = HOURS_SUFFIXED.exec(text)) take(m, 0.9, m[2]);
  return found.map(({ value, score, total }) => ({ value, score, total }));
}

function hoursOf(rows: Row[]): Found<number> {
  const choice = new Choice<number>();
  const totals = new Choice<number>();
  const consider = (value: number, score: number, conf: number) => choice.offer(value, score * conf);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const all: HoursHit[] = [];
    for (let c = 0; c < row.cells.length; c++) {
      const text = row.cells[c]!.text;
      const here = hoursIn(text);
      // "Credit Hours" alone in its cell: the value is the next cell or the one below.
      if (
        !here.length &&
        /^(?:(?:total\s+)?(?:ce\s+|credit\s+|clock\s+|contact\s+)?(?:hours?|hrs|credits?)(?:\s+(?:awarded|earned|completed))?|(?:ce\s+)?credit\s+hours?)\s*:?$/i.test(
          text,
        )
      ) {
        const read = (value: string | null | undefined) => {
          const m = value ? new RegExp(`^(${NUM})${HALF}\\b`, 'i').exec(value.trim()) : null;
          return m ? numberOf(m[1]!, /and|½/.test(m[0]) ? 'half' : '') : null;
        };
        const beside = read(row.cells[c + 1]?.text);
        const below = beside === null ? read(cellBelow(rows, r, r + 1, c)) : null;
        const conf = beside === null ? Math.min(row.confidence, rows[r + 1]?.confidence ?? 0) : row.confidence;
        const n = beside ?? below;
        if (n !== null)
          all.push({ value: n, score: (beside !== null ? 1 : 0.95) * (conf / Math.max(row.confidence, 0.01)), total: /total/i.test(text) });
      }
      all.push(...here);
      // An OCR line of a form's labels ending with the hours' label, its values on the line below: the last one.
      if (
        !here.length &&
        c === row.cells.length - 1 &&
        /\b(?:credit|ce|clock)\s+hours\s*:?$/i.test(text) &&
        !/^(?:credit|ce|clock)\s+hours/i.test(text)
      ) {
        const below = rows[r + 1];
        const m = below && below.cells.length === 1 ? /(?:^|\s)(\d{1,2}(?:\.\d{1,2})?)$/.exec(below.text) : null;
        const n = m ? Number(m[1]) : NaN;
        if (n > 0 && n <= 60)
          all.push({ value: n, score: (0.8 * Math.min(row.confidence, below!.confidence)) / Math.max(row.confidence, 0.01), total: false });
      }
    }
    if (!all.length) continue;
    const total = all.find((h) => h.total);
    if (total) {
      totals.offer(total.value, row.confidence);
      continue;
    }
    const distinct = new Set(all.map((h) => h.value));
    if (distinct.size > 1 && all.length > 1) {
      // Hours split by topic on one line and no total: their sum, a guess.
      consider(
        all.reduce((s, h) => s + h.value, 0),
        0.5,
        row.confidence,
      );
      continue;
    }
    for (const h of all) consider(h.value, h.score, row.confidence);
  }
  // A "Total" line wins over the topics above it even when both are labelled.
  const total = totals.best();
  return total.value !== null ? total : choice.best();
}

// ---------------------------------------------------------------- dates

interface DateCandidate {
  value: string;
  meaning: DateMeaning;
  score: number;
}

const PARTIAL_DATE =
  /(?:\b\d{1,2}(?:st|nd|rd|th)?\s+(?:day\s+)?of|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?)\s*$/i;

function dateCandidates(rows: Row[]): DateCandidate[] {
  const found: DateCandidate[] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < row.cells.length; c++) {
      let text = row.cells[c]!.text;
      // A date broken over two lines of a sentence: "on the 11th of" / "November, 2026, and earned".
      const next = rows[r + 1];
      if (row.cells.length === 1 && next && next.cells.length === 1 && PARTIAL_DATE.test(text)) text = `${text} ${next.text.slice(0, 24)}`;
      let from = 0;
      let inCell: DateCandidate | null = null;
      for (const d of findDates(text)) {
        let label = text.slice(from, d.index);
        from = d.end;
        const own = text.slice(d.index, d.end);
        if (/\bday\s+of\b/i.test(own)) label += ' day of';
        let meaning = dateMeaning(label);
        // The end of a range ("01/05/2026 - 01/06/2026", "through") is the day the course ended.
        if (inCell && /^\s*(?:-|–|—|to|through|thru|until)\s*$/i.test(label)) {
          meaning = inCell.meaning === 'none' ? 'plain' : inCell.meaning;
          inCell.score *= 0.9;
        }
        if (meaning === 'none' && c > 0) meaning = dateMeaning(row.cells[c - 1]!.text);
        // A date early in a sentence's line: the sentence began on the line above ("...you attended X at our" /
        // "office on the 12th of December").
        if (meaning === 'none' && clean(label) && d.index < 40 && r > 0 && row.cells.length === 1 && rows[r - 1]!.cells.length === 1)
          meaning = dateMeaning(`${rows[r - 1]!.text} ${label}`);
        // Several dates under one line of labels (an OCR line without cells): "Course Start Date Course Completion Date".
        if (meaning === 'none' && !clean(label) && r > 0 && row.cells.length === 1 && rows[r - 1]!.cells.length === 1) {
          const labels = rows[r - 1]!.text.split(/(?<=\bdate)\s+/i).filter((l) => /\bdate$/i.test(l));
          const all = findDates(text);
          if (labels.length === all.length && labels.length > 1)
            meaning = dateMeaning(labels[all.findIndex((f) => f.index === d.index)] ?? '');
        }
        if (meaning === 'none' && !clean(label)) {
          // Label above (a header) or a caption below.
          const above = r > 0 ? cellBelow(rows, r, r - 1, c) : null;
          if (above && !findDates(above).length) meaning = dateMeaning(above);
          if (meaning === 'none') {
            const below = cellBelow(rows, r, r + 1, c);
            if (below && !findDates(below).length && below.length < 40) meaning = dateMeaning(below);
          }
          if (meaning === 'none' && r > 0 && rows[r - 1]!.cells.length === 1 && !findDates(rows[r - 1]!.text).length) {
            const prev = rows[r - 1]!.text;
            if (/\b(?:complet\w*|date|issued|on)\s*:?\s*$/i.test(prev)) meaning = dateMeaning(prev);
          }
        }
        // Text after the date on its line: "09/18/2026 (completed)".
        if (meaning === 'none') {
          const after = text.slice(d.end, d.end + 24);
          if (/^\s*\(?\s*(?:completed|completion)/i.test(after)) meaning = 'completion';
        }
        const candidate: DateCandidate = { value: d.value, meaning, score: DATE_SCORES[meaning] * row.confidence };
        inCell = candidate;
        if (candidate.score > 0) found.push(candidate);
      }
    }
  }
  return found;
}

function completionDate(rows: Row[]): Found<string> {
  const candidates = dateCandidates(rows);
  const good = candidates.filter((c) => c.meaning !== 'other');
  const pool = good.length ? good : candidates;
  let best = nothing<string>();
  let meaning: DateMeaning = 'none';
  for (const c of pool)
    if (c.score > best.confidence) {
      best = { value: c.value, confidence: c.score };
      meaning = c.meaning;
    }
  // Two different completion dates: the reading is less sure.
  const rivals = new Set(pool.filter((c) => c.score >= best.confidence - 0.02).map((c) => c.value));
  if (rivals.size > 1) best = { value: best.value, confidence: best.confidence * 0.7 };
  // Whether a completion label names it (the judge confirms only such a date, docs/ocr.md "Judge").
  return best.value === null ? best : { ...best, labelled: meaning === 'completion' };
}

// ---------------------------------------------------------------- kind, pages

const CERT_SIGNS = [
  /\bcertif(?:y|ies|ied)\s+that\b/i,
  /\bcertificate\s+of\s+(?:completion|attendance|achievement|participation|credit)\b/i,
  /\b(?:completion|ce|continuing\s+education)\s+certificate\b/i,
  /\bhas\s+(?:successfully\s+)?(?:completed|attended|satisfactorily)\b|\bsuccessfully\s+completed\b/i,
  /\b(?:awarded|presented|granted|issued)\s+to\b/i,
  /\b(?:date\s+of\s+completion|completion\s+date|date\s+completed|completed\s+on)\b/i,
  /\btranscript\b/i,
  /\bcredit\s+hours?\b|\bce\s+hours?\b|\bclock\s+hours?\b/i,
  /\bcertificate\b/i,
];
const INVOICE_SIGNS = [
  /\binvoice\b/i,
  /\breceipt\b/i,
  /\b(?:amount|balance)\s+(?:due|paid)\b|\btotal\s+paid\b|\bpayment\s+(?:received|method)\b|\bpaid\s+(?:by|with)\b/i,
  /\bsub-?total\b/i,
  /\bbill(?:ed)?\s+to\b/i,
  /\border\s*(?:#|no\.?|number)/i,
  /\$\s?\d+(?:,\d{3})*\.\d{2}\b|\b\d+\.\d{2}\s*(?:usd)\b/i,
  /\b(?:qty|quantity|unit\s+price)\b/i,
  /\b(?:visa|mastercard|amex|credit\s+card|card\s+ending)\b/i,
  /\bsales\s+tax\b|\btax\s*:/i,
];
const COVER_SIGNS = [
  /\bfax\b/i,
  /\bcover\s+(?:sheet|page|letter)\b/i,
  /\btransmittal\b/i,
  /\bdear\b/i,
  /\bsincerely\b/i,
  /\benclosed\b|\battached\b/i,
  /\bnumber\s+of\s+pages\b|\bpages?\s*(?:\(including\s+cover\))?\s*:/i,
  /\bpage\s+1\s+of\s+\d\b/i,
];
const LETTER_SIGNS = [
  /\bre\s*:/i,
  /\battn\b/i,
  /\bdear\b/i,
  /\bsincerely\b/i,
  /\bhas\s+approved\b|\bapproval\s+(?:is\s+)?valid\b/i,
  /\bregards\b/i,
];
const CERT_CORE =
  /\bcertif(?:y|ies|ied)\s+that\b|\bcertificate\s+of\b|\bhas\s+(?:successfully\s+)?completed\b|\bawarded\s+to\b|\bpresented\s+to\b|\btranscript\b|\bcompletion\s+date\b|\bdate\s+of\s+completion\b|\bbe\s+it\s+known\b|\bis\s+(?:hereby\s+)?awarded\b|\b(?:confirms?|verif(?:y|ies))\s+that\s+(?:you|[A-Z][a-z]+\s+[A-Z][a-z]+)\s+(?:has\s+|have\s+)?(?:successfully\s+)?(?:attended|completed)\b/i;

const count = (signs: RegExp[], text: string) => signs.filter((s) => s.test(text)).length;

/**
 * The pages to read: a cover sheet (a fax cover, a letter "Page 1 of 3") is skipped when another page holds
 * the certificate.
 */
function certificatePages(rows: Row[]): Row[] {
  const pages = [...new Set(rows.map((r) => r.page))];
  if (pages.length < 2) return rows;
  const kept = pages.filter((p) => {
    const text = rows
      .filter((r) => r.page === p)
      .map((r) => r.text)
      .join('\n');
    const cover = count(COVER_SIGNS, text);
    const cert = count(CERT_SIGNS, text);
    return !(cover >= 2 && cert <= cover) && !(cover >= 1 && cert === 0);
  });
  const withCertificate = kept.filter((p) =>
    CERT_CORE.test(
      rows
        .filter((r) => r.page === p)
        .map((r) => r.text)
        .join('\n'),
    ),
  );
  const chosen = withCertificate.length ? kept.filter((p) => p >= withCertificate[0]!) : kept;
  return chosen.length ? rows.filter((r) => chosen.includes(r.page)) : rows;
}

// ---------------------------------------------------------------- the parse

function readCourseOf(t: TableCourse): ReadCourse {
  return {
    course_name: t.course_name,
    hours: t.hours,
    completion_date: t.completion_date,
    approval_number: t.approval_number,
  };
}

/** The certificate's kind, fields and (a transcript) courses from its lines. */
export function parseCertificate(lines: TextLine[]): ParsedCertificate {
  const rows = certificatePages(rowsOf(lines));
  const text = rows.map((r) => r.text).join('\n');
  const fields: ReadFields = {
    course_name: courseName(rows),
    provider: providerOf(rows),
    hours: hoursOf(rows),
    completion_date: completionDate(rows),
    holder_name: holderName(rows),
    license_number: licenseNumber(rows),
    state: stateOf(rows),
    approval_number: approvalNumber(rows),
  };
  const table = readTable(rows);
  let courses: ReadCourse[] = [];
  if (table.length >= 2) {
    courses = table.map(readCourseOf);
    // The document's course fields are its first course's.
    Object.assign(fields, courses[0]);
  } else if (table.length === 1) {
    const only = table[0]!;
    for (const key of ['course_name', 'hours', 'completion_date', 'approval_number'] as const) {
      const mine = only[key] as ReadValue<never>;
      if (mine.value !== null && mine.confidence >= (fields[key] as ReadValue<never>).confidence)
        (fields[key] as ReadValue<unknown>) = mine;
    }
  }
  const certificateSigns = count(CERT_SIGNS, text);
  const invoiceSigns = count(INVOICE_SIGNS, text);
  // Certificate wording in a heading or a label, or "certifies that": not in a sentence ("your certificate of
  // completion will be available after the exam", "certificates issued to students must show...").
  const certificateWording =
    /\bcertif(?:y|ies|ied)\s+that\b|\b(?:confirms?|verif(?:y|ies))\s+that\s+(?:you|[A-Z][a-z]+\s+[A-Z][a-z]+)\s+(?:has\s+|have\s+)?(?:successfully\s+)?(?:attended|completed)\b/i.test(
      text,
    ) || rows.some((r) => r.text.split(/\s+/).length <= 12 && CERT_CORE.test(r.text));
  let kind: CertificateKind = 'certificate';
  if (courses.length >= 2) kind = 'transcript';
  else if (invoiceSigns >= 2 && !certificateWording && (certificateSigns <= 2 || invoiceSigns >= 4)) kind = 'invoice';
  // No certificate wording and a letter ("Re:", "Attn:", "has approved"), or neither a course read whole (name,
  // hours, date) nor a holder with some certificate sign: a letter, a notice, something else.
  else if (
    !certificateWording &&
    (count(LETTER_SIGNS, text) >= 2 ||
      (!(fields.course_name.value && fields.hours.value && fields.completion_date.value) &&
        (certificateSigns === 0 || !fields.holder_name.value)))
  )
    kind = 'not_certificate';
  for (const f of Object.values(fields) as ReadValue<unknown>[]) f.confidence = round(f.confidence);
  for (const c of courses) for (const f of Object.values(c) as ReadValue<unknown>[]) f.confidence = round(f.confidence);
  return { kind, fields, courses };
}
