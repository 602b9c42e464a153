/**
 * Sign-in that an attacker cannot turn against its users (docs/security.md "Sign-in"): attempts are
 * counted before the password check, strangers are locked out while known sources keep signing in,
 * and a locked, unknown or wrong answer looks the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLogs } from '../src/db/schema/index.ts';
import { passwordStats } from '../src/core/passwords.ts';
import { parseTrustProxy } from '../src/config.ts';
import { api, createTestEnv, login, seedUser, TEST_PASSWORD, type TestEnv } from './helpers.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

const MAX = 5; // settings.max_login_attempts by default
const WRONG = 'Wrong-passw0rd';

const restLogin = (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  api(env, 'POST', '/api/auth/login', { body: { email, password }, ip, headers });

/** A tRPC batch of sign-ins as the web app sends it: POST /trpc/auth.login,auth.login,...?batch=1. */
async function trpcBatch(calls: Array<{ email: string; password: string }>, ip: string, cookie?: string) {
  const res = await env.app.inject({
    method: 'POST',
    url: `/trpc/${calls.map(() => 'auth.login').join(',')}?batch=1`,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    remoteAddress: ip,
    payload: JSON.stringify(Object.fromEntries(calls.map((c, i) => [String(i), c]))),
  });
  const items = JSON.parse(res.body) as Array<{ result?: unknown; error?: { message: string; data: { httpStatus: number } } }>;
  return { res, statuses: items.map((i) => (i.error ? i.error.data.httpStatus : 200)), items };
}

describe('lockout: strangers locked out, known sources keep signing in', () => {
  it('REST: five wrong passwords for the Admin from one source, then the right one from a known source succeeds; the sixth answers 429 alike for a real and an unknown e-mail', async () => {
    const admin = await seedUser(env, 'Admin');
    // The Admin's own client signed in from this address before.
    expect((await restLogin(admin.email, TEST_PASSWORD, '10.60.0.1')).status).toBe(200);

    const stranger = '10.60.9.9';
    for (let i = 0; i < MAX; i++) {
      const res = await restLogin(admin.email, WRONG, stranger);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    }
    // Locked for strangers, even one that now has the right password, from anywhere new.
    const sixth = await restLogin(admin.email, WRONG, stranger);
    expect(sixth.status).toBe(429);
    expect((await restLogin(admin.email, TEST_PASSWORD, '10.60.9.10')).status).toBe(429);

    // The Admin, from the address it signed in from before, is not locked out.
    const own = await restLogin(admin.email, TEST_PASSWORD, '10.60.0.1');
    expect(own.status).toBe(200);
    expect(own.body.user.user_id).toBe(admin.user_id);

    // An e-mail with no account gets exactly the same answers (from another stranger: the address limit
    // of the first counts every account).
    const ghost = `nobody-${Date.now()}@t.test`;
    const ghostAnswers = [];
    for (let i = 0; i <= MAX; i++) ghostAnswers.push(await restLogin(ghost, WRONG, '10.60.9.11'));
    expect(ghostAnswers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(ghostAnswers[0]!.body).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    expect(ghostAnswers[MAX]!.body).toEqual(sixth.body);
    expect(sixth.body).toEqual({ error: 'Too many failed sign-in attempts. Try again in 30 minutes.', code: 'TOO_MANY_REQUESTS' });
    expect(Math.abs(Number(ghostAnswers[MAX]!.headers['retry-after']) - Number(sixth.headers['retry-after']))).toBeLessThanOrEqual(5);
  });

  it('the web app: a browser that signed in before (device cookie) signs in from a new address while strangers are locked out', async () => {
    const u = await seedUser(env, 'Broker');
    const first = await trpcBatch([{ email: u.email, password: TEST_PASSWORD }], '10.61.0.1');
    expect(first.statuses).toEqual([200]);
    const setCookie = String(first.res.headers['set-cookie']);
    expect(setCookie).toMatch(/^lm_device=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;

    for (let i = 0; i <= MAX; i++) await restLogin(u.email, WRONG, '10.61.9.9');
    // The browser's address changed (another network), but its device is known.
    const again = await trpcBatch([{ email: u.email, password: TEST_PASSWORD }], '10.61.5.5', cookie);
    expect(again.statuses).toEqual([200]);
    // The same address without the cookie is a stranger.
    const noCookie = await trpcBatch([{ email: u.email, password: TEST_PASSWORD }], '10.61.5.5');
    expect(noCookie.statuses).toEqual([429]);
    expect(noCookie.res.headers['retry-after']).toBeDefined();
  });

  it('a stolen device cookie still has a limit of its own', async () => {
    const u = await seedUser(env, 'Agent');
    const first = await trpcBatch([{ email: u.email, password: TEST_PASSWORD }], '10.62.0.1');
    const cookie = String(first.res.headers['set-cookie']).split(';')[0]!;
    const wrong = await trpcBatch(
      Array.from({ length: MAX + 3 }, () => ({ email: u.email, password: WRONG })),
      '10.62.7.7',
      cookie,
    );
    expect(wrong.statuses.filter((s) => s === 401)).toHaveLength(MAX);
    expect(wrong.statuses.filter((s) => s === 429)).toHaveLength(3);
  });
});

describe('attempts are counted before the password is checked', () => {
  it('REST: a tRPC batch of 34 sign-ins for one account checks at most max_login_attempts passwords', async () => {
    const u = await seedUser(env, 'Agent');
    const calls = [...Array.from({ length: 33 }, () => ({ email: u.email, password: WRONG })), { email: u.email, password: TEST_PASSWORD }];
    const before = passwordStats.verifications;
    const { statuses } = await trpcBatch(calls, '10.63.0.1');
    const checked = passwordStats.verifications - before;
    expect(checked).toBeLessThanOrEqual(MAX);
    expect(statuses.filter((s) => s === 200 || s === 401)).toHaveLength(checked);
    expect(statuses.filter((s) => s === 429)).toHaveLength(34 - checked);
    expect(statuses.at(-1)).toBe(429); // the right password came too late
  });

  it('REST: 40 concurrent wrong sign-ins lock the account for that source after exactly max_login_attempts', async () => {
    const u = await seedUser(env, 'Broker');
    const before = passwordStats.verifications;
    const answers = await Promise.all(Array.from({ length: 40 }, () => restLogin(u.email, WRONG, '10.64.0.1')));
    expect(passwordStats.verifications - before).toBe(MAX);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(MAX);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(40 - MAX);
    expect((await restLogin(u.email, TEST_PASSWORD, '10.64.0.1')).status).toBe(429);
  });
});

describe('a locked, unknown or wrong answer looks the same', () => {
  it('same status and body, and the same work: one check for wrong and unknown, none once locked', async () => {
    const u = await seedUser(env, 'School');
    const ghost = `ghost-${Date.now()}@t.test`;
    const measure = async (email: string, ip: string) => {
      const before = passwordStats.verifications;
      const res = await restLogin(email, WRONG, ip);
      return { status: res.status, body: res.body, checks: passwordStats.verifications - before };
    };
    const wrong = await measure(u.email, '10.65.0.1');
    const unknown = await measure(ghost, '10.65.0.2');
    expect(unknown).toEqual(wrong);
    expect(wrong.checks).toBe(1);
    for (let i = 1; i < MAX; i++) {
      await measure(u.email, '10.65.0.1');
      await measure(ghost, '10.65.0.2');
    }
    const lockedKnown = await measure(u.email, '10.65.0.1');
    const lockedUnknown = await measure(ghost, '10.65.0.2');
    expect(lockedKnown).toEqual(lockedUnknown);
    expect(lockedKnown.status).toBe(429);
    expect(lockedKnown.checks).toBe(0);
  });
});

describe('per-address limit and proxies', () => {
  it('NAT: a flood from one office address does not stop a colleague who signed in from it before', async () => {
    const colleague = await seedUser(env, 'Agent');
    const office = '10.66.0.1';
    expect((await restLogin(colleague.email, TEST_PASSWORD, office)).status).toBe(200);
    const flood = [];
    for (let i = 0; i < 15; i++) flood.push((await restLogin(`nobody${i}@nat.test`, WRONG, office)).status);
    expect(flood.filter((s) => s === 429).length).toBeGreaterThan(0); // the address hit its limit
    expect((await restLogin(colleague.email, TEST_PASSWORD, office)).status).toBe(200);
  });

  it('a successful sign-in does not use up the address limit (an office signing in all at once)', async () => {
    const office = '10.67.0.1';
    for (let i = 0; i < 12; i++) {
      const u = await seedUser(env, 'Agent');
      expect((await restLogin(u.email, TEST_PASSWORD, office)).status).toBe(200);
    }
  });

  it('X-Forwarded-For is ignored without TRUST_PROXY: rotating it does not reset the address limit', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await restLogin(`rot${i}@xff.test`, WRONG, '10.68.0.1', { 'x-forwarded-for': `203.0.113.${i}` })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('with a trusted proxy address, X-Forwarded-For from that proxy is believed and from others it is not', async () => {
    const proxied = await createTestEnv({ TRUST_PROXY: '10.69.0.1' });
    try {
      const u = await seedUser(proxied, 'Agent');
      const via = (remote: string, xff: string) =>
        api(proxied, 'POST', '/api/auth/login', {
          body: { email: u.email, password: TEST_PASSWORD },
          ip: remote,
          headers: { 'x-forwarded-for': xff },
        });
      expect((await via('10.69.0.1', '198.51.100.7')).status).toBe(200);
      expect((await via('10.69.0.2', '198.51.100.8')).status).toBe(200);
      const ips = (
        await proxied.db.select({ ip: auditLogs.ip_address }).from(auditLogs).where(eq(auditLogs.action, 'login')).orderBy(auditLogs.log_id)
      ).map((r) => r.ip);
      expect(ips).toEqual(['198.51.100.7', '10.69.0.2']);
    } finally {
      await proxied.close();
    }
  });

  it('TRUST_PROXY takes false, a hop count or proxy addresses, and refuses true', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.5, 10.1.0.0/16,loopback,::1')).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback', '::1']);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY=true is no longer accepted/);
    expect(() => parseTrustProxy('proxy.local')).toThrow(/"proxy.local" is not an address or CIDR/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/not an address or CIDR/);
  });
});

describe('e-mail addresses are normalised and look-alikes refused (REST)', () => {
  it('a zero-width or Cyrillic look-alike of an existing e-mail is not a second account; case and width fold', async () => {
    const admin = await seedUser(env, 'Admin', { email: `boss-${Date.now()}@t.test` });
    const token = await login(env, admin.email);
    const create = (email: string) =>
      api(env, 'POST', '/api/users', {
        token,
        body: { email, password: 'Passw0rd-New', first_name: 'Look', last_name: 'Alike', role_id: 3 },
      });
    const zw = await create(`${admin.email}\u200b`);
    expect(zw.status).toBe(400);
    expect(zw.body.error).toBe('Email address contains invisible or control characters');
    const cyr = await create(admin.email.replace('o', '\u043e'));
    expect(cyr.status).toBe(400);
    expect(cyr.body.error).toBe('Email address mixes letters from different alphabets (for example Latin and Cyrillic)');
    expect((await create(`  ${admin.email.toUpperCase()} `)).status).toBe(409);
    const fresh = await create(' New.Person@Example.TEST ');
    expect(fresh.status).toBe(200);
    expect(fresh.body.email).toBe('new.person@example.test');
    // Sign-in takes the same spellings.
    expect((await restLogin(' NEW.PERSON@example.test', 'Passw0rd-New', '10.71.0.1')).status).toBe(200);
    expect((await restLogin(`${admin.email}\u200b`, TEST_PASSWORD, '10.71.0.1')).status).toBe(400);
  });
});
