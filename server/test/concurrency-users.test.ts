/**
 * Races on the users domain and on sign-in (docs/architecture.md "Data layer"): rules that decide a
 * write are checked inside its transaction, and the sign-in counters are atomic, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull, like, sql } from 'drizzle-orm';
import { PASSWORD_RESET_STRINGS, ROLE } from '@lm/shared';
import { auditLogs, loginCounters, users } from '../src/db/schema/index.ts';
import { issueLinkToken, LINK_VALIDITY_MS } from '../src/modules/auth/password-reset.service.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { toErrorBody } from '../src/base/errors.ts';
import { callerFor, createTestEnv, seedUser, TEST_PASSWORD, type TestEnv } from './helpers.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await backgroundSettled();
  await env.close();
});

describe('users.create racing for one e-mail', () => {
  it('50 parallel creates (the e-mail in different cases) make one user; the other 49 answer 409 with a clear message', async () => {
    const admin = await seedUser(env, 'Admin');
    const caller = callerFor(env, admin.user_id);
    const local = `race-${Date.now()}`;
    const spellings = [`${local}@example.com`, `${local.toUpperCase()}@EXAMPLE.COM`, `${local}@Example.com`];
    const createAudits = async () =>
      (
        await env.db
          .select({ n: count() })
          .from(auditLogs)
          .where(and(eq(auditLogs.action, 'create'), eq(auditLogs.target_table, 'users'), like(auditLogs.new_values, `%${local}%`)))
      )[0]!.n;

    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        caller.users.create({
          email: spellings[i % spellings.length]!,
          password: TEST_PASSWORD,
          first_name: 'Race',
          last_name: `Runner ${i}`,
          role_id: 3,
        }),
      ),
    );

    const created = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const r of refused) {
      const { status, body } = toErrorBody(r.reason);
      expect(status).toBe(409);
      expect(body.error).toBe('A user with this email already exists');
    }
    const rows = await env.db
      .select({ id: users.user_id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${spellings[0]!})`);
    expect(rows).toHaveLength(1);
    expect(await createAudits()).toBe(1);
  });
});

describe('sign-in counters under concurrency', () => {
  it('20 parallel failed sign-ins for one account count exactly 20', async () => {
    const user = await seedUser(env, 'Agent');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => callerFor(env, null).auth.login({ email: user.email, password: 'Wrong-passw0rd' })),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    const statuses = results.map((r) => toErrorBody((r as PromiseRejectedResult).reason).status);
    // max_login_attempts (5) passwords are checked, the rest are refused unchecked; never a 500.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);

    // createCaller contexts come from 127.0.0.1, an unknown source: the (e-mail, source) and the
    // account's strangers counter both saw every attempt.
    const counters = await env.db
      .select({ key: loginCounters.key, count: loginCounters.count })
      .from(loginCounters)
      .where(like(loginCounters.key, `account:${user.email}%`));
    expect(Object.fromEntries(counters.map((c) => [c.key, c.count]))).toEqual({
      [`account:${user.email}|address:127.0.0.1`]: 20,
      [`account:${user.email}`]: 20,
    });
    const failures = await env.db
      .select({ n: count() })
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'login_failed'), eq(auditLogs.target_id, user.user_id)));
    // Five wrong passwords, and each of the three counters' lock audited once, when it started.
    expect(failures[0]!.n).toBe(8);
  });
});

describe('rules that decide a write are checked inside its transaction', () => {
  it('two Admins demoting each other at the same moment leave one active Admin; the other answers 409', async () => {
    // A database of its own: exactly two Admins.
    const own = await createTestEnv();
    try {
      const a = await seedUser(own, 'Admin');
      const b = await seedUser(own, 'Admin');
      const asA = callerFor(own, a.user_id);
      const asB = callerFor(own, b.user_id);
      // Both signed in as Admins before either change.
      await asA.auth.me();
      await asB.auth.me();
      const results = await Promise.allSettled([
        asA.users.update({ id: b.user_id, role_id: ROLE.Broker }),
        asB.users.update({ id: a.user_id, role_id: ROLE.Broker }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      expect(toErrorBody(refused.reason)).toMatchObject({ status: 409, body: { error: 'At least one active Admin must remain' } });
      const admins = await own.db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role_id, ROLE.Admin), eq(users.is_active, true), isNull(users.deleted_at)));
      expect(admins[0]!.n).toBe(1);
    } finally {
      await backgroundSettled();
      await own.close();
    }
  });

  it('one password link used by 10 requests at once sets the password once; the rest answer 400', async () => {
    const user = await seedUser(env, 'Agent');
    const token = await env.db.transaction((tx) => issueLinkToken(tx, user.user_id, 'reset', LINK_VALIDITY_MS.forgot, null));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => callerFor(env, null).auth.resetPassword({ token, newPassword: `Brand-new-passw0rd-${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(toErrorBody(r.reason)).toMatchObject({ status: 400, body: { error: PASSWORD_RESET_STRINGS.invalidToken } });
      }
    }
    const resets = await env.db
      .select({ n: count() })
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'password_reset'), eq(auditLogs.target_id, user.user_id)));
    expect(resets[0]!.n).toBe(1);
  });

  it('two users confirming a change to the same new e-mail at once: one succeeds, the other is refused', async () => {
    const one = await seedUser(env, 'Agent');
    const two = await seedUser(env, 'School');
    const wanted = `shared-${Date.now()}@example.com`;
    // Both changes are pending (the address was free when each was asked for); the confirmations race.
    const [t1, t2] = (await Promise.all(
      [one, two].map((u) =>
        env.db.transaction((tx) => issueLinkToken(tx, u.user_id, 'email_change', LINK_VALIDITY_MS.admin, null, wanted)),
      ),
    )) as [string, string];
    const results = await Promise.allSettled([
      callerFor(env, null).users.confirmEmailChange({ token: t1 }),
      callerFor(env, null).users.confirmEmailChange({ token: t2 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect([400, 409]).toContain(toErrorBody(refused.reason).status);
  });
});
