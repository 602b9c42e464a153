/**
 * Who acted (docs/decisions.md "Audit: who acted"): every audit entry keeps its actor's name and e-mail as
 * they were when it was written, and every reader shows that snapshot, never today's users row. The system's
 * own entries read 'System'. Migration 0007 (SQLite) / 0003 (PostgreSQL) filled the entries written before,
 * once, and the log stays append-only after it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AuditLog } from '@lm/shared';
import { ENGINE } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { rawExec, rawRows } from '../src/db/raw.ts';
import { SQLITE_MIGRATIONS } from '../src/db/sqlite/driver.ts';
import { PG_MIGRATIONS } from '../src/db/pg/driver.ts';
import { audit, SYSTEM_ACTOR } from '../src/core/audit.ts';
import { ensureAdmin } from '../src/core/bootstrap.ts';
import { ensureDefaultTemplates } from '../src/modules/notification-management/default-templates.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { api, callerFor, createTestEnv, login, parseCsv, seedUser, tokenFor, useTestEnv, type TestEnv } from './helpers.ts';
import { migrationsBefore } from './db-tools.ts';
import { createTestDatabase } from './pg.ts';

const t = useTestEnv();

/** An error's message with its causes' (the driver's message is the cause of Drizzle's "Failed to run the query"). */
function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) parts.push(String(e.message ?? e));
  return parts.join(' <- ');
}

/** The audit list of one filter, as the Audit Logs screen reads it (REST). */
async function logs(query: string): Promise<AuditLog[]> {
  const res = await api(t.env, 'GET', `/api/audit/logs?limit=100&${query}`, { token: t.roles.admin.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.logs as AuditLog[];
}

/** The audit CSV export of one filter, by header. */
async function exported(query: string): Promise<Array<Record<string, string>>> {
  const res = await api(t.env, 'GET', `/api/audit/logs/export?${query}`, { token: t.roles.admin.token });
  expect(res.status).toBe(200);
  const [header, ...rows] = parseCsv(String(res.body));
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

describe('an entry keeps who acted', () => {
  it('after its actor is renamed and changes e-mail: the list (REST and tRPC) and the CSV export show the name and e-mail of then', async () => {
    const ada = await seedUser(t.env, 'Admin', { first_name: 'Ada', last_name: 'Lovelace', email: `ada-${Date.now()}@old.test` });
    const adaToken = await tokenFor(t.env, ada.user_id);
    const made = await api(t.env, 'POST', '/api/brokerages', { token: adaToken, body: { name: `Analytical Realty ${Date.now()}` } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const brokerageId = made.body.brokerage_id as number;

    // Another Admin renames her and changes her e-mail through the API.
    const newEmail = `countess-${Date.now()}@new.test`;
    const renamed = await api(t.env, 'PUT', `/api/users/${ada.user_id}`, {
      token: t.roles.admin.token,
      body: { first_name: 'Augusta', last_name: 'King', email: newEmail },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ first_name: 'Augusta', last_name: 'King', email: newEmail });

    const then = {
      user_id: ada.user_id,
      actor_name: 'Ada Lovelace',
      actor_email: ada.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: ada.email,
    };
    const [entry] = (await logs(`target_table=brokerages&user_id=${ada.user_id}`)).filter((l) => l.target_id === brokerageId);
    expect(entry).toMatchObject({ action: 'create', ...then });
    const viaTrpc = await callerFor(t.env, t.roles.admin.user_id).audit.logs({ target_table: 'brokerages', user_id: ada.user_id });
    expect(viaTrpc.logs.find((l) => l.target_id === brokerageId)).toMatchObject(then);

    const csv = (await exported(`target_table=brokerages&user_id=${ada.user_id}`)).find((r) => r['Target ID'] === String(brokerageId));
    expect(csv).toMatchObject({ 'User ID': String(ada.user_id), User: 'Ada Lovelace', Email: ada.email });

    // The rename itself names the Admin who made it.
    const [admin] = await t.env.db.select().from(users).where(eq(users.user_id, t.roles.admin.user_id));
    const [rename] = (await logs(`target_table=users&user_id=${t.roles.admin.user_id}&action=update`)).filter(
      (l) => l.target_id === ada.user_id,
    );
    expect(rename).toMatchObject({ actor_name: `${admin!.first_name} ${admin!.last_name}`, actor_email: admin!.email });

    // What she does from now on carries her new name (read with the session, on each request).
    const next = await api(t.env, 'PUT', `/api/brokerages/${brokerageId}`, {
      token: await tokenFor(t.env, ada.user_id),
      body: { phone: '555-0100' },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const entries = (await logs(`target_table=brokerages&user_id=${ada.user_id}`)).filter((l) => l.target_id === brokerageId);
    expect(entries.map((l) => [l.action, l.actor_name, l.actor_email])).toEqual([
      ['update', 'Augusta King', newEmail],
      ['create', 'Ada Lovelace', ada.email],
    ]);
    const csvRows = (await exported(`target_table=brokerages&user_id=${ada.user_id}`)).filter(
      (r) => r['Target ID'] === String(brokerageId),
    );
    expect(csvRows.map((r) => [r.Action, r.User, r.Email])).toEqual([
      ['update', 'Augusta King', newEmail],
      ['create', 'Ada Lovelace', ada.email],
    ]);
  });

  it('after the actor is gone from users (deleted rows, users restored from elsewhere): the entry still names them', async () => {
    const grace = await seedUser(t.env, 'Admin', { first_name: 'Grace', last_name: 'Hopper' });
    await t.env.db.transaction((tx) =>
      audit(
        tx,
        { userId: grace.user_id, ip: '10.9.9.9', name: 'Grace Hopper', email: grace.email },
        { action: 'probe', table: 'widgets', id: 7 },
      ),
    );
    // Another deployment's users: the same id now belongs to someone else.
    await t.env.db.transaction((tx) =>
      rawExec(tx, sql`UPDATE users SET first_name = 'Someone', last_name = 'Else', email = 'else@x.test' WHERE user_id = ${grace.user_id}`),
    );
    const [entry] = await logs(`action=probe&user_id=${grace.user_id}`);
    expect(entry).toMatchObject({
      actor_name: 'Grace Hopper',
      actor_email: grace.email,
      first_name: 'Grace',
      last_name: 'Hopper',
      email: grace.email,
    });
  });

  it('sign-in entries: a success and a wrong password name the account; an unknown e-mail and a reset request name nobody', async () => {
    const kim = await seedUser(t.env, 'Agent', { first_name: 'Kim', last_name: 'Lee', brokerage_id: t.roles.brokerageId });
    await login(t.env, kim.email);
    const wrong = await api(t.env, 'POST', '/api/auth/login', { body: { email: kim.email, password: 'Not-the-Passw0rd' }, ip: '10.3.3.3' });
    expect(wrong.status).toBe(401);
    const nobody = `nobody-${Date.now()}@x.test`;
    expect(
      (await api(t.env, 'POST', '/api/auth/login', { body: { email: nobody, password: 'Whatever-Passw0rd' }, ip: '10.3.3.4' })).status,
    ).toBe(401);
    const mine = await logs(`user_id=${kim.user_id}`);
    expect(mine.map((l) => [l.action, l.actor_name, l.actor_email])).toEqual([
      ['login_failed', 'Kim Lee', kim.email],
      ['login', 'Kim Lee', kim.email],
    ]);
    const unknown = (await logs('action=login_failed')).find((l) => l.new_values?.includes(nobody));
    expect(unknown).toMatchObject({ user_id: null, actor_name: null, actor_email: null, ip_address: '10.3.3.4' });
    expect(JSON.parse(unknown!.new_values!)).toMatchObject({ email: nobody, reason: 'unknown email' });

    expect((await api(t.env, 'POST', '/api/auth/forgot-password', { body: { email: kim.email }, ip: '10.3.3.5' })).status).toBe(200);
    const [asked] = (await logs('action=password_reset_requested')).filter((l) => l.target_id === kim.user_id);
    expect(asked).toMatchObject({ user_id: null, actor_name: null, actor_email: null, ip_address: '10.3.3.5' });
    expect(JSON.parse(asked!.new_values!)).toMatchObject({ email: kim.email });
    await backgroundSettled();
  });

  it('an actor known only by id (the demo seeds) is named as the user is now; none without an address is the system', async () => {
    const lin = await seedUser(t.env, 'Broker', { first_name: 'Lin', last_name: 'Chen', brokerage_id: t.roles.brokerageId });
    await t.env.db.transaction(async (tx) => {
      await audit(tx, { userId: lin.user_id, ip: '127.0.0.1' }, { action: 'by_id', table: 'widgets', id: 1 });
      await audit(tx, { userId: null, ip: null }, { action: 'by_id', table: 'widgets', id: 2 });
      await audit(tx, { userId: null, ip: '10.1.2.3' }, { action: 'by_id', table: 'widgets', id: 3 });
    });
    const rows = (await logs('action=by_id')).sort((a, b) => a.target_id! - b.target_id!);
    expect(rows.map((l) => [l.target_id, l.user_id, l.actor_name, l.actor_email])).toEqual([
      [1, lin.user_id, 'Lin Chen', lin.email],
      [2, null, 'System', null],
      [3, null, null, null],
    ]);
  });
});

describe("the system's entries read 'System'", () => {
  it('default templates: the list, its earlier name fields and the CSV export', async () => {
    expect(SYSTEM_ACTOR).toEqual({ userId: null, ip: null, name: 'System', email: null });
    const created = await ensureDefaultTemplates(t.env.db);
    expect(created.length).toBeGreaterThan(0);
    const rows = await logs('target_table=notification_templates&action=create');
    expect(rows).toHaveLength(created.length);
    for (const l of rows) {
      expect(l).toMatchObject({
        user_id: null,
        ip_address: null,
        actor_name: 'System',
        actor_email: null,
        first_name: 'System',
        last_name: null,
        email: null,
      });
    }
    const csv = await exported('target_table=notification_templates&action=create');
    expect(csv.map((r) => [r['User ID'], r.User, r.Email])).toEqual(rows.map(() => ['', 'System', '']));
  });

  describe('first start', () => {
    let fresh: TestEnv;
    beforeAll(async () => {
      fresh = await createTestEnv();
    }, 60_000);
    afterAll(async () => fresh?.close());

    it("the Admin created at first start was created by 'System', not by the new 'System Administrator'", async () => {
      const made = await ensureAdmin(fresh.db, fresh.config, () => {});
      expect(made?.generated).toBe(true);
      const [admin] = await rawRows<{ user_id: number }>(fresh.db, sql`SELECT user_id FROM users`);
      const page = await callerFor(fresh, Number(admin!.user_id)).audit.logs({ target_table: 'users' });
      const created = page.logs.find((l) => l.action === 'create' && l.target_id === Number(admin!.user_id));
      expect(created).toMatchObject({ user_id: null, actor_name: 'System', actor_email: null });
    });
  });
});

describe('append-only after the migration', () => {
  it('the migrated database still refuses UPDATE and DELETE of audit_logs (the trigger lifted for the one-time fill is back)', async () => {
    await t.env.db.transaction((tx) => audit(tx, SYSTEM_ACTOR, { action: 'append_only_probe' }));
    for (const change of [
      sql`UPDATE audit_logs SET actor_name = 'Someone Else'`,
      sql`DELETE FROM audit_logs WHERE action = 'append_only_probe'`,
    ]) {
      const refused = await t.env.db
        .transaction((tx) => rawExec(tx, change))
        .then(
          () => 'changed',
          (err: unknown) => errorText(err),
        );
      expect(refused).toMatch(/audit_logs is append-only/);
    }
    const [probe] = await logs('action=append_only_probe');
    expect(probe).toMatchObject({ actor_name: 'System' });
  });

  it('the migration text fills the names once between dropping and re-creating the update trigger, on both engines', () => {
    for (const file of [path.join(SQLITE_MIGRATIONS, '0007_compliance.sql'), path.join(PG_MIGRATIONS, '0003_compliance.sql')]) {
      const text = fs.readFileSync(file, 'utf8');
      const drop = text.search(/DROP TRIGGER\s+["`]audit_logs_no_update["`]/);
      const fill = text.search(/UPDATE\s+["`]audit_logs["`][\s\S]*["`]actor_name["`]/);
      const system = text.search(/SET\s+["`]actor_name["`]\s*=\s*'System'/);
      const create = text.search(/CREATE TRIGGER\s+["`]audit_logs_no_update["`]/);
      expect(
        [drop, fill, system, create].every((i) => i >= 0),
        file,
      ).toBe(true);
      expect(drop < fill && fill < system && system < create, file).toBe(true);
    }
  });
});

const NOW = '2026-01-05T10:00:00.000Z';
/** Entries written before the migration: by Ada, by Bob (no last name), by the system, by an address only, by a user since removed. */
const OLD_ENTRIES: Array<[number | null, string | null]> = [
  [1, '10.0.0.1'],
  [2, '10.0.0.2'],
  [null, null],
  [null, '10.0.0.3'],
  [99, '10.0.0.4'],
];
const FILLED = [
  ['Ada Lovelace', 'ada@x.test'],
  ['Bob', 'bob@x.test'],
  ['System', null],
  [null, null],
  [null, null],
];

describe('the one-time fill of the migration (a database at the migration before it, then migrated)', () => {
  it('SQLite: names and e-mails from the users of then, System for the system, nothing for the rest; still append-only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-audit-fill-'));
    try {
      const sqlite = new Database(path.join(dir, 'db.sqlite'));
      try {
        migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: migrationsBefore(SQLITE_MIGRATIONS, '0007_compliance', dir) });
        const user = sqlite.prepare(
          'INSERT INTO users (user_id, email, password_hash, first_name, last_name, role_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 3, ?, ?)',
        );
        user.run(1, 'ada@x.test', 'x', 'Ada', 'Lovelace', NOW, NOW);
        user.run(2, 'bob@x.test', 'x', 'Bob', '', NOW, NOW);
        const entry = sqlite.prepare("INSERT INTO audit_logs (timestamp, user_id, ip_address, action) VALUES (?, ?, ?, 'update')");
        for (const [userId, ip] of OLD_ENTRIES) entry.run(NOW, userId, ip);

        migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: SQLITE_MIGRATIONS });
        const rows = sqlite.prepare('SELECT actor_name, actor_email FROM audit_logs ORDER BY log_id').all() as Array<{
          actor_name: string | null;
          actor_email: string | null;
        }>;
        expect(rows.map((r) => [r.actor_name, r.actor_email])).toEqual(FILLED);
        expect(() => sqlite.prepare("UPDATE audit_logs SET actor_name = 'x'").run()).toThrow(/audit_logs is append-only/);
        expect(() => sqlite.prepare('DELETE FROM audit_logs').run()).toThrow(/audit_logs is append-only/);
      } finally {
        sqlite.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // The PostgreSQL pass only (TEST_DATABASE_URL), as db-copy.test.ts and instances.test.ts do.
  if (ENGINE === 'postgres')
    it('PostgreSQL: the same fill; still append-only', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-audit-fill-'));
      const created = await createTestDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!);
      const client = new pg.Client({ connectionString: created.url });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: migrationsBefore(PG_MIGRATIONS, '0003_compliance', dir) });
        for (const [id, email, first, last] of [
          [1, 'ada@x.test', 'Ada', 'Lovelace'],
          [2, 'bob@x.test', 'Bob', ''],
        ]) {
          await client.query(
            'INSERT INTO users (user_id, email, password_hash, first_name, last_name, role_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 3, $6, $6)',
            [id, email, 'x', first, last, NOW],
          );
        }
        for (const [userId, ip] of OLD_ENTRIES) {
          await client.query("INSERT INTO audit_logs (timestamp, user_id, ip_address, action) VALUES ($1, $2, $3, 'update')", [
            NOW,
            userId,
            ip,
          ]);
        }

        await migratePg(drizzlePg(client), { migrationsFolder: PG_MIGRATIONS });
        const { rows } = await client.query<{ actor_name: string | null; actor_email: string | null }>(
          'SELECT actor_name, actor_email FROM audit_logs ORDER BY log_id',
        );
        expect(rows.map((r) => [r.actor_name, r.actor_email])).toEqual(FILLED);
        await expect(client.query("UPDATE audit_logs SET actor_name = 'x'")).rejects.toThrow(/audit_logs is append-only/);
        await expect(client.query('DELETE FROM audit_logs')).rejects.toThrow(/audit_logs is append-only/);
      } finally {
        await client.end();
        await created.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
});
