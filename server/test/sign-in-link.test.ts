/**
 * E-mailed one-time sign-in links (docs/security.md "Sign-in"): the owner can always sign in from a new device,
 * whatever strangers did to the account's counters; the request answers the same for every address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SIGN_IN_LINK_INVALID } from '@lm/shared';
import { auditLogs } from '../src/db/schema/index.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { api, createTestEnv, seedUser, TEST_PASSWORD, type TestEnv } from './helpers.ts';
import { outboxEmails } from './outbox.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

let ipSeq = 0;
const nextIp = () => `10.120.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const ask = (email: string, ip = nextIp()) => api(env, 'POST', '/api/auth/sign-in-link', { body: { email }, ip });
const consume = (token: string, ip = nextIp()) => api(env, 'POST', '/api/auth/sign-in-link/consume', { body: { token }, ip });

/** The newest sign-in link e-mailed to the address. */
async function latestLink(email: string) {
  await backgroundSettled();
  const mails = await outboxEmails(env.dir, email);
  const m = /(https?:\/\/\S+\/sign-in-link\?token=([A-Za-z0-9_%-]+))/.exec(mails.at(-1)?.body ?? '');
  return m ? { url: m[1]!, token: decodeURIComponent(m[2]!), count: mails.length, subject: mails.at(-1)!.subject } : null;
}

describe('sign-in links', () => {
  it('answers the same for an account and for none, and the link signs in once (device cookie, audited as a link sign-in)', async () => {
    const user = await seedUser(env, 'Agent');
    const known = await ask(user.email);
    const unknown = await ask('nobody-link@nowhere.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(await outboxEmails(env.dir, 'nobody-link@nowhere.test')).toEqual([]);

    const link = await latestLink(user.email);
    expect(link?.url).toMatch(/\/sign-in-link\?token=/);
    expect(link!.subject).toMatch(/sign-in link/);

    const res = await env.app.inject({
      method: 'POST',
      url: '/trpc/auth.consumeSignInLink',
      headers: { 'content-type': 'application/json' },
      remoteAddress: nextIp(),
      payload: JSON.stringify({ token: link!.token }),
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^lm_device=/);
    const token = (JSON.parse(res.body) as { result: { data: { token: string } } }).result.data.token;
    expect((await api(env, 'GET', '/api/auth/me', { token })).body.email).toBe(user.email);
    const logins = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'login'), eq(auditLogs.target_id, user.user_id)));
    expect(JSON.parse(logins.at(-1)!.new_values!)).toMatchObject({ method: 'link' });

    const again = await consume(link!.token);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(SIGN_IN_LINK_INVALID);
  });

  it('signs the owner in while strangers have locked the account, and lifts that lock', async () => {
    const user = await seedUser(env, 'Broker');
    for (let i = 0; i < 6; i++)
      await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: 'Wrong-passw0rd' }, ip: nextIp() });
    const fresh = nextIp();
    expect((await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: TEST_PASSWORD }, ip: fresh })).status).toBe(
      429,
    );
    await ask(user.email);
    const link = await latestLink(user.email);
    expect((await consume(link!.token, fresh)).status).toBe(200);
    // The address is now known for the account, and the strangers' lock is gone.
    expect((await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: TEST_PASSWORD }, ip: nextIp() })).status).toBe(
      200,
    );
  });

  it('a newer link replaces the older one; a password link is left alone; a reset token is not a sign-in link', async () => {
    const user = await seedUser(env, 'Agent');
    await api(env, 'POST', '/api/auth/forgot-password', { body: { email: user.email }, ip: nextIp() });
    await backgroundSettled();
    const resetMail = (await outboxEmails(env.dir, user.email)).at(-1)!;
    const resetToken = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(resetMail.body)![1]!);
    await ask(user.email);
    const first = await latestLink(user.email);
    await ask(user.email);
    const second = await latestLink(user.email);
    expect(second!.token).not.toBe(first!.token);
    expect((await consume(first!.token)).status).toBe(400);
    expect((await consume(resetToken)).status).toBe(400);
    expect((await consume(second!.token)).status).toBe(200);
    // The password link still works.
    expect(
      (await api(env, 'POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword: 'N3w-Secret-pass' }, ip: nextIp() }))
        .status,
    ).toBe(200);
  });

  it('per account at most 3 links an hour (silently the same answer), per address 429 past the limit', async () => {
    const user = await seedUser(env, 'Agent');
    for (let i = 0; i < 5; i++) expect((await ask(user.email)).status).toBe(200);
    await backgroundSettled();
    expect(await outboxEmails(env.dir, user.email)).toHaveLength(3);
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await ask(`flood${i}@nowhere.test`, ip)).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('an inactive account gets no link; a bad token is a 400 with a clear message', async () => {
    const user = await seedUser(env, 'Agent', { is_active: false });
    expect((await ask(user.email)).status).toBe(200);
    await backgroundSettled();
    expect(await outboxEmails(env.dir, user.email)).toEqual([]);
    const bad = await consume('not-a-real-token');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(SIGN_IN_LINK_INVALID);
    expect((await consume('')).status).toBe(400);
  });
});
