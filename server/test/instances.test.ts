/**
 * Several app instances on one PostgreSQL database (docs/architecture.md "Data layer"): two real
 * server processes, started together on one fresh database, share the sign-in throttle, see each
 * other's maintenance mode within seconds, create one Admin and one set of default templates, and run
 * each office day's pass once between them. PostgreSQL pass only (TEST_DATABASE_URL): SQLite is one
 * process's file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { addDays, ROLE, TRIGGER_EVENTS } from '@lm/shared';
import { openDatabase, type Db } from '../src/db/client.ts';
import { jobRuns, licenses, loginCounters, notificationDeliveries, notificationTemplates, users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/core/passwords.ts';
import { today } from '../src/core/dates.ts';
import { DAILY_PASS_JOB } from '../src/modules/notification-management/reminders.job.ts';
import { freePort, serverEnv, sleep, startServer, type ChildServer } from './child-server.ts';
import { createTestDatabase } from './pg.ts';
import { outboxEmails } from './outbox.ts';

const ADMIN = { email: 'instances-admin@instances.test', password: 'Instances-Passw0rd' };
const AGENT_PASSWORD = 'Agent-Passw0rd-1';

async function call(server: ChildServer, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api${url}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body };
}

const signIn = (server: ChildServer, email: string, password: string) => call(server, 'POST', '/auth/login', { body: { email, password } });

/** Polls `probe` until it returns true or `ms` pass; returns how long it took, or null. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number | null> {
  const start = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - start;
    if (Date.now() - start > ms) return null;
    await sleep(100);
  }
}

if (process.env.TEST_DATABASE_URL) {
  describe('PostgreSQL pass: two app instances on one database', () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let db: Db | undefined;
    const servers: ChildServer[] = [];
    const dirs: string[] = [];

    /** Instances "a" and "b" on the one database, started at the same moment, each with its own DATA_DIR. */
    async function startBoth(scheduler: boolean): Promise<[ChildServer, ChildServer]> {
      const envs = await Promise.all(
        ['a', 'b'].map(async (name) => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lm-instance-${name}-`));
          dirs.push(dir);
          return {
            name,
            env: {
              ...serverEnv(dir, await freePort(), ADMIN),
              DATABASE_URL: database.url,
              SCHEDULER: scheduler ? 'on' : 'off',
            },
          };
        }),
      );
      const started = await Promise.allSettled(envs.map((e) => startServer(e.name, e.env)));
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      return [servers.at(-2)!, servers.at(-1)!];
    }

    async function stopAll() {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
    }

    beforeAll(async () => {
      database = await createTestDatabase(process.env.TEST_DATABASE_URL!);
    });

    afterAll(async () => {
      await stopAll();
      await db?.close();
      await database?.drop();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    let a: ChildServer;
    let b: ChildServer;
    const agent = { email: 'locked.agent@instances.test', user_id: 0 };
    const other = { email: 'other.agent@instances.test', user_id: 0 };

    it('started together on an empty database, they create exactly one Admin', async () => {
      [a, b] = await startBoth(false);
      db = await openDatabase({ databaseUrl: database.url, databasePath: '' }, { migrate: false });
      const admins = await db.select().from(users).where(eq(users.role_id, ROLE.Admin));
      expect(admins.map((u) => u.email)).toEqual([ADMIN.email]);

      // Two Agents for the next steps.
      const hash = await hashPassword(AGENT_PASSWORD);
      for (const u of [agent, other]) {
        const [row] = await db.transaction((tx) =>
          tx
            .insert(users)
            .values({ email: u.email, password_hash: hash, first_name: 'Agent', last_name: u.email.split('.')[0]!, role_id: ROLE.Agent })
            .returning({ user_id: users.user_id }),
        );
        u.user_id = row!.user_id;
      }
    }, 120_000);

    it('the sign-in throttle is shared: failed sign-ins spread over both instances lock the account on both', async () => {
      // Both instances sign the Admin in (its address becomes a known source).
      expect((await signIn(a, ADMIN.email, ADMIN.password)).status).toBe(200);
      expect((await signIn(b, ADMIN.email, ADMIN.password)).status).toBe(200);
      const limit = 5; // max_login_attempts (default)
      for (let i = 0; i < limit; i++) {
        const res = await signIn(i % 2 === 0 ? a : b, agent.email, 'Wrong-Passw0rd');
        expect(res.status).toBe(401);
      }
      // One count for the account, fed by both instances.
      const [counter] = await db!
        .select()
        .from(loginCounters)
        .where(eq(loginCounters.key, `account:${agent.email}`));
      expect(counter?.count).toBe(limit);
      // Locked on both, even for the right password, with the same lock end.
      const onA = await signIn(a, agent.email, AGENT_PASSWORD);
      const onB = await signIn(b, agent.email, AGENT_PASSWORD);
      expect([onA.status, onB.status]).toEqual([429, 429]);
      expect(onA.body.error).toMatch(/^Too many failed sign-in attempts/);
      expect(onB.body.error).toBe(onA.body.error);
      // Per instance the limit would not have been reached (3 on a, 2 on b): it is the shared count.
    }, 60_000);

    it('maintenance mode set through instance a answers 503 to a non-Admin on instance b within 5 s', async () => {
      const adminToken = (await signIn(a, ADMIN.email, ADMIN.password)).body.token as string;
      const agentToken = (await signIn(b, other.email, AGENT_PASSWORD)).body.token as string;
      expect(agentToken).toBeTruthy();
      expect((await call(b, 'GET', '/auth/me', { token: agentToken })).status).toBe(200);

      const on = await call(a, 'PUT', '/admin/settings', { token: adminToken, body: { settings: { maintenance_mode: true } } });
      expect(on.status).toBe(200);
      const took = await within(5_000, async () => (await call(b, 'GET', '/auth/me', { token: agentToken })).status === 503);
      expect(took).not.toBeNull();
      const refused = await call(b, 'GET', '/auth/me', { token: agentToken });
      expect(refused.body.error).toBe('The system is under maintenance. Please try again later.');
      // The Admin still works on b.
      const adminOnB = (await signIn(b, ADMIN.email, ADMIN.password)).body.token as string;
      expect((await call(b, 'GET', '/auth/me', { token: adminOnB })).status).toBe(200);

      // And back: b lets the Agent in again within 5 s.
      expect((await call(a, 'PUT', '/admin/settings', { token: adminToken, body: { settings: { maintenance_mode: false } } })).status).toBe(
        200,
      );
      expect(await within(5_000, async () => (await call(b, 'GET', '/auth/me', { token: agentToken })).status === 200)).not.toBeNull();
    }, 60_000);

    it('the daily pass runs once across instances: one claim in job_runs, each reminder delivered once', async () => {
      await stopAll();
      // A license inside the reminder window, seeded while no instance runs.
      const day = today();
      const [license] = await db!.transaction((tx) =>
        tx
          .insert(licenses)
          .values({
            user_id: other.user_id,
            license_number: 'INST-0001',
            state: 'TX',
            license_type: 'Sales',
            issue_date: '2020-01-01',
            expiration_date: addDays(day, 10),
            status: 'Active',
          })
          .returning(),
      );

      [a, b] = await startBoth(true);
      // Each instance either runs the pass or sees the day claimed; wait until both have decided.
      const decided = (s: ChildServer) =>
        /"msg":"(license reminders|daily pass already run by another instance|license reminders failed)"/.test(s.output());
      expect(await within(45_000, async () => decided(a) && decided(b))).not.toBeNull();
      const ran = [a, b].filter((s) => s.output().includes('"msg":"license reminders"'));
      const skipped = [a, b].filter((s) => s.output().includes('"msg":"daily pass already run by another instance"'));
      expect([ran.length, skipped.length]).toEqual([1, 1]);
      expect(a.output() + b.output()).not.toContain('license reminders failed');

      // One claim of the day, and one of the start-up's one-time CE cache refresh (server.ts) between the two.
      const runs = await db!.select().from(jobRuns);
      expect(runs.map((r) => [r.job, r.run_key]).sort()).toEqual([
        ['ce_cache_refresh', 'compliance-1'],
        [DAILY_PASS_JOB, day],
      ]);

      // One e-mail in the two outboxes together, one delivery row for it and one for the in-app notice.
      const mails = [...(await outboxEmails(a.dataDir, other.email)), ...(await outboxEmails(b.dataDir, other.email))];
      expect(mails).toHaveLength(1);
      expect(mails[0]!.headers.subject).toContain('INST-0001');
      const rows = await db!
        .select()
        .from(notificationDeliveries)
        .where(and(eq(notificationDeliveries.license_id, license!.license_id), eq(notificationDeliveries.status, 'sent')));
      expect(rows.map((r) => r.channel).sort()).toEqual(['email', 'in_app']);
      // Both started with an empty template table: one set of defaults, and still one Admin.
      expect(await db!.select().from(notificationTemplates)).toHaveLength(TRIGGER_EVENTS.length);
      expect(await db!.select().from(users).where(eq(users.role_id, ROLE.Admin))).toHaveLength(1);
    }, 120_000);
  });
} else {
  describe('SQLite pass: one instance restarted the same day runs the daily pass once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-instance-sqlite-'));
    let server: ChildServer | undefined;
    afterAll(async () => {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it('claims the day in job_runs, sends the reminder, and after a restart leaves the day alone', async () => {
      const env = { ...serverEnv(dir, await freePort(), ADMIN), SCHEDULER: 'on' };
      const day = today();
      const seeded = await openDatabase({ databasePath: path.join(dir, 'license-manager.db') });
      const email = 'holder@instances.test';
      try {
        const hash = await hashPassword(AGENT_PASSWORD);
        await seeded.transaction(async (tx) => {
          const [u] = await tx
            .insert(users)
            .values({ email, password_hash: hash, first_name: 'Holder', last_name: 'One', role_id: ROLE.Agent })
            .returning({ user_id: users.user_id });
          await tx.insert(licenses).values({
            user_id: u!.user_id,
            license_number: 'INST-0002',
            state: 'TX',
            license_type: 'Sales',
            issue_date: '2020-01-01',
            expiration_date: addDays(day, 10),
            status: 'Active',
          });
        });
      } finally {
        await seeded.close();
      }
      const decided = (s: ChildServer) =>
        /"msg":"(license reminders|daily pass already run by another instance|license reminders failed)"/.test(s.output());

      server = await startServer('first', env);
      expect(await within(45_000, async () => decided(server!))).not.toBeNull();
      expect(server.output()).toContain('"msg":"license reminders"');
      await server.stop();

      server = await startServer('restarted', env);
      expect(await within(45_000, async () => decided(server!))).not.toBeNull();
      expect(server.output()).toContain('"msg":"daily pass already run by another instance"');
      await server.stop();

      expect(await outboxEmails(dir, email)).toHaveLength(1);
      const db = await openDatabase({ databasePath: path.join(dir, 'license-manager.db') }, { migrate: false });
      try {
        // Beside the day's pass, the start-up's one-time CE cache refresh (server.ts) is claimed once.
        expect((await db.select().from(jobRuns)).map((r) => [r.job, r.run_key])).toEqual([
          ['ce_cache_refresh', 'compliance-1'],
          [DAILY_PASS_JOB, day],
        ]);
      } finally {
        await db.close();
      }
    }, 120_000);
  });
}
