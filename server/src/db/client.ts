/**
 * Opens the database this process runs on (docs/architecture.md "Data layer"): PostgreSQL when
 * DATABASE_URL is a postgres:// URL, otherwise SQLite at DATABASE_PATH. Only server/src/db/ knows which
 * one is in use; services get a `Db` and write through `db.transaction()`.
 */
import { ENGINE, isPostgresUrl } from './engine.ts';
import { openSqlite } from './sqlite/driver.ts';
import { openPostgres } from './pg/driver.ts';
import type { Db } from './types.ts';

export type { CounterHit, CounterLimit, Counters, Db, DbOrTx, Tx } from './types.ts';
export { byEngine, ENGINE, type Engine } from './engine.ts';
export { newStorageKey, type FileStore, type StoredFile } from './files.ts';

export interface DatabaseLocation {
  /** postgres://… selects PostgreSQL. */
  databaseUrl?: string | undefined;
  /** The SQLite file when there is no PostgreSQL URL. */
  databasePath: string;
  /** $DATA_DIR: on SQLite the file store keeps documents under $DATA_DIR/documents (default: beside the database file). */
  dataDir?: string;
}

export async function openDatabase(where: DatabaseLocation, options: { migrate?: boolean } = {}): Promise<Db> {
  const postgres = isPostgresUrl(where.databaseUrl);
  if (postgres !== (ENGINE === 'postgres')) {
    // The table objects were chosen from DATABASE_URL when the process started (db/engine.ts).
    throw new Error('DATABASE_URL must be set in the environment before the server starts; it cannot be changed afterwards');
  }
  return postgres ? openPostgres(where.databaseUrl!, options) : openSqlite(where.databasePath, { ...options, dataDir: where.dataDir });
}

export async function closeDatabase(db: Db): Promise<void> {
  await db.close();
}
