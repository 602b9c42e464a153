/**
 * Moving an office from SQLite to PostgreSQL (`npm run db:copy`, README "Moving an office from SQLite to
 * PostgreSQL"): every table of the office's SQLite file (read through an online backup, and migrated
 * forward on that copy when older) is copied into an EMPTY PostgreSQL database migrated by the data layer,
 * with the same copy code a restore uses (pg/portable.ts), the identity sequences moved, and the row
 * counts compared table by table. The documents' files go with them: each stored file of the office (its
 * `documents/` folder beside the database file, or `files`) is streamed into the PostgreSQL file store, one at a
 * time, so memory stays flat whatever their number and size.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { isPostgresUrl } from './engine.ts';
import { openPostgres } from './pg/driver.ts';
import { restoreOnPostgres } from './pg/portable.ts';
import { ALL_TABLES } from './portable-tables.ts';
import { checkAndMigrateSnapshot, countRows, removeDatabaseFile } from './portable.ts';
import { rawRows } from './raw.ts';
import { diskFileStore, KEY_PATTERN, type FileStore } from './files.ts';

/** A copy refused before anything was written (bad arguments, a target that is not empty, an unknown schema). */
export class CopyRefused extends Error {}

export interface CopyReport {
  tables: Array<{ table: string; source: number; target: number }>;
  referencesCleared: Record<string, number>;
  /** The documents' files: copied, and those a version names but the office's folder does not hold. */
  files: { copied: number; bytes: number; missing: string[] };
  ok: boolean;
}

/** The office's stored files: the `documents` folder beside its database file (db/sqlite/driver.ts). */
export const defaultFilesDir = (from: string) => path.join(path.dirname(path.resolve(from)), 'documents');

export async function copySqliteToPostgres(from: string, to: string, filesDir = defaultFilesDir(from)): Promise<CopyReport> {
  if (!isPostgresUrl(to)) {
    throw new CopyRefused('--to must be a PostgreSQL URL (postgres://user:password@host:5432/database); nothing was copied');
  }
  if (!from || !fs.existsSync(from)) throw new CopyRefused(`--from: no SQLite file at ${from || '(missing)'}`);
  const work = path.join(os.tmpdir(), `lm-copy-${crypto.randomBytes(6).toString('hex')}.sqlite`);
  try {
    let source: Database.Database;
    try {
      source = new Database(from, { readonly: true, fileMustExist: true });
    } catch {
      throw new CopyRefused(`--from: ${from} is not a SQLite database`);
    }
    try {
      // An online backup: the office may still be running while it is copied.
      await source.backup(work);
    } catch {
      throw new CopyRefused(`--from: ${from} is not a SQLite database`);
    } finally {
      source.close();
    }
    const check = checkAndMigrateSnapshot(work);
    if (!check.ok) {
      throw new CopyRefused(
        check.reason === 'newer'
          ? `--from: ${from} was written by a newer version of License Manager; update this installation first`
          : `--from: ${from} is not a License Manager database (${check.reason})`,
      );
    }
    const snapshot = new Database(work, { readonly: true });
    const sourceCounts = countRows(snapshot);
    const keys = (snapshot.prepare('SELECT storage_key FROM document_versions ORDER BY version_id').pluck().all() as string[]).filter((k) =>
      KEY_PATTERN.test(k),
    );
    snapshot.close();

    const db = await openPostgres(to, { migrate: true, poolSize: 2 });
    try {
      const before = await targetCounts(db);
      const filled = Object.entries(before).filter(([, n]) => n > 0);
      if (filled.length > 0) {
        throw new CopyRefused(
          `The target database is not empty (${filled.map(([t, n]) => `${t}: ${n}`).join(', ')}); db:copy only fills an empty database`,
        );
      }
      const swap = await restoreOnPostgres(db, work, ALL_TABLES, { after: async (_tx, result) => result });
      const after = await targetCounts(db);
      const tables = ALL_TABLES.map((table) => ({ table, source: sourceCounts[table] ?? 0, target: after[table] ?? 0 }));
      const files = await copyFiles(diskFileStore(filesDir), db.files, keys);
      return { tables, referencesCleared: swap.referencesCleared, files, ok: tables.every((t) => t.source === t.target) };
    } finally {
      await db.close();
    }
  } finally {
    removeDatabaseFile(work);
  }
}

/** Streams each file into the target store, one at a time; a key the office's folder lacks is reported, not fatal. */
async function copyFiles(source: FileStore, target: FileStore, keys: string[]): Promise<CopyReport['files']> {
  const out: CopyReport['files'] = { copied: 0, bytes: 0, missing: [] };
  for (const key of keys) {
    if (!(await source.has(key))) {
      out.missing.push(key);
      continue;
    }
    const stored = await target.put(key, await source.openRead(key), { maxBytes: Number.MAX_SAFE_INTEGER });
    out.copied++;
    out.bytes += stored.size;
  }
  return out;
}

async function targetCounts(db: Awaited<ReturnType<typeof openPostgres>>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ALL_TABLES) {
    const [row] = await rawRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`);
    out[table] = Number(row?.n ?? 0);
  }
  return out;
}

/** The report as a table of counts. */
export function formatReport(report: CopyReport): string {
  const width = Math.max(...report.tables.map((t) => t.table.length), 5);
  const lines = [`${'table'.padEnd(width)}  ${'sqlite'.padStart(8)}  ${'postgres'.padStart(8)}`];
  for (const t of report.tables) {
    lines.push(
      `${t.table.padEnd(width)}  ${String(t.source).padStart(8)}  ${String(t.target).padStart(8)}${t.source === t.target ? '' : '  MISMATCH'}`,
    );
  }
  for (const [ref, n] of Object.entries(report.referencesCleared)) lines.push(`note: ${n} dangling reference(s) settled in ${ref}`);
  lines.push(`files: ${report.files.copied} copied (${report.files.bytes} bytes)`);
  if (report.files.missing.length > 0) {
    lines.push(
      `note: ${report.files.missing.length} document file(s) were not in the office's documents folder and were not copied: ${report.files.missing.slice(0, 5).join(', ')}${report.files.missing.length > 5 ? ', …' : ''}`,
    );
  }
  return lines.join('\n');
}
