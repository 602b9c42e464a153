/**
 * `npm run db:copy -- --from <sqlite file> --to <postgres url> [--files <documents folder>]`: copies an office's
 * SQLite database and its documents' files (by default the `documents` folder beside the file) into an
 * empty PostgreSQL database (db/copy.ts), prints the row counts per table and exits non-zero when the
 * target was not empty (2), the arguments are wrong (2), or any count differs (1).
 */
import { parseArgs } from 'node:util';
import { copySqliteToPostgres, CopyRefused, formatReport } from './copy.ts';

const USAGE =
  'Usage: npm run db:copy -- --from <office.sqlite> --to postgres://user:password@host:5432/database [--files <documents folder>]';

let args: { from?: string; to?: string; files?: string };
try {
  args = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, files: { type: 'string' } }, strict: true }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!args.from || !args.to) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const report = await copySqliteToPostgres(args.from, args.to, args.files);
  console.log(formatReport(report));
  if (!report.ok) {
    console.error('The row counts differ: the copy is not complete. Do not switch the office to this database.');
    process.exit(1);
  }
  console.log('Every table was copied with the same number of rows.');
} catch (err) {
  console.error(err instanceof CopyRefused ? err.message : `The copy failed: ${(err as Error).message}`);
  process.exit(err instanceof CopyRefused ? 2 : 1);
}
