import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@lm/shared';
import { sql, type SQL } from 'drizzle-orm';
import { auditLogs } from '../src/db/schema/index.ts';
import { rawExec, rawRows } from '../src/db/raw.ts';
import { audit } from '../src/core/audit.ts';
import { today } from '../src/core/dates.ts';
import { appRouter } from '../src/router.ts';
import { dayStartIso } from '../src/modules/reports/period.ts';
import { api, callerFor, login, seedUser, TEST_PASSWORD, type TestEnv, type Roles, useTestEnv } from './helpers.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { ENGINE } from '../src/db/client.ts';

const t = useTestEnv();
let env: TestEnv;
let people: Roles;

/** An entry at a given calendar date (office time, 10:00), written straight into the table. */
async function entryOn(date: string, fields: Partial<typeof auditLogs.$inferInsert>) {
  await env.db.transaction(async (tx) => {
    await tx.insert(auditLogs).values({
      timestamp: new Date(Date.parse(dayStartIso(date)) + 10 * 3_600_000).toISOString(),
      action: 'update',
      ...fields,
    });
  });
}

/** The number of rows in audit_logs, counted straight in the database. */
async function auditCount(): Promise<number> {
  const [row] = await rawRows<{ n: number }>(env.db, sql`SELECT count(*) AS n FROM audit_logs`);
  return Number(row!.n);
}

beforeAll(() => {
  ({ env, roles: people } = t);
});

describe('audit rows written by the product', () => {
  it("creating a license writes an audit row with a 'create' action, target_table 'licenses' and the new values", async () => {
    const created = await api(env, 'POST', '/api/licenses', {
      token: people.admin.token,
      body: {
        user_id: people.agent.user_id,
        license_number: 'AUD-1001',
        state: 'CA',
        issue_date: '2025-01-01',
        expiration_date: '2027-01-01',
      },
    });
    expect(created.status).toBe(200);
    const res = await api(env, 'GET', '/api/audit/logs?target_table=licenses&action=create', { token: people.admin.token });
    expect(res.status).toBe(200);
    const row = res.body.logs.find((l: { target_id: number }) => l.target_id === created.body.license_id);
    expect(row).toBeDefined();
    expect(row.action).toContain('create');
    expect(row.target_table).toBe('licenses');
    expect(row.user_id).toBe(people.admin.user_id);
    expect(row.email).toBe(people.admin.email);
    expect(row.first_name).toBe('Admin');
    // Who acted is stored with the entry (docs/decisions.md "Audit: who acted").
    expect(row.actor_name).toMatch(/^Admin User\d+$/);
    expect(row.actor_email).toBe(people.admin.email);
    expect(JSON.parse(row.new_values)).toMatchObject({ license_number: 'AUD-1001', state: 'CA', user_id: people.agent.user_id });
  });

  it('no audit value ever holds a password or a hash', async () => {
    // Sign-in, a password change, a user created with a password, and a direct entry carrying secrets.
    const someone = await seedUser(env, 'Broker');
    const token = await login(env, someone.email);
    const changed = await api(env, 'POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'N3w-Passw0rd-x' },
    });
    expect(changed.status).toBe(200);
    const user = await api(env, 'POST', '/api/users', {
      token: people.admin.token,
      body: {
        email: `audit-secret-${Date.now()}@test.example`,
        password: 'Secr3t-Passw0rd',
        first_name: 'Sec',
        last_name: 'Ret',
        role_id: 3,
      },
    });
    expect(user.status).toBe(200);
    const writeEntry = (entry: Parameters<typeof audit>[2]) =>
      env.db.transaction((tx) => audit(tx, { userId: people.admin.user_id, ip: '127.0.0.1' }, entry));
    await writeEntry({
      action: 'update',
      table: 'users',
      id: people.agent.user_id,
      old: { password_hash: '$argon2id$v=19$old', token: 'abc' },
      new: {
        password: 'Plain-Passw0rd',
        nested: { passwordHash: '$argon2id$x' },
        first_name: 'Still here',
        items: [{ api_secret: 'S3cret-In-A-List', label: 'Listed too' }, 'plain'],
      },
    });
    // An entry whose only secret is in what an object turns into (its toJSON).
    await writeEntry({
      action: 'update',
      table: 'settings',
      id: 1,
      new: { label: 'Mail', wrapped: { toJSON: () => ({ smtp_url: 'smtp://u:Hidden-Pw@mail.test', host: 'mail.test' }) } },
    });
    const all = await api(env, 'GET', '/api/audit/logs?limit=100', { token: people.admin.token });
    expect(all.body.logs.length).toBeGreaterThan(3);
    const values = all.body.logs
      .map((l: { old_values: string | null; new_values: string | null }) => `${l.old_values}\n${l.new_values}`)
      .join('\n');
    expect(values).toContain('Still here');
    expect(values).not.toMatch(/"[a-z_]*(password|hash)[a-z_]*"\s*:/i);
    expect(values).not.toMatch(/\$argon2/);
    expect(values).not.toContain('Secr3t-Passw0rd');
    expect(values).not.toContain('N3w-Passw0rd-x');
    expect(values).not.toContain('Plain-Passw0rd');
    expect(values).not.toContain('S3cret-In-A-List');
    expect(values).toContain('"items":[{"label":"Listed too"},"plain"]');
    expect(values).not.toContain('Hidden-Pw');
    expect(values).toContain('"wrapped":{"host":"mail.test"}');
  });

  it('each entry carries the time it was written (the insert is prepared once, its time is not)', async () => {
    const actor = { userId: people.admin.user_id, ip: '127.0.0.1' };
    const write = (id: number) => env.db.transaction((tx) => audit(tx, actor, { action: 'time_check', table: 'licenses', id }));
    await write(900_001);
    await new Promise((resolve) => setTimeout(resolve, 15));
    await write(900_002);
    const rows = await rawRows<{ target_id: number; timestamp: string }>(
      env.db,
      sql`SELECT target_id, timestamp FROM audit_logs WHERE action = 'time_check' ORDER BY target_id`,
    );
    expect(rows.map((r) => Number(r.target_id))).toEqual([900_001, 900_002]);
    const [first, second] = rows.map((r) => Date.parse(new Date(r.timestamp).toISOString()));
    expect(second! - first!).toBeGreaterThanOrEqual(10);
  });
});

describe('GET /api/audit/logs filters and pagination', () => {
  let base: number;
  beforeAll(async () => {
    base = await auditCount();
    const day = addDays(today(), -40);
    for (let i = 0; i < 30; i++)
      await entryOn(day, { action: 'renew', target_table: 'widgets', target_id: i + 1, user_id: people.agent.user_id });
    await entryOn(addDays(today(), -100), {
      action: 'bulk_delete',
      target_table: 'gadgets',
      user_id: people.school.user_id,
      ip_address: '10.1.1.1',
    });
    await entryOn(addDays(today(), -100), { action: 'delete', target_table: 'gadgets', user_id: null });
  });

  it('the table filter returns only that table, newest first, with the pagination block', async () => {
    const res = await api(env, 'GET', '/api/audit/logs?target_table=widgets&limit=25', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 30, pages: 2, next_cursor: expect.any(String), total_capped: false });
    expect(res.body.logs).toHaveLength(25);
    expect(res.body.logs.every((l: { target_table: string }) => l.target_table === 'widgets')).toBe(true);
    expect(res.body.logs.map((l: { target_id: number }) => l.target_id).slice(0, 3)).toEqual([30, 29, 28]);
    const page2 = await api(env, 'GET', '/api/audit/logs?target_table=widgets&limit=25&page=2', { token: people.admin.token });
    expect(page2.body.pagination).toEqual({ page: 2, limit: 25, total: 30, pages: 2, next_cursor: null, total_capped: false });
    expect(page2.body.logs.map((l: { target_id: number }) => l.target_id)).toEqual([5, 4, 3, 2, 1]);
    const past = await api(env, 'GET', '/api/audit/logs?target_table=widgets&limit=25&page=9', { token: people.admin.token });
    expect(past.body.logs).toEqual([]);
    expect(past.body.pagination.total).toBe(30);
  });

  it('the action filter matches a case-insensitive substring; combined with the table it narrows further', async () => {
    const del = await api(env, 'GET', '/api/audit/logs?action=DELETE', { token: people.admin.token });
    expect(del.body.logs.map((l: { action: string }) => l.action).sort()).toEqual(['bulk_delete', 'delete']);
    const both = await api(env, 'GET', '/api/audit/logs?action=bulk&target_table=gadgets', { token: people.admin.token });
    expect(both.body.logs).toHaveLength(1);
    expect(both.body.logs[0]).toMatchObject({ action: 'bulk_delete', ip_address: '10.1.1.1', user_id: people.school.user_id });
    const none = await api(env, 'GET', '/api/audit/logs?action=no-such-action', { token: people.admin.token });
    expect(none.body).toEqual({ logs: [], pagination: { page: 1, limit: 50, total: 0, pages: 0, next_cursor: null, total_capped: false } });
  });

  it('filters by user and by an inclusive date range; an unknown user id shows no name', async () => {
    const byUser = await api(env, 'GET', `/api/audit/logs?user_id=${people.school.user_id}`, { token: people.admin.token });
    expect(byUser.body.logs.map((l: { action: string }) => l.action)).toEqual(['bulk_delete']);
    const d = addDays(today(), -40);
    const range = await api(env, 'GET', `/api/audit/logs?start_date=${d}&end_date=${d}`, { token: people.admin.token });
    expect(range.body.pagination.total).toBe(30);
    const older = await api(env, 'GET', `/api/audit/logs?end_date=${addDays(today(), -50)}`, { token: people.admin.token });
    expect(older.body.pagination.total).toBe(2);
    const anonymous = older.body.logs.find((l: { action: string }) => l.action === 'delete');
    expect(anonymous).toMatchObject({ user_id: null, first_name: null, last_name: null, email: null });
  });

  it('defaults to page 1 and limit 50; the unfiltered total counts every row, including new ones', async () => {
    const res = await api(env, 'GET', '/api/audit/logs', { token: people.admin.token });
    expect(res.body.pagination.page).toBe(1);
    expect(res.body.pagination.limit).toBe(50);
    const total = res.body.pagination.total as number;
    expect(total).toBeGreaterThanOrEqual(base + 32);
    expect(total).toBe(await auditCount());
    await env.db.transaction(async (tx) => {
      await tx.insert(auditLogs).values({ action: 'create', target_table: 'widgets' });
    });
    const after = await callerFor(env, people.admin.user_id).audit.logs({});
    expect(after.pagination.total).toBe(total + 1);
    expect(after.logs[0]).toMatchObject({ action: 'create', target_table: 'widgets' });
    // The cached all-time figures follow new rows, and are recounted if the table changed underneath
    // (as a restore from backup would do).
    const widgets = async () => (await callerFor(env, people.admin.user_id).audit.logs({ target_table: 'widgets' })).pagination.total;
    expect(await widgets()).toBe(31);
    // The table is append-only (a trigger refuses DELETE); lift it for this one simulated change.
    await env.db.transaction(async (tx) => {
      if (tx.engine === 'sqlite') {
        await rawExec(tx, sql`DROP TRIGGER audit_logs_no_delete`);
        await rawExec(tx, sql`DELETE FROM audit_logs WHERE log_id = (SELECT max(log_id) FROM audit_logs)`);
        await rawExec(
          tx,
          sql`CREATE TRIGGER audit_logs_no_delete BEFORE DELETE ON audit_logs BEGIN SELECT RAISE(ABORT, 'audit_logs is append-only'); END`,
        );
      } else {
        await rawExec(tx, sql`ALTER TABLE audit_logs DISABLE TRIGGER audit_logs_no_delete`);
        await rawExec(tx, sql`DELETE FROM audit_logs WHERE log_id = (SELECT max(log_id) FROM audit_logs)`);
        await rawExec(tx, sql`ALTER TABLE audit_logs ENABLE TRIGGER audit_logs_no_delete`);
      }
    });
    expect((await callerFor(env, people.admin.user_id).audit.logs({})).pagination.total).toBe(await auditCount());
    expect(await widgets()).toBe(30);
    const summary = await callerFor(env, people.admin.user_id).audit.summary({});
    expect(summary.total_logs).toBe(await auditCount());
    expect(summary.top_tables.find((t) => t.target_table === 'widgets')?.count).toBe(30);
  });

  it('answers 400 for a limit other than 25, 50 or 100, a bad date, or a start after the end', async () => {
    for (const q of [
      'limit=30',
      'limit=abc',
      'start_date=2026-13-01',
      'page=0',
      `start_date=${today()}&end_date=${addDays(today(), -1)}`,
    ]) {
      const res = await api(env, 'GET', `/api/audit/logs?${q}`, { token: people.admin.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toEqual(expect.any(String));
    }
  });
});

describe('GET /api/audit/summary', () => {
  it('has its four fields, for all time and for a date range', async () => {
    const all = await api(env, 'GET', '/api/audit/summary', { token: people.admin.token });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['top_actions', 'top_tables', 'total_logs', 'unique_users']);
    expect(all.body.total_logs).toBe(await auditCount());
    const d = addDays(today(), -40);
    const range = await callerFor(env, people.admin.user_id).audit.summary({ start_date: d, end_date: d });
    expect(range).toEqual({
      total_logs: 30,
      unique_users: 1,
      top_actions: [{ action: 'renew', count: 30 }],
      top_tables: [{ target_table: 'widgets', count: 30 }],
    });
    const older = await api(env, 'GET', `/api/audit/summary?start_date=${addDays(today(), -100)}&end_date=${addDays(today(), -100)}`, {
      token: people.admin.token,
    });
    expect(older.body).toEqual({
      total_logs: 2,
      unique_users: 1,
      top_actions: [
        { action: 'bulk_delete', count: 1 },
        { action: 'delete', count: 1 },
      ],
      top_tables: [{ target_table: 'gadgets', count: 2 }],
    });
  });
});

describe('who may read the audit log', () => {
  const cases = [
    { who: 'admin', status: 200 },
    { who: 'broker', status: 403 },
    { who: 'agent', status: 403 },
    { who: 'school', status: 403 },
    { who: null, status: 401 },
  ] as const;

  for (const c of cases) {
    it(`${c.who ?? 'signed out'}: ${c.status} on REST and tRPC`, async () => {
      const token = c.who ? people[c.who].token : undefined;
      for (const path of ['/api/audit/logs', '/api/audit/summary']) {
        const res = await api(env, 'GET', path, { token });
        expect(res.status, path).toBe(c.status);
        if (c.status !== 200) expect(res.body.error).toEqual(expect.any(String));
      }
      const caller = callerFor(env, c.who ? people[c.who].user_id : null);
      if (c.status === 200) {
        await expect(caller.audit.logs()).resolves.toHaveProperty('pagination');
        await expect(caller.audit.summary()).resolves.toHaveProperty('total_logs');
      } else {
        const code = c.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
        await expect(caller.audit.logs()).rejects.toMatchObject({ code });
        await expect(caller.audit.summary()).rejects.toMatchObject({ code });
      }
    });
  }
});

describe('append-only', () => {
  it('publishes no procedure that writes the audit log, and the REST API has no route to change it', async () => {
    const procs = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).filter(([name]) =>
      name.startsWith('audit.'),
    );
    expect(procs.map(([n]) => n).sort()).toEqual(['audit.logs', 'audit.summary']);
    expect(procs.every(([, p]) => p._def.type === 'query')).toBe(true);
    // E-mails of earlier requests (welcome e-mails) audit their delivery after the answer: let them finish first.
    await backgroundSettled();
    const before = await auditCount();
    for (const method of ['DELETE', 'PUT', 'POST'] as const) {
      const res = await api(env, method, '/api/audit/logs', { token: people.admin.token, body: {} });
      expect(res.status, method).toBe(404);
    }
    expect((await api(env, 'DELETE', '/api/audit/logs/1', { token: people.admin.token })).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it('an INSERT OR REPLACE, REPLACE INTO or upsert on a taken log_id is refused and the row is unchanged (audit_logs_no_replace)', async () => {
    // Raw SQL on purpose: the database itself must refuse (drizzle/sqlite/0008_one_time_links.sql; on PostgreSQL the
    // upsert's UPDATE meets the no-update trigger).
    const write = (q: SQL) => env.db.transaction((tx) => rawExec(tx, q));
    await write(
      sql`INSERT INTO audit_logs (timestamp, action, target_table) VALUES (${new Date().toISOString()}, 'create', 'replace_probe')`,
    );
    const [original] = await rawRows<Record<string, unknown>>(env.db, sql`SELECT * FROM audit_logs WHERE target_table = 'replace_probe'`);
    const id = Number(original!.log_id);
    const refusal = async (q: SQL) => {
      const err = await write(q).then(
        () => null,
        (e: unknown) => e,
      );
      const messages: string[] = [];
      for (let e = err as { message?: string; cause?: unknown } | null; e; e = e.cause as typeof e) messages.push(String(e.message));
      return messages.join(' | ');
    };
    const ts = new Date().toISOString();
    const attempts: SQL[] = [
      sql`INSERT INTO audit_logs (log_id, timestamp, action, target_table) VALUES (${id}, ${ts}, 'forged', 'replace_probe')
          ON CONFLICT (log_id) DO UPDATE SET action = 'forged'`,
    ];
    if (ENGINE === 'sqlite') {
      attempts.push(
        sql`INSERT OR REPLACE INTO audit_logs (log_id, timestamp, action, target_table) VALUES (${id}, ${ts}, 'forged', 'replace_probe')`,
        sql`REPLACE INTO audit_logs (log_id, timestamp, action, target_table) VALUES (${id}, ${ts}, 'forged', 'replace_probe')`,
      );
    }
    for (const q of attempts) expect(await refusal(q)).toMatch(/audit_logs is append-only/);
    const rows = await rawRows<Record<string, unknown>>(env.db, sql`SELECT * FROM audit_logs WHERE target_table = 'replace_probe'`);
    expect(rows).toEqual([original]);
    // A new entry (no log_id given, or a free one) is still written.
    await write(sql`INSERT INTO audit_logs (timestamp, action, target_table) VALUES (${ts}, 'create', 'replace_probe')`);
    expect(await rawRows(env.db, sql`SELECT log_id FROM audit_logs WHERE target_table = 'replace_probe'`)).toHaveLength(2);
  });

  it('lists the audit paths in the OpenAPI document', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    expect(res.body.paths['/audit/logs']?.get).toBeDefined();
    expect(res.body.paths['/audit/summary']?.get).toBeDefined();
  });
});
