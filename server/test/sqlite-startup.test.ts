/**
 * SQLite start-up checks only what a migration touched (docs/performance.md "Start-up"): a restart with no new
 * migration runs no whole-database foreign key check, however big the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingMigrations, runSqliteMigrations, SQLITE_MIGRATIONS } from '../src/db/sqlite/driver.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function open(): Database.Database {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-startup-'));
  dirs.push(dir);
  return new Database(path.join(dir, 'app.db'));
}

describe('SQLite start-up: foreign keys checked where a migration wrote', () => {
  it('a new file: every migration is pending and names the tables it creates', () => {
    const sqlite = open();
    const pending = pendingMigrations(sqlite);
    expect(pending).toEqual(expect.arrayContaining(['users', 'licenses', 'audit_logs', 'completions']));
    runSqliteMigrations(sqlite);
    expect(pendingMigrations(sqlite)).toEqual([]);
    sqlite.close();
  });

  it('a restart with nothing to migrate does not check the whole database (a broken reference does not stop it)', () => {
    const sqlite = open();
    runSqliteMigrations(sqlite);
    sqlite.pragma('foreign_keys = OFF');
    sqlite
      .prepare(
        `insert into licenses (user_id, license_number, state, license_type, issue_date, expiration_date, status, ce_hours_required, ce_hours_completed, cycle_start_date, created_at, updated_at)
         values (987654, 'DANGLING-1', 'CA', 'Sales', '2026-01-01', '2028-01-01', 'Active', 0, 0, '2026-01-01', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      )
      .run();
    expect((sqlite.pragma('foreign_key_check') as unknown[]).length).toBeGreaterThan(0);
    expect(() => runSqliteMigrations(sqlite)).not.toThrow();
    sqlite.close();
  });

  it('a pending migration names the tables it writes, so only those and their children are checked', () => {
    const sqlite = open();
    runSqliteMigrations(sqlite);
    // The newest migration that writes a table (one that only changes indexes names none).
    const newest = readMigrationFiles({ migrationsFolder: SQLITE_MIGRATIONS }).findLast((m) =>
      /\b(?:INSERT INTO|CREATE TABLE)\b/i.test(m.sql.join('\n')),
    )!;
    sqlite.prepare('delete from __drizzle_migrations where created_at >= ?').run(newest.folderMillis);
    const pending = pendingMigrations(sqlite);
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.length).toBeLessThan(pendingMigrations(open()).length);
    for (const t of pending) expect(newest.sql.join('\n')).toContain(t);
    sqlite.close();
  });
});
