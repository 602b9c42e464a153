/**
 * Database snapshots (docs/architecture.md "Backups on both engines"): the backup's database is always a
 * SQLite file at the current SQLite schema, taken consistently from the live database whichever engine it
 * runs on (db/portable.ts), and, for a restore, extracted to a private work file, checked and brought to
 * the current schema.
 */
import fs from 'node:fs';
import { checkAndMigrateSnapshot, removeDatabaseFile, removeSidecars, snapshotTo, type Db } from '../../db/portable.ts';
import { AppError, badRequest, conflict } from '../../base/errors.ts';
import { extractBackup, NOT_A_BACKUP, type Manifest, type SchemaVersion } from './backups.archive.ts';

export { removeDatabaseFile, removeSidecars };

export interface Snapshot {
  file: string;
  size: number;
  rowCounts: Record<string, number>;
  schema: SchemaVersion;
}

/**
 * Writes a consistent snapshot of the live database into `file` (a self-contained rollback-journal SQLite
 * file), checks it and counts its rows.
 */
export async function takeSnapshot(db: Db, file: string): Promise<Snapshot> {
  try {
    const facts = await snapshotTo(db, file);
    return { file, size: fs.statSync(file).size, rowCounts: facts.rowCounts, schema: facts.schema };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('INTERNAL_SERVER_ERROR', (err as Error).message, { cause: err });
  }
}

export const NEWER_SCHEMA =
  'This backup was made by a newer version of License Manager (its database has changes this installation does not know). Update this installation first.';

/**
 * Extracts a backup's database to `workFile` and makes it safe to read: any -wal, -shm or -journal
 * beside the work file is deleted before SQLite opens it (a stale -wal would be replayed into the
 * "restored" data), the checksum must match the manifest, quick_check must pass, and the schema must
 * be this version's SQLite schema or an older one, which is then migrated forward on the copy.
 */
export async function prepareSnapshot(zipFile: string, workFile: string, options: { maxInflatedBytes?: number } = {}): Promise<Manifest> {
  removeDatabaseFile(workFile);
  const { manifest, sha256 } = await extractBackup(zipFile, workFile, options);
  if (sha256 !== manifest.database.sha256) {
    throw badRequest('The backup is damaged: its database does not match the checksum in its manifest');
  }
  // Again, just before the first open: nothing but the extracted bytes may be read.
  removeSidecars(workFile);
  const check = checkAndMigrateSnapshot(workFile);
  if (!check.ok) {
    switch (check.reason) {
      case 'integrity':
        throw badRequest('The backup database failed its integrity check');
      case 'newer':
        throw conflict(NEWER_SCHEMA);
      case 'migration_failed':
        throw badRequest('The backup could not be brought up to the current database schema');
      default:
        throw badRequest(NOT_A_BACKUP);
    }
  }
  return manifest;
}
