/**
 * The state a certificate names (docs/ocr.md "Fields"): a labelled "State:", the regulator ("Texas Real Estate
 * Commission", TREC, "California DRE", "Florida DBPR"), "State of Texas", a license line ("FL License"), an
 * address. Pure.
 */
import type { ReadValue } from './reading.ts';
import { cellBelow, type Row } from './parse-text.ts';

const STATES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
};
const CODES = new Set(Object.values(STATES));
/** Regulators known by their initials. */
const AGENCIES: Array<[RegExp, string]> = [
  [/\bTREC\b/, 'TX'],
  [/\bTDLR\b/, 'TX'],
  [/\b(?:Cal\s*)?DRE\b|\bCalBRE\b/, 'CA'],
  [/\bDBPR\b|\bFREC\b/, 'FL'],
  [/\bGREC\b/, 'GA'],
  [/\bADRE\b/, 'AZ'],
  [/\bNCREC\b/, 'NC'],
  [/\bNYS\b|\bNYSDOS\b/, 'NY'],
  [/\bIDFPR\b/, 'IL'],
  [/\bCDRE\b/, 'CO'],
];

const NAMES = Object.keys(STATES)
  .sort((a, b) => b.length - a.length)
  .join('|');
const STATE_NAME = new RegExp(`\\b(${NAMES})\\b`, 'gi');
const REGULATOR_AFTER =
  /^\s*(?:real\s+estate|department|dept\.?|division|board|commission|association|bureau|realtors|licens\w*|appraiser|sales|broker|ce\b|continuing|approved)/i;
const REGULATOR_BEFORE = /\b(?:state\s+of|commonwealth\s+of|licensed\s+in|approved\s+(?:in|by|for)|in\s+the\s+state\s+of)\s+$/i;
const LABEL = /\bstate\s*(?:of\s+licensure|licensed)?\s*[:\-–]\s*([A-Za-z .]{2,20})/i;

export function stateOf(rows: Row[]): ReadValue<string> {
  let best: ReadValue<string> = { value: null, confidence: 0 };
  const offer = (value: string | undefined, score: number, conf: number) => {
    if (value && score * conf > best.confidence) best = { value, confidence: score * conf };
  };
  const codeOf = (v: string): string | undefined => {
    const t = v.trim();
    if (/^[A-Z]{2}$/.test(t) && CODES.has(t)) return t;
    return STATES[
      t
        .toLowerCase()
        .replace(/[^a-z ]/g, '')
        .trim()
    ];
  };
  rows.forEach((row, r) =>
    row.cells.forEach((cell, c) => {
      // "STATE" above (or beside) its value, as in a form's header row.
      if (!/^state(?:\s+of\s+licensure)?\s*:?$/i.test(cell.text)) return;
      const beside = row.cells[c + 1] ? codeOf(row.cells[c + 1]!.text) : undefined;
      const below = cellBelow(rows, r, r + 1, c);
      offer(
        beside ?? (below === null ? undefined : codeOf(below)),
        beside ? 1 : 0.95,
        beside ? row.confidence : Math.min(row.confidence, rows[r + 1]?.confidence ?? 0),
      );
    }),
  );
  for (const row of rows) {
    const text = row.text;
    const labelled = LABEL.exec(text);
    if (labelled) {
      const v = labelled[1]!.trim();
      const code = v.slice(0, 2).toUpperCase();
      const named =
        STATES[
          v
            .toLowerCase()
            .replace(/[^a-z ]/g, '')
            .trim()
        ] ?? Object.entries(STATES).find(([n]) => v.toLowerCase().startsWith(n))?.[1];
      if (named) offer(named, 1, row.confidence);
      else if (CODES.has(code) && /^[A-Za-z]{2}\b/.test(v)) offer(code, 1, row.confidence);
    }
    for (const [re, code] of AGENCIES) if (re.test(text)) offer(code, 0.9, row.confidence);
    STATE_NAME.lastIndex = 0;
    for (let m = STATE_NAME.exec(text); m; m = STATE_NAME.exec(text)) {
      const code = STATES[m[1]!.toLowerCase()];
      const after = text.slice(m.index + m[0].length);
      const before = text.slice(0, m.index);
      if (REGULATOR_AFTER.test(after) || REGULATOR_BEFORE.test(before)) offer(code, 0.95, row.confidence);
      // An address: "Austin, Texas 78701".
      else if (/^\s*,?\s*\d{5}\b/.test(after) && /,\s*$/.test(before)) offer(code, 0.5, row.confidence);
      // A capitalised state name alone (not a person's first name such as Georgia: names take a label).
      else if (/^[A-Z]/.test(m[1]!) && !/\b(?:certif|name|awarded|presented)\b/i.test(text)) offer(code, 0.4, row.confidence);
    }
    // A code in a license line or an address: "FL License #SL123", "License: TX 0654321", "Austin, TX 78701".
    const lic =
      /\b([A-Z]{2})\s+(?:real\s+estate\s+)?(?:license|lic\.?)\b|\b(?:license|lic\.?)\s*(?:no\.?|#|number)?\s*[:#]?\s*\(?([A-Z]{2})\)?[\s-]+[A-Z]{0,3}\d/i.exec(
        text,
      );
    const code = (lic?.[1] ?? lic?.[2])?.toUpperCase();
    if (code && CODES.has(code) && /[A-Z]{2}/.test(lic![1] ?? lic![2]!)) offer(code, 0.7, row.confidence);
    // A code after a number in brackets: "License #: 02233441 (CA)", "Approval #: 39140 (TX)".
    const after = /\b(?:license|licence|lic\.?|approval|course)\b[^()]{0,30}\d\s*\(([A-Z]{2})\)/i.exec(text);
    if (after && CODES.has(after[1]!)) offer(after[1], 0.8, row.confidence);
    const address = /,\s*([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/.exec(text);
    if (address && CODES.has(address[1]!)) offer(address[1], 0.5, row.confidence);
  }
  return best;
}
