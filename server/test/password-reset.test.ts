import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, passwordResetTokens, users } from '../src/db/schema/index.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { writeSettings } from '../src/core/settings.ts';
import { FORGOT_MIN_DURATION_MS, IP_LIMIT } from '../src/modules/auth/password-reset.service.ts';
import { api, callerFor, login, seedUser, tokenFor, trpcStatus, type TestEnv, type Roles, useTestEnv } from './helpers.ts';
import { outboxEmails, passwordLink } from './outbox.ts';

const t = useTestEnv({ PUBLIC_URL: 'https://licenses.example.com/' });
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

let ipSeq = 0;
/** A fresh client address, so the per-IP limit of one test does not leak into another. */
const nextIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
const NEW_PASSWORD = 'N3w-Secret-pass';

async function forgot(email: string, ip = nextIp()) {
  const started = Date.now();
  const res = await api(env, 'POST', '/api/auth/forgot-password', { body: { email }, ip });
  return { ...res, ms: Date.now() - started };
}

/** The newest password link e-mailed to the address (after the background sends have finished). */
async function latestLink(email: string) {
  await backgroundSettled();
  const mails = await outboxEmails(env.dir, email);
  const last = mails.at(-1);
  return last ? { mail: last, link: passwordLink(last.body), count: mails.length } : null;
}

const auditsOf = (action: string, userId: number) =>
  env.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.target_id, userId)))
    .orderBy(auditLogs.log_id);

describe('REST: forgot-password and reset-password', () => {
  it('answers known and unknown addresses identically, in the same minimum time; only the known one gets a link', async () => {
    const user = await seedUser(env, 'Agent', { first_name: 'Rita' });
    const known = await forgot(user.email.toUpperCase());
    const unknown = await forgot('nobody-here@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ success: true });
    expect(unknown.body).toEqual(known.body);
    expect(known.ms).toBeGreaterThanOrEqual(FORGOT_MIN_DURATION_MS - 5);
    expect(unknown.ms).toBeGreaterThanOrEqual(FORGOT_MIN_DURATION_MS - 5);

    const got = await latestLink(user.email);
    expect(got?.count).toBe(1);
    expect(got!.mail.headers.subject).toBe('Reset your Real Estate License Manager password');
    expect(got!.link!.url).toMatch(/^https:\/\/licenses\.example\.com\/reset-password\?token=/);
    expect(got!.mail.body).toContain('60 minutes');
    expect(await outboxEmails(env.dir, 'nobody-here@example.com')).toEqual([]);
    // Only the token's hash is stored.
    const stored = await env.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, user.user_id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(got!.link!.token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]).toMatchObject({ purpose: 'reset', used_at: null });
    expect(Date.parse(stored[0]!.expires_at) - Date.parse(stored[0]!.created_at)).toBe(60 * 60_000);
    expect(await auditsOf('password_reset_requested', user.user_id)).toHaveLength(1);
  });

  it('the link works once: new password, old sessions 401, lockout cleared, audited; then 400', async () => {
    const user = await seedUser(env, 'Broker');
    const oldToken = await login(env, user.email);
    await env.db.transaction((tx) =>
      tx
        .update(users)
        .set({ failed_login_attempts: 3, locked_until: new Date(Date.now() + 3_600_000).toISOString() })
        .where(eq(users.user_id, user.user_id)),
    );
    await forgot(user.email);
    const { token } = (await latestLink(user.email))!.link!;

    const weak = await api(env, 'POST', '/api/auth/reset-password', { body: { token, newPassword: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toMatch(/Password must be at least 8 characters/);

    const ok = await api(env, 'POST', '/api/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect((await api(env, 'GET', '/api/auth/me', { token: oldToken })).status).toBe(401);
    const row = (await env.db.select().from(users).where(eq(users.user_id, user.user_id)))[0]!;
    expect(row).toMatchObject({ failed_login_attempts: 0, locked_until: null });
    await login(env, user.email, NEW_PASSWORD);
    expect((await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(401);
    const audit = await auditsOf('password_reset', user.user_id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.new_values!)).toMatchObject({ purpose: 'reset', sessions_revoked: 1 });

    const again = await api(env, 'POST', '/api/auth/reset-password', { body: { token, newPassword: 'An0ther-password' } });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('This password link is invalid, expired or already used. Ask for a new one.');
  });

  it("a reset lifts the strangers' lock: the owner signs in from a new source with the new password", async () => {
    const user = await seedUser(env, 'Agent');
    const stranger = nextIp();
    for (let i = 0; i < 5; i++) {
      await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: 'Wrong-passw0rd' }, ip: stranger });
    }
    const locked = await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: user.password }, ip: nextIp() });
    expect(locked.status).toBe(429);

    await forgot(user.email);
    const { token } = (await latestLink(user.email))!.link!;
    expect((await api(env, 'POST', '/api/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } })).status).toBe(200);
    const after = await api(env, 'POST', '/api/auth/login', { body: { email: user.email, password: NEW_PASSWORD }, ip: nextIp() });
    expect(after.status).toBe(200);
  });

  it('a forged, expired or superseded token answers 400 with the same clear message', async () => {
    const message = 'This password link is invalid, expired or already used. Ask for a new one.';
    const forged = await api(env, 'POST', '/api/auth/reset-password', { body: { token: 'x'.repeat(43), newPassword: NEW_PASSWORD } });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe(message);
    const missing = await api(env, 'POST', '/api/auth/reset-password', { body: { newPassword: NEW_PASSWORD } });
    expect(missing.status).toBe(400);

    const user = await seedUser(env, 'Agent');
    await forgot(user.email);
    const first = (await latestLink(user.email))!.link!.token;
    await forgot(user.email);
    const second = (await latestLink(user.email))!.link!.token;
    expect(second).not.toBe(first);
    const superseded = await api(env, 'POST', '/api/auth/reset-password', { body: { token: first, newPassword: NEW_PASSWORD } });
    expect(superseded.status).toBe(400);
    expect(superseded.body.error).toBe(message);

    await env.db.transaction((tx) =>
      tx
        .update(passwordResetTokens)
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(passwordResetTokens.user_id, user.user_id)),
    );
    const expired = await api(env, 'POST', '/api/auth/reset-password', { body: { token: second, newPassword: NEW_PASSWORD } });
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe(message);
  });

  it('per account: at most 3 e-mails an hour, silently; per IP: 429 after the limit, whatever the address', async () => {
    const user = await seedUser(env, 'Agent');
    for (let i = 0; i < 5; i++) expect((await forgot(user.email)).body).toEqual({ success: true });
    expect((await latestLink(user.email))!.count).toBe(3);

    const ip = nextIp();
    for (let i = 0; i < IP_LIMIT.max; i++) expect((await forgot(`someone${i}@example.com`, ip)).status).toBe(200);
    const knownBlocked = await forgot(roles.agent.email, ip);
    const unknownBlocked = await forgot('ghost@example.com', ip);
    expect(knownBlocked.status).toBe(429);
    expect(unknownBlocked.status).toBe(429);
    expect(unknownBlocked.body.error).toBe(knownBlocked.body.error);
    expect(knownBlocked.headers['retry-after']).toBeDefined();
  });

  it('an inactive account gets no link (same answer); a malformed address answers 400', async () => {
    const user = await seedUser(env, 'Agent', { is_active: false });
    expect((await forgot(user.email)).body).toEqual({ success: true });
    await backgroundSettled();
    expect(await outboxEmails(env.dir, user.email)).toEqual([]);
    const bad = await forgot('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid email address');
  });

  it('tRPC: the same procedures through the caller', async () => {
    const user = await seedUser(env, 'Agent');
    const anon = callerFor(env, null);
    expect(await anon.auth.forgotPassword({ email: user.email })).toEqual({ success: true });
    const { token } = (await latestLink(user.email))!.link!;
    expect(await trpcStatus(anon.auth.resetPassword({ token, newPassword: 'weak' }))).toBe(400);
    expect(await anon.auth.resetPassword({ token, newPassword: NEW_PASSWORD })).toEqual({ success: true });
    expect(await trpcStatus(anon.auth.resetPassword({ token, newPassword: NEW_PASSWORD }))).toBe(400);
  });
});

describe('REST: the Admin sends a password reset link', () => {
  it('Admin: anyone; Broker: Agents of its brokerage (others 404); Agent and School 403; audited', async () => {
    const target = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const stranger = await seedUser(env, 'Agent');
    const path = (id: number) => `/api/users/${id}/send-reset-link`;
    const res = await api(env, 'POST', path(target.user_id), { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toMatch(/^Password reset link written to the outbox \(.*outbox\) – no mail server is configured$/);
    const got = await latestLink(target.email);
    expect(got!.mail.body).toContain('24 hours');
    expect((await api(env, 'POST', path(target.user_id), { token: roles.broker.token })).status).toBe(200);
    expect((await api(env, 'POST', path(stranger.user_id), { token: roles.broker.token })).status).toBe(404);
    expect((await api(env, 'POST', path(target.user_id), { token: roles.agent.token })).status).toBe(403);
    expect((await api(env, 'POST', path(target.user_id), { token: roles.school.token })).status).toBe(403);
    expect((await api(env, 'POST', path(999999), { token: roles.admin.token })).status).toBe(404);
    const audits = await auditsOf('password_link_issued', target.user_id);
    expect(audits).toHaveLength(2);
    expect(audits[0]!.user_id).toBe(roles.admin.user_id);
    // The link works (and the user's current password kept working until then).
    await login(env, target.email);
    const ok = await api(env, 'POST', '/api/auth/reset-password', { body: { token: got!.link!.token, newPassword: NEW_PASSWORD } });
    expect(ok.status).toBe(400); // superseded by the Broker's link, sent after
    const latest = (await latestLink(target.email))!.link!.token;
    expect((await api(env, 'POST', '/api/auth/reset-password', { body: { token: latest, newPassword: NEW_PASSWORD } })).status).toBe(200);
  });
});

describe('REST: creating a user sends the welcome e-mail', () => {
  it('to the new user: sign-in address and a 7-day link to choose a password, never the password', async () => {
    const email = `welcome-${Date.now()}@example.com`;
    const password = 'Initial-Passw0rd-Secret';
    const res = await api(env, 'POST', '/api/users', {
      token: roles.admin.token,
      body: { email, password, first_name: 'Wendy', last_name: 'Welcome', role_id: 3 },
    });
    expect(res.status).toBe(200);
    const got = await latestLink(email);
    expect(got?.count).toBe(1);
    expect(got!.mail.headers.subject).toBe('Welcome to Real Estate License Manager');
    expect(got!.mail.body).toContain('Hello Wendy Welcome,');
    expect(got!.mail.body).toContain(`Your sign-in address is ${email}.`);
    expect(got!.mail.body).toContain('7 days');
    expect(got!.mail.body).toContain('https://licenses.example.com/login');
    expect(got!.mail.body).not.toContain(password);
    const tokenRow = (await env.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, res.body.user_id)))[0]!;
    expect(tokenRow.purpose).toBe('welcome');
    expect(Date.parse(tokenRow.expires_at) - Date.parse(tokenRow.created_at)).toBe(7 * 24 * 3_600_000);
    const ok = await api(env, 'POST', '/api/auth/reset-password', { body: { token: got!.link!.token, newPassword: NEW_PASSWORD } });
    expect(ok.status).toBe(200);
    await login(env, email, NEW_PASSWORD);
  });

  it('an inactive new user gets no welcome e-mail; the e-mail goes even with e-mail notifications off', async () => {
    const inactive = `inactive-${Date.now()}@example.com`;
    await api(env, 'POST', '/api/users', {
      token: roles.admin.token,
      body: { email: inactive, password: 'Initial-Passw0rd', first_name: 'I', last_name: 'Nactive', role_id: 3, is_active: false },
    });
    await env.db.transaction((tx) => writeSettings(tx, { email_notifications_enabled: false }, null));
    try {
      const email = `quiet-${Date.now()}@example.com`;
      await api(env, 'POST', '/api/users', {
        token: roles.admin.token,
        body: { email, password: 'Initial-Passw0rd', first_name: 'Q', last_name: 'Uiet', role_id: 3 },
      });
      expect((await latestLink(email))?.count).toBe(1);
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { email_notifications_enabled: true }, null));
    }
    expect(await outboxEmails(env.dir, inactive)).toEqual([]);
  });
});

describe('REST: public settings', () => {
  it('anyone reads app_name, app_description and the support contacts, nothing else', async () => {
    await env.db.transaction((tx) => writeSettings(tx, { app_name: 'Acme Licensing', support_phone: '+1 555 0100' }, null));
    try {
      const res = await api(env, 'GET', '/api/settings/public');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        app_name: 'Acme Licensing',
        app_description: expect.any(String),
        support_email: 'support@example.com',
        support_phone: '+1 555 0100',
        date_format: 'MM/DD/YYYY',
        time_zone: expect.any(String),
        today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { app_name: 'Real Estate License Manager', support_phone: '' }, null));
    }
  });

  it('e-mails end with the footer: app name, description and support contacts', async () => {
    await env.db.transaction((tx) => writeSettings(tx, { support_phone: '+1 555 0199' }, null));
    try {
      const user = await seedUser(env, 'Agent');
      await forgot(user.email);
      const { mail } = (await latestLink(user.email))!;
      expect(mail.body).toMatch(
        /\n-- \nReal Estate License Manager\nTrack real estate licenses.*\nNeed help\? support@example\.com · \+1 555 0199/,
      );
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { support_phone: '' }, null));
    }
  });

  it('tokens of other users are not touched by a reset', async () => {
    const a = await seedUser(env, 'Agent');
    const b = await seedUser(env, 'Agent');
    const bToken = await tokenFor(env, b.user_id);
    await forgot(a.email);
    const { token } = (await latestLink(a.email))!.link!;
    expect((await api(env, 'POST', '/api/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } })).status).toBe(200);
    expect((await api(env, 'GET', '/api/auth/me', { token: bToken })).status).toBe(200);
  });
});
