/**
 * Messy import files as offices really send them (docs/decisions.md "Imports"): the roster of an office with its own
 * column names, semicolons, a byte-order mark, quoted fields with commas and semicolons, dates written four ways, and
 * exactly five bad rows (bad e-mail, bad date, a state that is not a code, no license number, an ambiguous date).
 * `npm exec tsx server/test/imports-fixtures.ts` (or node --experimental-strip-types) writes the files of
 * test-data/imports/ from the same builders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The office's own header words (none of them the field labels). */
export const ROSTER_HEADERS = [
  'Given name',
  'Surname',
  'E-mail',
  'Mobile',
  'Office Name',
  'Lic No',
  'St',
  'Type',
  'Issued',
  'Exp. Date',
  'Status',
  'CE Hours',
];

export interface RosterRow {
  first: string;
  last: string;
  email: string;
  phone: string;
  brokerage: string;
  number: string;
  state: string;
  type: string;
  issued: string;
  expires: string;
  status: string;
  hours: string;
}

/** The five bad rows (their spreadsheet row numbers: the header is row 1) and the column each error names. */
export const BAD_ROWS: Record<number, { column: string; reason: RegExp }> = {
  12: { column: 'E-mail', reason: /email/i },
  40: { column: 'Exp. Date', reason: /not a (real calendar )?date/i },
  77: { column: 'St', reason: /two-letter|at most|characters/i },
  120: { column: 'Lic No', reason: /License number is required/ },
  161: { column: 'Issued', reason: /ambiguous/ },
};

const FIRST = ['Ann', 'Ben', 'Cara', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jo'];
const LAST = ['Lee', 'Moss', 'Nunez', "O'Brien", 'Park', 'Quinn', 'Ruiz', 'Stone', 'Tran', 'Vega'];
const DATE_STYLES = [
  (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
  (y: number, m: number, d: number) => `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`,
  (y: number, m: number, d: number) =>
    `${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]} ${y}`,
  (y: number, m: number, d: number) =>
    `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]} ${d}, ${y}`,
];

/**
 * `n` roster rows of people at `brokerage` (a name with a comma and a semicolon, quoted in the CSV), each with one
 * license in `state`, CE hours left blank (the state rule's apply). With `bad`, the rows of BAD_ROWS are broken.
 */
export function rosterRows(prefix: string, n = 200, opts: { brokerage?: string; state?: string; bad?: boolean } = {}): RosterRow[] {
  const brokerage = opts.brokerage ?? `Smith; Jones & Co, Realty ${prefix}`;
  const rows: RosterRow[] = [];
  for (let i = 0; i < n; i++) {
    const style = DATE_STYLES[i % DATE_STYLES.length]!;
    const day = (i % 27) + 1;
    rows.push({
      first: FIRST[i % FIRST.length]!,
      last: `${LAST[Math.floor(i / 10) % LAST.length]!}-${i}`,
      email: `${prefix}.agent${i}@Office.example`,
      phone: `(555) 01${String(i).padStart(2, '0')}`,
      brokerage,
      number: `${prefix.toUpperCase()}-${String(i).padStart(6, '0')}`,
      state: opts.state ?? 'TX',
      type: i % 5 === 0 ? 'broker' : 'Sales',
      issued: style(2024, (i % 12) + 1, day),
      expires: style(2027, (i % 12) + 1, day),
      status: 'Active',
      hours: '',
    });
  }
  if (opts.bad !== false && n >= 160) {
    rows[12 - 2]!.email = 'not-an-email';
    rows[40 - 2]!.expires = '2027-13-45';
    rows[77 - 2]!.state = 'Texas';
    rows[120 - 2]!.number = '';
    rows[161 - 2]!.issued = '05/11/24';
  }
  return rows;
}

const asCells = (r: RosterRow) => [
  r.first,
  r.last,
  r.email,
  r.phone,
  r.brokerage,
  r.number,
  r.state,
  r.type,
  r.issued,
  r.expires,
  r.status,
  r.hours,
];

/** A CSV as a spreadsheet program in a semicolon locale writes it: BOM, ';', quotes where needed, CRLF. */
export function rosterCsv(rows: RosterRow[], delimiter = ';'): Buffer {
  const quote = (v: string) => (/[";,\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [ROSTER_HEADERS, ...rows.map(asCells)].map((cells) => cells.map(quote).join(delimiter));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The rows as spreadsheet cells (for an XLSX built with ExcelJS). */
export const rosterCells = (rows: RosterRow[]) => rows.map(asCells);

/** A completions CSV of a School's learning system (comma, no BOM). */
export function completionsCsv(
  rows: Array<{ email?: string; license?: string; state?: string; course: string; date: string; hours?: string }>,
): Buffer {
  const lines = ['Email Address,License #,State,Course Title,Completed,Credit Hours'];
  for (const r of rows) lines.push([r.email ?? '', r.license ?? '', r.state ?? '', `"${r.course}"`, r.date, r.hours ?? ''].join(','));
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-data/imports');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'roster-200-messy.csv'), rosterCsv(rosterRows('demo')));
  fs.writeFileSync(
    path.join(dir, 'completions-sample.csv'),
    completionsCsv([
      { email: 'demo.agent1@office.example', course: 'Texas Real Estate Ethics', date: '11/05/2026', hours: '3' },
      { license: 'DEMO-000002', state: 'TX', course: 'Texas Real Estate Ethics', date: '5 Nov 2026' },
    ]),
  );
}
