import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, sessions, users } from '../src/db/schema/index.ts';
import { writeSettings } from '../src/core/settings.ts';
import { api, callerFor, createTestEnv, login, seedUser, TEST_PASSWORD, type TestEnv } from './helpers.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

function expectNoSecrets(value: unknown) {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(/"[a-z_]*(password|hash)[a-z_]*"\s*:/i);
  expect(text).not.toMatch(/\$argon2/);
}

describe('REST sign-in', () => {
  it('returns {token, user} without any password or hash, and /auth/me answers the user', async () => {
    const u = await seedUser(env, 'Agent');
    const res = await api(env, 'POST', '/api/auth/login', { body: { email: u.email.toUpperCase(), password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.token.length).toBeGreaterThanOrEqual(32);
    expect(res.body.user).toMatchObject({ user_id: u.user_id, email: u.email, role_id: 3, role_name: 'Agent' });
    expectNoSecrets(res.body);
    const me = await api(env, 'GET', '/api/auth/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(u.user_id);
    expectNoSecrets(me.body);
  });

  it('answers 401 with an error text without a token, with a forged token, and for a wrong password', async () => {
    const none = await api(env, 'GET', '/api/auth/me');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' });
    const forged = await api(env, 'GET', '/api/auth/me', { token: 'forged-token-value' });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBeTruthy();
    const u = await seedUser(env, 'Broker');
    const wrong = await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: 'Wrong-password1' }, ip: '10.9.0.1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('Invalid email or password');
  });

  it('answers 400 for malformed JSON and for missing fields, 404 for an unknown /api path', async () => {
    const bad = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "x"',
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ error: 'Malformed JSON in request body', code: 'BAD_REQUEST' });
    const missing = await api(env, 'POST', '/api/auth/login', { body: { email: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Email is required');
    expect(missing.body.issues).toEqual(expect.arrayContaining([{ path: 'email', message: 'Email is required' }]));
    const unknown = await api(env, 'GET', '/api/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    expect(JSON.stringify(unknown.body)).not.toMatch(/stack|at .*\.ts/);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const res = await api(env, 'POST', '/api/auth/login', { body: { email: 'a@b.c', password: 'x'.repeat(1_100_000) } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('logout revokes the token', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    const out = await api(env, 'POST', '/api/auth/logout', { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect((await api(env, 'GET', '/api/auth/me', { token })).status).toBe(401);
  });

  it('change-password refuses a wrong current password, accepts the right one and revokes other sessions', async () => {
    const u = await seedUser(env, 'Agent');
    const first = await login(env, u.email);
    const second = await login(env, u.email);
    const wrong = await api(env, 'POST', '/api/auth/change-password', {
      token: first,
      body: { currentPassword: 'Nope12345', newPassword: 'NewPassw0rd' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Current password is incorrect');
    const weak = await api(env, 'POST', '/api/auth/change-password', {
      token: first,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'alllowercase1' },
    });
    expect(weak.status).toBe(400);
    const ok = await api(env, 'POST', '/api/auth/change-password', {
      token: first,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'NewPassw0rd' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, other_sessions_ended: 1, calendar_feed_active: false });
    expect((await api(env, 'GET', '/api/auth/me', { token: first })).status).toBe(200);
    expect((await api(env, 'GET', '/api/auth/me', { token: second })).status).toBe(401);
    await login(env, u.email, 'NewPassw0rd');
  });

  it('writes sign-ins, failed sign-ins and sign-outs to the audit table, without secrets', async () => {
    const u = await seedUser(env, 'School');
    await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: 'Wrong-one-9' }, ip: '10.9.0.2' });
    const token = await login(env, u.email);
    await api(env, 'POST', '/api/auth/logout', { token });
    const rows = await env.db.select().from(auditLogs).where(eq(auditLogs.user_id, u.user_id)).orderBy(auditLogs.log_id);
    expect(rows.map((r) => r.action)).toEqual(['login_failed', 'login', 'logout']);
    expect(rows.every((r) => r.target_table === 'users' && r.target_id === u.user_id)).toBe(true);
    for (const r of rows) expectNoSecrets([r.old_values, r.new_values]);
    const unknown = await api(env, 'POST', '/api/auth/login', {
      body: { email: 'nobody@nowhere.test', password: 'Whatever1' },
      ip: '10.9.0.3',
    });
    expect(unknown.status).toBe(401);
    const anon = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'login_failed')));
    expect(anon.some((r) => r.user_id === null && r.new_values?.includes('nobody@nowhere.test'))).toBe(true);
  });

  it('after max_login_attempts failures, unknown sources get 429 with when to retry, even with the right password', async () => {
    await env.db.transaction((tx) => writeSettings(tx, { max_login_attempts: 3, lockout_duration_minutes: 15 }, null));
    try {
      const u = await seedUser(env, 'Agent');
      const codes = [];
      for (let i = 0; i < 4; i++) {
        codes.push(
          (await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: 'Wrong-pass-1' }, ip: `10.8.0.${i}` })).status,
        );
      }
      // Counted before the password is checked: three are checked, the fourth is refused unchecked.
      expect(codes).toEqual([401, 401, 401, 429]);
      const locked = await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: TEST_PASSWORD }, ip: '10.8.1.1' });
      expect(locked.status).toBe(429);
      expect(locked.body.error).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { max_login_attempts: 5, lockout_duration_minutes: 30 }, null));
    }
  });

  it('refuses a deactivated user and ends its sessions', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    await env.db.transaction((tx) => tx.update(users).set({ is_active: false }).where(eq(users.user_id, u.user_id)));
    expect((await api(env, 'GET', '/api/auth/me', { token })).status).toBe(401);
    const res = await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(401);
  });

  it('expires a session after the idle timeout', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    const idle = new Date(Date.now() - 61 * 60_000).toISOString();
    await env.db.transaction((tx) => tx.update(sessions).set({ last_seen_at: idle }).where(eq(sessions.user_id, u.user_id)));
    expect((await api(env, 'GET', '/api/auth/me', { token })).status).toBe(401);
  });

  it('throttles a flood of bad sign-ins while an authenticated call still answers within 2 seconds', async () => {
    const victim = await seedUser(env, 'Agent');
    const other = await seedUser(env, 'Admin');
    const token = await login(env, other.email);
    const flood = Array.from({ length: 60 }, (_, i) =>
      api(env, 'POST', '/api/auth/login', { body: { email: `nobody${i}@flood.test`, password: 'Wrong-pass-1' }, ip: '10.7.7.7' }),
    );
    const started = Date.now();
    const me = await api(env, 'GET', '/api/auth/me', { token });
    const elapsed = Date.now() - started;
    const results = await Promise.all(flood);
    expect(me.status).toBe(200);
    expect(elapsed).toBeLessThan(2000);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // The flood came from one address; a sign-in from another is not slowed.
    expect(
      (await api(env, 'POST', '/api/auth/login', { body: { email: victim.email, password: TEST_PASSWORD }, ip: '10.7.7.8' })).status,
    ).toBe(200);
  });
});

describe('tRPC path', () => {
  it('me through createCaller, and 401 signed out', async () => {
    const u = await seedUser(env, 'Broker');
    await expect(callerFor(env, u.user_id).auth.me()).resolves.toMatchObject({ user_id: u.user_id, role_name: 'Broker' });
    await expect(callerFor(env, null).auth.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
