/**
 * Database snapshots: taken online with SQLite's backup API (never a file copy of a live database),
 * and, for a restore, extracted to a private work file, checked and brought to the current schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS_FOLDER, runMigrations, type Db } from '../../db/client.ts';
import { AppError, badRequest, conflict } from '../../core/errors.ts';
import { extractBackup, NOT_A_BACKUP, type Manifest, type SchemaVersion } from './backups.archive.ts';

/** Tables whose rows a manifest counts: every table of the schema except SQLite's own. */
export function countRows(sqlite: Database.Database, schema = 'main'): Record<string, number> {
  const tables = sqlite
    .prepare(`SELECT name FROM "${schema}".sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
  const counts: Record<string, number> = {};
  for (const t of tables) {
    if (t === '__drizzle_migrations') continue;
    counts[t] = sqlite.prepare(`SELECT count(*) FROM "${schema}"."${t}"`).pluck().get() as number;
  }
  return counts;
}

interface MigrationRow {
  hash: string;
  created_at: number;
}

function appliedMigrations(sqlite: Database.Database): MigrationRow[] {
  try {
    return sqlite.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at, id').all() as MigrationRow[];
  } catch {
    return [];
  }
}

let journalTags: Map<number, string> | undefined;
/** Migration tags by their timestamp, from drizzle/meta/_journal.json (what __drizzle_migrations.created_at holds). */
function tagFor(createdAt: number): string | null {
  if (!journalTags) {
    journalTags = new Map();
    try {
      const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
        entries: Array<{ when: number; tag: string }>;
      };
      for (const e of journal.entries) journalTags.set(e.when, e.tag);
    } catch {
      // Without a journal the tag stays unknown; the hash still identifies the schema.
    }
  }
  return journalTags.get(Number(createdAt)) ?? null;
}

export function schemaVersion(sqlite: Database.Database): SchemaVersion {
  const applied = appliedMigrations(sqlite);
  const last = applied.at(-1);
  return { tag: last ? tagFor(last.created_at) : null, hash: last?.hash ?? '', migrations: applied.length };
}

/** A database file and the files SQLite may keep beside it. */
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

export interface Snapshot {
  file: string;
  size: number;
  rowCounts: Record<string, number>;
  schema: SchemaVersion;
}

/**
 * Takes an online backup of the live database into `file` (SQLite's backup API: consistent while
 * other requests keep writing), turns it into a self-contained rollback-journal file, checks it and
 * counts its rows.
 */
export async function takeSnapshot(db: Db, file: string): Promise<Snapshot> {
  removeDatabaseFile(file);
  await db.$client.backup(file);
  const snap = new Database(file);
  try {
    snap.pragma('journal_mode = DELETE');
    const check = snap.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new AppError('INTERNAL_SERVER_ERROR', `The snapshot failed its integrity check: ${String(check)}`);
    const result = { file, rowCounts: countRows(snap), schema: schemaVersion(snap) };
    snap.close();
    removeSidecars(file);
    return { ...result, size: fs.statSync(file).size };
  } finally {
    if (snap.open) snap.close();
  }
}

export const NEWER_SCHEMA =
  'This backup was made by a newer version of License Manager (its database has changes this installation does not know). Update this installation first.';

/**
 * Extracts a backup's database to `workFile` and makes it safe to read: any -wal, -shm or -journal
 * beside the work file is deleted before SQLite opens it (a stale -wal would be replayed into the
 * "restored" data), the checksum must match the manifest, quick_check must pass, and the schema must
 * be the live one or an older one, which is then migrated forward on the copy.
 */
export async function prepareSnapshot(
  db: Db,
  zipFile: string,
  workFile: string,
  options: { maxDatabaseBytes?: number } = {},
): Promise<Manifest> {
  removeDatabaseFile(workFile);
  const { manifest, sha256 } = await extractBackup(zipFile, workFile, options);
  if (sha256 !== manifest.database.sha256) {
    throw badRequest('The backup is damaged: its database does not match the checksum in its manifest');
  }
  // Again, just before the first open: nothing but the extracted bytes may be read.
  removeSidecars(workFile);
  let snap: Database.Database;
  try {
    snap = new Database(workFile);
  } catch {
    throw badRequest(NOT_A_BACKUP);
  }
  try {
    let check: unknown;
    try {
      snap.pragma('journal_mode = DELETE');
      check = snap.pragma('quick_check', { simple: true });
    } catch {
      throw badRequest(NOT_A_BACKUP);
    }
    if (check !== 'ok') throw badRequest('The backup database failed its integrity check');

    const live = new Set(appliedMigrations(db.$client).map((m) => m.hash));
    const theirs = appliedMigrations(snap);
    if (theirs.length === 0) throw badRequest(NOT_A_BACKUP);
    if (theirs.some((m) => !live.has(m.hash))) throw conflict(NEWER_SCHEMA);
    if (theirs.length < live.size) {
      try {
        runMigrations(snap);
      } catch {
        throw badRequest('The backup could not be brought up to the current database schema');
      }
    }
  } finally {
    snap.close();
    removeSidecars(workFile);
  }
  return manifest;
}
