/**
 * Dates as certificates print them (docs/ocr.md "Fields"), normalised to YYYY-MM-DD, and what a date's label
 * says it is (a completion, an issue, an order, an expiry...). Pure.
 */

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
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** A day as OCR may read it: "5th" read "sth", "1st" read "lst", "10" read "1O". */
const DAY = '([0-9OolIsS]{1,2})';
const ORDINAL = '(?:st|nd|rd|th)';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function num(s: string): number {
  return Number(s.replace(/[Oo]/g, '0').replace(/[lI]/g, '1').replace(/[sS]/g, '5'));
}

function isoOf(y: number, m: number, d: number): string | null {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return null;
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const s = `${y}-${pad(m)}-${pad(d)}`;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s ? s : null;
}

const month = (s: string) => MONTHS[s.slice(0, 3).toLowerCase()]!;
/** A day read with letters must carry its ordinal ("sth"), else "s 2026" would be a day. */
const dayOk = (day: string, ordinal: boolean) => /^\d+$/.test(day) || ordinal;
const year = (s: string) => num(s);

interface Pattern {
  re: RegExp;
  read: (m: RegExpExecArray) => string | null;
}

const PATTERNS: Pattern[] = [
  // 2026-03-03
  { re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g, read: (m) => isoOf(+m[1]!, +m[2]!, +m[3]!) },
  // this 3rd day of November, 2026 / the 3rd day of November in the year 2026
  {
    re: new RegExp(
      `\\b${DAY}(${ORDINAL})?\\s+day\\s+of\\s+${MONTH}\\.?,?\\s+(?:in\\s+the\\s+year\\s+(?:of\\s+)?)?([12][0-9Oo]{3})\\b`,
      'gi',
    ),
    read: (m) => (dayOk(m[1]!, !!m[2]) ? isoOf(year(m[4]!), month(m[3]!), num(m[1]!)) : null),
  },
  // March 3, 2026 / Mar. 3rd 2026 / November sth, 2026 (OCR)
  {
    re: new RegExp(`\\b${MONTH}\\.?\\s+${DAY}(${ORDINAL})?,?\\s+([12][0-9Oo]{3})\\b`, 'gi'),
    read: (m) => (dayOk(m[2]!, !!m[3]) ? isoOf(year(m[4]!), month(m[1]!), num(m[2]!)) : null),
  },
  // 3 Mar 2026 / 3rd of March, 2026 / 03-Mar-2026
  {
    re: new RegExp(`\\b${DAY}(${ORDINAL})?(?:\\s+of)?[\\s-]+${MONTH}\\.?[\\s,-]+([12][0-9Oo]{3})\\b`, 'gi'),
    read: (m) => (dayOk(m[1]!, !!m[2]) ? isoOf(year(m[4]!), month(m[3]!), num(m[1]!)) : null),
  },
  // 03/03/2026 (US order, the office's convention; day first only when the month would be over 12) / 3-3-2026
  {
    re: /\b([0-9Oo]{1,2})\s?[/.-]\s?([0-9Oo]{1,2})\s?[/.-]\s?([12][0-9Oo]{3})\b/g,
    read: (m) => isoOf(year(m[3]!), num(m[1]!), num(m[2]!)) ?? isoOf(year(m[3]!), num(m[2]!), num(m[1]!)),
  },
  // 03/03/26
  {
    re: /\b(\d{1,2})\/(\d{1,2})\/(\d{2})(?![\d/])/g,
    read: (m) => isoOf(2000 + +m[3]!, +m[1]!, +m[2]!),
  },
];

export interface DateFound {
  value: string;
  index: number;
  end: number;
}

/** Every date in a text, in order, as YYYY-MM-DD. */
export function findDates(text: string): DateFound[] {
  const found: DateFound[] = [];
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const value = read(m);
      const index = m.index;
      const end = index + m[0].length;
      if (value && !found.some((f) => index < f.end && end > f.index)) found.push({ value, index, end });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The first date in a text, as YYYY-MM-DD, or null. */
export function parseDate(text: string): string | null {
  return findDates(text)[0]?.value ?? null;
}

/** What a date is, by its label. */
export type DateMeaning = 'completion' | 'issued' | 'plain' | 'none' | 'other' | 'expiry';

const COMPLETION =
  /\b(?:complet\w*|course\s+dates?|class\s+dates?|end\s+date|ended|date\s+of\s+(?:course|class|attendance|program|seminar|training|event)|attend\w*|date\s+taken|taken\s+on|held\s+on|finished|passed\s+on|course\s+ended|session\s+date|seminar\s+date|event\s+date|program\s+date|training\s+date)\b/i;
const ISSUED =
  /\b(?:issue\w*|award\w*|grant\w*|certified\s+on|certificate\s+date|date\s+of\s+(?:certificate|certification)|given|signed|dated|day\s+of)\b/i;
const OTHER =
  /\b(?:order\w*|purchas\w*|regist\w*|enrol\w*|exam\w*|letter|print\w*|fax\w*|sent|invoice\w*|payment|paid|billing|due|birth|dob|generated|shipped|transmitted|received|today|report\s+date|run\s+date|start\w*|began|begin)\b/i;
const EXPIRY = /\b(?:expir\w*|exp\.?|renew\w*|valid\s+(?:until|through|thru)|good\s+(?:until|through)|next\s+due|deadline)\b/i;
const PLAIN = /\bdate\b|\bon\b\s*:?\s*$/i;

/** The meaning of the label text before (or above) a date: the specific word nearest the date decides. */
export function dateMeaning(label: string): DateMeaning {
  const tail = label.trim().slice(-60);
  if (!tail) return 'none';
  let best: { at: number; meaning: DateMeaning } | null = null;
  for (const [re, meaning] of [
    [COMPLETION, 'completion'],
    [ISSUED, 'issued'],
    [OTHER, 'other'],
    [EXPIRY, 'expiry'],
  ] as const) {
    const g = new RegExp(re.source, 'gi');
    for (let m = g.exec(tail); m; m = g.exec(tail)) if (!best || m.index > best.at) best = { at: m.index, meaning };
  }
  if (best) return best.meaning;
  return PLAIN.test(tail) ? 'plain' : 'none';
}

/** How well a date's meaning makes it the completion date. */
export const DATE_SCORES: Record<DateMeaning, number> = {
  completion: 1,
  issued: 0.85,
  plain: 0.8,
  none: 0.6,
  other: 0.25,
  expiry: 0,
};
