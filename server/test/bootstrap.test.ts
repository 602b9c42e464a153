import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { count, sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { closeDatabase, openDatabase } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import { SQLITE_MIGRATIONS } from '../src/db/sqlite/driver.ts';
import { PG_MIGRATIONS } from '../src/db/pg/driver.ts';
import { ensureAdmin, DEFAULT_ADMIN_EMAIL } from '../src/core/bootstrap.ts';
import { verifyPassword } from '../src/core/passwords.ts';
import { users } from '../src/db/schema/index.ts';
import { findUserByEmail } from '../src/modules/users/users.queries.ts';
import { testServerEnv } from './helpers.ts';

/** A fresh, empty database of the engine under test (a SQLite file, or a PostgreSQL database of its own). */
async function tempConfig(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-boot-'));
  const server = await testServerEnv(dir);
  return {
    config: loadConfig({ ...server.env, ...env }),
    cleanup: async () => {
      await server.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('first start', () => {
  it('creates the Admin from ADMIN_EMAIL and ADMIN_PASSWORD, once', async () => {
    const { config, cleanup } = await tempConfig({ ADMIN_EMAIL: 'owner@office.test', ADMIN_PASSWORD: 'Owner-Passw0rd' });
    const db = await openDatabase(config);
    try {
      const lines: string[] = [];
      expect(await ensureAdmin(db, config, (l) => lines.push(l))).toEqual({ email: 'owner@office.test', generated: false });
      const admin = (await findUserByEmail(db, 'owner@office.test'))!;
      expect(admin.role_id).toBe(1);
      expect(await verifyPassword(admin.password_hash, 'Owner-Passw0rd')).toBe(true);
      expect(lines.join('\n')).not.toContain('Owner-Passw0rd');
      // A second start leaves the database alone.
      expect(await ensureAdmin(db, config, () => {})).toBeNull();
      expect((await db.select({ n: count() }).from(users))[0]!.n).toBe(1);
    } finally {
      await closeDatabase(db);
      await cleanup();
    }
  });

  it('creates one Admin when several instances start together', async () => {
    const { config, cleanup } = await tempConfig({ ADMIN_EMAIL: 'race@office.test', ADMIN_PASSWORD: 'Owner-Passw0rd' });
    const db = await openDatabase(config);
    try {
      const results = await Promise.all(Array.from({ length: 5 }, () => ensureAdmin(db, config, () => {})));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect((await db.select({ n: count() }).from(users))[0]!.n).toBe(1);
    } finally {
      await closeDatabase(db);
      await cleanup();
    }
  });

  it('generates a strong password and prints it once when none is given', async () => {
    const { config, cleanup } = await tempConfig({});
    const db = await openDatabase(config);
    try {
      const lines: string[] = [];
      await ensureAdmin(db, config, (l) => lines.push(l));
      const printed = lines
        .find((l) => l.includes('password:'))!
        .split('password:')[1]!
        .trim();
      expect(printed.length).toBeGreaterThanOrEqual(16);
      const admin = (await findUserByEmail(db, DEFAULT_ADMIN_EMAIL))!;
      expect(await verifyPassword(admin.password_hash, printed)).toBe(true);
    } finally {
      await closeDatabase(db);
      await cleanup();
    }
  });

  it('applies the migrations once (and on SQLite with WAL and foreign keys on)', async () => {
    const { config, cleanup } = await tempConfig({});
    try {
      const db = await openDatabase(config);
      if (db.engine === 'sqlite') {
        const settings = await db.transaction(async (tx) => ({
          journal: await rawRows<{ journal_mode: string }>(tx, sql`PRAGMA journal_mode`),
          fk: await rawRows<{ foreign_keys: number }>(tx, sql`PRAGMA foreign_keys`),
        }));
        expect(settings.journal[0]!.journal_mode).toBe('wal');
        expect(settings.fk[0]!.foreign_keys).toBe(1);
      } else {
        // The PostgreSQL equivalent of foreign_keys: the constraints exist and are enforced.
        const fks = await rawRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f'`);
        expect(fks[0]!.n).toBeGreaterThan(0);
      }
      // Reopening applies nothing twice.
      await closeDatabase(db);
      const again = await openDatabase(config);
      const folder = again.engine === 'sqlite' ? SQLITE_MIGRATIONS : PG_MIGRATIONS;
      const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      const applied =
        again.engine === 'sqlite'
          ? await rawRows<{ n: number }>(again, sql`SELECT count(*) AS n FROM __drizzle_migrations`)
          : await rawRows<{ n: number }>(again, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
      expect(Number(applied[0]!.n)).toBe(journal.entries.length);
      await closeDatabase(again);
    } finally {
      await cleanup();
    }
  });
});
