import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema/index.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** The handle inside db.transaction(): same query API, synchronous. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: what service functions take. */
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../../drizzle/sqlite');

/** Pragmas (docs/architecture.md, docs/performance.md): WAL, durable commits (licenses and payments), and a busy timeout. */
function applyPragmas(sqlite: Database.Database) {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('temp_store = MEMORY');
}

/**
 * Applies pending migrations with foreign keys off (a table rebuild must not cascade deletes,
 * drizzle issue 5782), then checks every foreign key before turning enforcement back on.
 */
export function runMigrations(sqlite: Database.Database) {
  sqlite.pragma('foreign_keys = OFF');
  try {
    migrate(drizzle(sqlite), { migrationsFolder: MIGRATIONS_FOLDER });
    const violations = sqlite.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0) {
      throw new Error(`Migration left ${violations.length} foreign key violation(s): ${JSON.stringify(violations.slice(0, 5))}`);
    }
  } finally {
    sqlite.pragma('foreign_keys = ON');
  }
}

export function openDatabase(file: string, options: { migrate?: boolean } = {}): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  applyPragmas(sqlite);
  if (options.migrate !== false) runMigrations(sqlite);
  return drizzle(sqlite, { schema }) as Db;
}

export function closeDatabase(db: Db) {
  const sqlite = db.$client;
  if (!sqlite.open) return;
  try {
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    sqlite.close();
  }
}
