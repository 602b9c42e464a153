/**
 * `npm run db:restore -- <backup.zip> --as <admin e-mail> (--all | --groups users,licenses,…) [--description <text>]`:
 * restores a backup zip that is already on the server (one too big to upload; BACKUP_UPLOAD_LIMIT_MB) into the
 * configured database (DATA_DIR / DATABASE_PATH / DATABASE_URL, as the server reads them), exactly as the Backups
 * screen would (backups.from-file.ts): listed as a backup, a safety backup first, one transaction, audited under the
 * named Admin. Stop the server first on SQLite. Exits 0 when restored, 2 when refused (arguments, not an Admin, not a
 * backup, a newer schema, links the groups would break; nothing changed), 1 when it failed.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { closeDatabase, openDatabase } from '../../db/client.ts';
import { createAppServices } from '../../core/context.ts';
import { AppError, toErrorBody } from '../../base/errors.ts';
import { parseGroups, restoreFromFile } from './backups.from-file.ts';

const USAGE =
  'Usage: npm run db:restore -- <backup.zip> --as <admin e-mail> (--all | --groups users,licenses,courses,payments,documents,brokerages,settings) [--description <text>]';

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    strict: true,
    options: { as: { type: 'string' }, all: { type: 'boolean' }, groups: { type: 'string' }, description: { type: 'string' } },
  });
}
try {
  parsed = parse();
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
const [file, ...extra] = parsed.positionals;
const { as, all, groups: groupText, description } = parsed.values;
if (!file || extra.length > 0 || !as || (!all && !groupText) || (all && groupText)) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig();
const db = await openDatabase(config);
let code = 0;
try {
  const started = Date.now();
  const { backup, result } = await restoreFromFile(
    { db, config, services: createAppServices() },
    {
      file,
      as,
      groups: parseGroups(groupText, all === true),
      description,
    },
  );
  console.log(`Listed as backup #${backup.id} (${backup.description}); safety backup #${result.safety_backup_id} taken first.`);
  console.log(`Restored ${result.restored.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
  for (const [table, n] of Object.entries(result.row_counts)) console.log(`  ${table.padEnd(24)} ${n} rows`);
  for (const [ref, n] of Object.entries(result.references_cleared)) console.log(`  cleared ${ref}: ${n}`);
  if (result.signed_out) console.log('Every session has ended: everyone signs in again.');
} catch (err) {
  const refused = err instanceof AppError && toErrorBody(err).status < 500;
  console.error(refused ? `Not restored: ${err.message}` : `The restore failed: ${(err as Error).message}`);
  code = refused ? 2 : 1;
} finally {
  await closeDatabase(db);
}
process.exit(code);
