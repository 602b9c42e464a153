/**
 * Sign-in that an attacker cannot turn against its users (docs/security.md "Sign-in"): attempts are
 * counted before the password check, strangers are locked out while known sources keep signing in,
 * and a locked, unknown or wrong answer looks the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLogs, loginCounters } from '../src/db/schema/index.ts';
import { passwordStats } from '../src/core/passwords.ts';
import { parseTrustProxy } from '../src/config.ts';
import { api, createTestEnv, login, seedUser, TEST_PASSWORD, type TestEnv } from './helpers.ts';
import { solvedChallenge } from './login-challenge.ts';
import { PROOF_BASE_TRIES, PROOF_MAX_ATTEMPTS, PROOF_MAX_TRIES, proofAttemptsKey, triesFor } from '../src/modules/auth/login-proof.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

const MAX = 5; // settings.max_login_attempts by default
const WRONG = 'Wrong-passw0rd';

const restLogin = (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  api(env, 'POST', '/api/auth/login', { body: { email, password }, ip, headers });

/**
 * Sign-ins as the web app sends them, all at once: POST /trpc/auth.login each (auth calls are not batched:
 * docs/security.md "Bounded work per request"). `res` is the first call's answer.
 */
async function trpcBatch(calls: Array<{ email: string; password: string }>, ip: string, cookie?: string) {
  const answers = await Promise.all(
    calls.map((call) =>
      env.app.inject({
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        remoteAddress: ip,
        payload: JSON.stringify(call),
      }),
    ),
  );
  const items = answers.map((a) => JSON.parse(a.body) as { result?: unknown; error?: { message: string; data: { httpStatus: number } } });
  return { res: answers[0]!, statuses: items.map((i) => (i.error ? i.error.data.httpStatus : 200)), items };
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
  it('tRPC: 33 concurrent sign-ins for one account check at most max_login_attempts passwords', async () => {
    const u = await seedUser(env, 'Agent');
    const calls = Array.from({ length: 33 }, () => ({ email: u.email, password: WRONG }));
    const before = passwordStats.verifications;
    const { statuses } = await trpcBatch(calls, '10.63.0.1');
    const checked = passwordStats.verifications - before;
    expect(checked).toBeLessThanOrEqual(MAX);
    expect(statuses.filter((s) => s === 200 || s === 401)).toHaveLength(checked);
    expect(statuses.filter((s) => s === 429)).toHaveLength(33 - checked);
    // The right password comes too late.
    expect((await trpcBatch([{ email: u.email, password: TEST_PASSWORD }], '10.63.0.1')).statuses).toEqual([429]);
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

describe('a new device while strangers have locked the account (issue #25 point 9): a solved challenge', () => {
  const lockOut = async (email: string) => {
    for (let i = 0; i < MAX; i++) await restLogin(email, WRONG, `10.90.${i}.1`);
    expect((await restLogin(email, WRONG, '10.90.9.1')).status).toBe(429);
  };
  const solvedLogin = (email: string, password: string, ip: string, solution: string) =>
    api(env, 'POST', '/api/auth/login', { body: { email, password, solution }, ip });

  it('the owner on a new device is refused, solves a challenge and signs in; the sign-in is audited with it', async () => {
    const owner = await seedUser(env, 'Agent');
    await lockOut(owner.email);
    const fresh = '10.91.0.1';
    expect((await restLogin(owner.email, TEST_PASSWORD, fresh)).status).toBe(429);
    const res = await solvedLogin(owner.email, TEST_PASSWORD, fresh, await solvedChallenge(env, owner.email));
    expect(res.status).toBe(200);
    const [entry] = (await env.db.select().from(auditLogs).where(eq(auditLogs.target_id, owner.user_id)))
      .filter((a) => a.action === 'login')
      .slice(-1);
    expect(JSON.parse(entry!.new_values!)).toMatchObject({ solved_challenge: true });
    // The strangers' lock stays for other strangers.
    expect((await restLogin(owner.email, WRONG, '10.91.0.2')).status).toBe(429);
  });

  it('a solution works once, for the e-mail it was asked for, and a wrong password with it is still wrong', async () => {
    const owner = await seedUser(env, 'Agent');
    const other = await seedUser(env, 'Agent');
    await lockOut(owner.email);
    const forOther = await solvedChallenge(env, other.email);
    expect((await solvedLogin(owner.email, TEST_PASSWORD, '10.92.0.1', forOther)).status).toBe(429);
    const solution = await solvedChallenge(env, owner.email);
    const wrong = await solvedLogin(owner.email, WRONG, '10.92.0.2', solution);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('Invalid email or password');
    // Used: the second attempt with it is one without a solution, refused by the lock.
    expect((await solvedLogin(owner.email, TEST_PASSWORD, '10.92.0.3', solution)).status).toBe(429);
    expect((await solvedLogin(owner.email, TEST_PASSWORD, '10.92.0.4', await solvedChallenge(env, owner.email))).status).toBe(200);
  });

  it('an unknown e-mail gets a challenge like a real one, and a solved attempt there answers the same 401', async () => {
    const res = await solvedLogin('nobody-pow@nowhere.test', WRONG, '10.93.0.1', await solvedChallenge(env, 'nobody-pow@nowhere.test'));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid email or password');
  });

  it('each failed solved attempt doubles the next challenge (capped), and past the limit only the e-mailed link is left', async () => {
    expect(triesFor(0)).toBe(PROOF_BASE_TRIES);
    expect(triesFor(1)).toBe(PROOF_BASE_TRIES * 2);
    expect(triesFor(50)).toBe(PROOF_MAX_TRIES);
    const owner = await seedUser(env, 'Agent');
    await lockOut(owner.email);
    await solvedLogin(owner.email, WRONG, '10.94.0.1', await solvedChallenge(env, owner.email));
    const [row] = await env.db
      .select()
      .from(loginCounters)
      .where(eq(loginCounters.key, proofAttemptsKey(owner.email)));
    expect(row!.count).toBe(1);
    // An attacker who kept solving: the account's solved attempts are used up.
    const solution = await solvedChallenge(env, owner.email);
    for (let i = 1; i < PROOF_MAX_ATTEMPTS; i++)
      await env.db.counters.hit([{ key: proofAttemptsKey(owner.email), max: PROOF_MAX_ATTEMPTS, windowMs: 30 * 60_000 }]);
    const refused = await solvedLogin(owner.email, TEST_PASSWORD, '10.94.0.2', solution);
    expect(refused.status).toBe(429);
  });

  it('a source known for another account is a stranger for this one (locked out like any)', async () => {
    const colleague = await seedUser(env, 'Agent');
    const target = await seedUser(env, 'Agent');
    expect((await restLogin(colleague.email, TEST_PASSWORD, '10.96.0.1')).status).toBe(200);
    await lockOut(target.email);
    // The address is known (for the colleague): it passes the gate, but for the target it is a stranger.
    expect((await restLogin(target.email, TEST_PASSWORD, '10.96.0.1')).status).toBe(429);
  });

  it('over tRPC too: the login input takes the solution', async () => {
    const owner = await seedUser(env, 'Agent');
    await lockOut(owner.email);
    const res = await env.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json' },
      remoteAddress: '10.95.0.1',
      payload: JSON.stringify({ email: owner.email, password: TEST_PASSWORD, solution: await solvedChallenge(env, owner.email) }),
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('lm_device=');
  });
});
