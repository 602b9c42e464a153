/**
 * The sign-in gate (docs/security.md "Fair hashing"): strangers' sign-ins beyond GATE_SLOTS in flight are
 * refused before any work (no counter, no hash), in each transport's error shape, while a known source
 * always passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCounters } from '../src/db/schema/index.ts';
import { GATE_SLOTS } from '../src/modules/auth/login-gate.ts';
import { HASH_BUSY_MESSAGE } from '../src/core/passwords.ts';
import { api, createTestEnv, seedUser, TEST_PASSWORD, type TestEnv } from './helpers.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

const counterKeys = async () => new Set((await env.db.select({ key: loginCounters.key }).from(loginCounters)).map((r) => r.key));

describe('the sign-in gate', () => {
  it('refuses strangers beyond the slots without touching a counter, and lets a known source through', async () => {
    const user = await seedUser(env, 'Agent');
    // The user's own client signed in from this address before: a known source.
    expect(
      (await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: TEST_PASSWORD }, ip: '10.70.0.1' })).status,
    ).toBe(200);

    const strangers = Array.from({ length: GATE_SLOTS + 20 }, (_, i) => ({ email: `gate-${i}@nowhere.test`, ip: `10.71.0.${i + 1}` }));
    const flood = strangers.map((s) =>
      api(env, 'POST', '/api/auth/login', { body: { email: s.email, password: 'Wrong-passw0rd' }, ip: s.ip }),
    );
    const own = api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: TEST_PASSWORD }, ip: '10.70.0.1' });
    const answers = await Promise.all(flood);
    expect((await own).status).toBe(200);

    const refused = answers.flatMap((a, i) => (a.status === 429 ? [i] : []));
    expect(refused.length).toBeGreaterThanOrEqual(strangers.length - GATE_SLOTS - 1);
    const keys = await counterKeys();
    for (const i of refused) {
      expect(answers[i]!.body).toEqual({ error: HASH_BUSY_MESSAGE, code: 'TOO_MANY_REQUESTS' });
      expect(answers[i]!.headers['retry-after']).toBe('1');
      // Refused at the gate: nothing was counted for that e-mail.
      expect(keys.has(`account:${strangers[i]!.email}`)).toBe(false);
    }
    // The others went through the counters and the password check as usual.
    for (const [i, a] of answers.entries()) if (!refused.includes(i)) expect(a.status).toBe(401);
  });

  it('over tRPC, a refused batch answers one tRPC error per call', async () => {
    // Enough strangers that the gate is still full when the batch arrives last, also when the first of them finish
    // early (the PostgreSQL pass in CI once had slots free with GATE_SLOTS + 4).
    const slow = Array.from({ length: GATE_SLOTS * 3 }, (_, i) =>
      api(env, 'POST', '/api/auth/login', {
        body: { email: `slow-${i}@nowhere.test`, password: 'Wrong-passw0rd' },
        ip: `10.72.${Math.floor(i / 200)}.${(i % 200) + 1}`,
      }),
    );
    const batch = env.app.inject({
      method: 'POST',
      url: '/trpc/auth.login,auth.login?batch=1',
      headers: { 'content-type': 'application/json' },
      remoteAddress: '10.73.0.1',
      payload: JSON.stringify({ 0: { email: 'b0@nowhere.test', password: 'x' }, 1: { email: 'b1@nowhere.test', password: 'x' } }),
    });
    const [res] = await Promise.all([batch, ...slow]);
    expect(res.statusCode).toBe(429);
    const items = JSON.parse(res.body) as Array<{ error: { message: string; data: { httpStatus: number; code: string } } }>;
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(item.error.message).toBe(HASH_BUSY_MESSAGE);
      expect(item.error.data).toMatchObject({ httpStatus: 429, code: 'TOO_MANY_REQUESTS' });
    }
  });
});
