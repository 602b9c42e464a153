import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { closeDatabase, MIGRATIONS_FOLDER, openDatabase } from '../src/db/client.ts';
import { ensureAdmin, DEFAULT_ADMIN_EMAIL } from '../src/core/bootstrap.ts';
import { verifyPassword } from '../src/core/passwords.ts';
import { users } from '../src/db/schema/index.ts';
import { findUserByEmail } from '../src/modules/users/users.queries.ts';

function tempConfig(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-boot-'));
  return { dir, config: loadConfig({ DATA_DIR: dir, ...env }) };
}

describe('first start', () => {
  it('creates the Admin from ADMIN_EMAIL and ADMIN_PASSWORD, once', async () => {
    const { dir, config } = tempConfig({ ADMIN_EMAIL: 'owner@office.test', ADMIN_PASSWORD: 'Owner-Passw0rd' });
    const db = openDatabase(config.databasePath);
    const lines: string[] = [];
    expect(await ensureAdmin(db, config, (l) => lines.push(l))).toEqual({ email: 'owner@office.test', generated: false });
    const admin = findUserByEmail(db, 'owner@office.test')!;
    expect(admin.role_id).toBe(1);
    expect(await verifyPassword(admin.password_hash, 'Owner-Passw0rd')).toBe(true);
    expect(lines.join('\n')).not.toContain('Owner-Passw0rd');
    // A second start leaves the database alone.
    expect(await ensureAdmin(db, config, () => {})).toBeNull();
    expect(db.select({ n: count() }).from(users).get()!.n).toBe(1);
    closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generates a strong password and prints it once when none is given', async () => {
    const { dir, config } = tempConfig({});
    const db = openDatabase(config.databasePath);
    const lines: string[] = [];
    await ensureAdmin(db, config, (l) => lines.push(l));
    const printed = lines
      .find((l) => l.includes('password:'))!
      .split('password:')[1]!
      .trim();
    expect(printed.length).toBeGreaterThanOrEqual(16);
    const admin = findUserByEmail(db, DEFAULT_ADMIN_EMAIL)!;
    expect(await verifyPassword(admin.password_hash, printed)).toBe(true);
    closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('applies migrations with WAL and foreign keys on', () => {
    const { dir, config } = tempConfig({});
    const db = openDatabase(config.databasePath);
    expect(db.$client.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.$client.pragma('foreign_keys', { simple: true })).toBe(1);
    // Reopening applies nothing twice.
    closeDatabase(db);
    const again = openDatabase(config.databasePath);
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(again.$client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: journal.entries.length });
    closeDatabase(again);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
