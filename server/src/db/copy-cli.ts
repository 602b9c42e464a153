/**
 * `npm run db:copy -- --from <sqlite file> --to <postgres url>`: copies an office's SQLite database into an
 * empty PostgreSQL database (db/copy.ts), prints the row counts per table and exits non-zero when the
 * target was not empty (2), the arguments are wrong (2), or any count differs (1).
 */
import { parseArgs } from 'node:util';
import { copySqliteToPostgres, CopyRefused, formatReport } from './copy.ts';

const USAGE = 'Usage: npm run db:copy -- --from <office.sqlite> --to postgres://user:password@host:5432/database';

let args: { from?: string; to?: string };
try {
  args = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!args.from || !args.to) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const report = await copySqliteToPostgres(args.from, args.to);
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
