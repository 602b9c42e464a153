/**
 * The portable copy of an office's data (docs/architecture.md "Backups on both engines"): one SQLite
 * database file at the current SQLite schema (drizzle/sqlite), whatever engine the office runs on.
 *   snapshotTo()        writes the live database into such a file (SQLite: online backup of the live
 *                       file; PostgreSQL: a new file built from the SQLite migrations and filled inside
 *                       one REPEATABLE READ read-only transaction, so it is consistent);
 *   restoreFromSnapshot() replaces chosen tables of the live database with the file's rows in one
 *                       transaction, settling references the swap left dangling as ON DELETE says;
 *   the snapshot file helpers (check, migrate, count, schema version) for the backup module.
 * `npm run db:copy` (copy-cli.ts) uses the same PostgreSQL copy as a restore.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { runSqliteMigrations, SQLITE_MIGRATIONS, type SqliteDb } from './sqlite/driver.ts';
import type { PgDb } from './pg/driver.ts';
import type { Db } from './types.ts';

export type { Db } from './types.ts';
import type { RestoreHooks } from './portable-tables.ts';
import { restoreOnSqlite } from './sqlite/portable.ts';
import { restoreOnPostgres, snapshotPostgres } from './pg/portable.ts';

// ---------------------------------------------------------------- the snapshot file

export interface MigrationRow {
  hash: string;
  created_at: number;
}

/** The SQLite migrations this version knows (drizzle/sqlite), oldest first. */
export function knownSqliteMigrations(): Array<{ hash: string; when: number }> {
  return readMigrationFiles({ migrationsFolder: SQLITE_MIGRATIONS }).map((m) => ({ hash: m.hash, when: m.folderMillis }));
}

export function appliedMigrations(sqlite: Database.Database): MigrationRow[] {
  try {
    return sqlite.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at, id').all() as MigrationRow[];
  } catch {
    return [];
  }
}

let journalTags: Map<number, string> | undefined;
/** Migration tags by their timestamp, from drizzle/sqlite/meta/_journal.json (what __drizzle_migrations.created_at holds). */
function tagFor(createdAt: number): string | null {
  if (!journalTags) {
    journalTags = new Map();
    try {
      const journal = JSON.parse(fs.readFileSync(path.join(SQLITE_MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
        entries: Array<{ when: number; tag: string }>;
      };
      for (const e of journal.entries) journalTags.set(e.when, e.tag);
    } catch {
      // Without a journal the tag stays unknown; the hash still identifies the schema.
    }
  }
  return journalTags.get(Number(createdAt)) ?? null;
}

export interface SnapshotSchema {
  tag: string | null;
  hash: string;
  migrations: number;
}

/** The newest SQLite migration applied to a snapshot file. */
export function schemaVersion(sqlite: Database.Database): SnapshotSchema {
  const applied = appliedMigrations(sqlite);
  const last = applied.at(-1);
  return { tag: last ? tagFor(last.created_at) : null, hash: last?.hash ?? '', migrations: applied.length };
}

/**
 * Rows per table of a SQLite database (every table but SQLite's own, the migration journal and the search's FTS5
 * tables: derived data whose internal rows depend on the order of past writes; docs/decisions.md "Search at any size").
 */
export function countRows(sqlite: Database.Database, schema = 'main'): Record<string, number> {
  const tables = sqlite
    .prepare(`SELECT name FROM pragma_table_list WHERE schema = ? AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all(schema) as string[];
  const counts: Record<string, number> = {};
  for (const t of tables) {
    if (t === '__drizzle_migrations') continue;
    counts[t] = sqlite.prepare(`SELECT count(*) FROM "${schema}"."${t}"`).pluck().get() as number;
  }
  return counts;
}

/** A database file's -wal, -shm and -journal. */
export function sidecars(file: string): string[] {
  return [`${file}-wal`, `${file}-shm`, `${file}-journal`];
}

/** Removes a database file's -wal, -shm and -journal. A stale -wal beside a file is replayed on open. */
export function removeSidecars(file: string): void {
  for (const f of sidecars(file)) fs.rmSync(f, { force: true });
}

export function removeDatabaseFile(file: string): void {
  fs.rmSync(file, { force: true });
  removeSidecars(file);
}

export interface SnapshotFacts {
  rowCounts: Record<string, number>;
  schema: SnapshotSchema;
}

/**
 * Writes the live database into `file` (a new file) as a self-contained rollback-journal SQLite database
 * at the current SQLite schema, checks it and counts its rows.
 */
export async function snapshotTo(db: Db, file: string): Promise<SnapshotFacts> {
  removeDatabaseFile(file);
  if (db.engine === 'sqlite') {
    const live = db as SqliteDb;
    // Holding the writer: no transaction is open on it, so the copy holds committed data only.
    await live.withWriter(() => live.writer.backup(file));
  } else {
    await snapshotPostgres((db as PgDb).pool, file);
  }
  const snap = new Database(file);
  try {
    snap.pragma('journal_mode = DELETE');
    const check = snap.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`The snapshot failed its integrity check: ${String(check)}`);
    return { rowCounts: countRows(snap), schema: schemaVersion(snap) };
  } finally {
    snap.close();
    removeSidecars(file);
  }
}

export type SnapshotCheck = { ok: true } | { ok: false; reason: 'unreadable' | 'integrity' | 'not_lm' | 'newer' | 'migration_failed' };

/**
 * Opens an extracted snapshot file (its -wal, -shm and -journal must already be gone), runs quick_check,
 * compares its migrations with the ones this version knows, and migrates an older one forward.
 */
export function checkAndMigrateSnapshot(file: string): SnapshotCheck {
  let snap: Database.Database;
  try {
    snap = new Database(file);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  try {
    let check: unknown;
    try {
      snap.pragma('journal_mode = DELETE');
      check = snap.pragma('quick_check', { simple: true });
    } catch {
      return { ok: false, reason: 'unreadable' };
    }
    if (check !== 'ok') return { ok: false, reason: 'integrity' };
    const known = new Set(knownSqliteMigrations().map((m) => m.hash));
    const theirs = appliedMigrations(snap);
    if (theirs.length === 0) return { ok: false, reason: 'not_lm' };
    if (theirs.some((m) => !known.has(m.hash))) return { ok: false, reason: 'newer' };
    if (theirs.length < known.size) {
      try {
        runSqliteMigrations(snap);
      } catch {
        return { ok: false, reason: 'migration_failed' };
      }
    }
    return { ok: true };
  } finally {
    snap.close();
    removeSidecars(file);
  }
}

// ---------------------------------------------------------------- restore

export { ALL_TABLES, describeViolations, type RestoreHooks, type SwapResult, type Violation } from './portable-tables.ts';

/**
 * Replaces `tables` of the live database with the snapshot's rows in ONE transaction: the live rows
 * are deleted and the snapshot's inserted with foreign-key actions out of the way (SQLite: foreign_keys
 * off; PostgreSQL: the constraints touching those tables are dropped and re-created in the transaction),
 * then references to rows that no longer exist get what ON DELETE says (SET NULL, CASCADE); a RESTRICT
 * reference left dangling throws 409 (describeViolations) and nothing changes. On PostgreSQL the identity
 * sequences move past the restored ids.
 */
export function restoreFromSnapshot<T>(db: Db, snapshotFile: string, tables: string[], hooks: RestoreHooks<T>): Promise<T> {
  return db.engine === 'sqlite'
    ? restoreOnSqlite(db as SqliteDb, snapshotFile, tables, hooks)
    : restoreOnPostgres(db, snapshotFile, tables, hooks);
}
