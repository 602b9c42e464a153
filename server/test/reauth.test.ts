/**
 * Re-authentication and stolen tokens (docs/security.md "Re-authentication and stolen tokens"): the current
 * password is counted per user, checked at low priority and one at a time per session; a new sign-in e-mail needs
 * it, is confirmed from the new address and can be undone from the old one; a password change or reset expires the
 * open password links and ends the other sessions, and offers a new calendar link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PROFILE_STRINGS } from '@lm/shared';
import { auditLogs, loginCounters, passwordResetTokens, users } from '../src/db/schema/index.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { CHECK_IN_PROGRESS_MESSAGE, oneCheckAtATime, passwordStats } from '../src/core/passwords.ts';
import { toErrorBody } from '../src/base/errors.ts';
import { issueLinkToken, LINK_VALIDITY_MS } from '../src/modules/auth/password-reset.service.ts';
import { reauthKey } from '../src/modules/auth/reauth.ts';
import { api, callerFor, createTestEnv, login, seedUser, TEST_PASSWORD, tokenFor, trpcStatus, type TestEnv } from './helpers.ts';
import { outboxEmails, passwordLink } from './outbox.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await backgroundSettled();
  await env.close();
});

let seq = 0;
const nextIp = () => `10.61.${Math.floor(++seq / 250)}.${(seq % 250) + 1}`;
const unique = () => `${Date.now()}${++seq}`;
const WRONG = 'Wrong-Passw0rd';
const NEW_PASSWORD = 'N3w-Reauth-pass';

const auditsOf = (action: string, userId: number) =>
  env.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.target_id, userId)))
    .orderBy(auditLogs.log_id);
const changePassword = (token: string, currentPassword: string, newPassword = NEW_PASSWORD) =>
  api(env, 'POST', '/api/auth/change-password', { token, body: { currentPassword, newPassword } });
const emailOf = async (userId: number) =>
  (await env.db.select({ email: users.email }).from(users).where(eq(users.user_id, userId)))[0]!.email;

/** The newest link of a kind e-mailed to an address (after the background sends). */
async function mailedLink(to: string, kind: 'confirm' | 'undo'): Promise<string | null> {
  await backgroundSettled();
  const m = new RegExp(`/email-change/${kind}\\?token=([A-Za-z0-9_%-]+)`).exec((await outboxEmails(env.dir, to)).at(-1)?.body ?? '');
  return m ? decodeURIComponent(m[1]!) : null;
}
async function mailedPasswordLink(to: string): Promise<string | null> {
  await backgroundSettled();
  return passwordLink((await outboxEmails(env.dir, to)).at(-1)?.body ?? '')?.token ?? null;
}
const profileBody = (u: { first_name?: string; last_name?: string; email?: string }, email: string, currentPassword?: string) => ({
  first_name: u.first_name ?? 'Re',
  last_name: u.last_name ?? 'Auth',
  email,
  ...(currentPassword !== undefined ? { currentPassword } : {}),
});

describe('the current password is counted per user (change-password)', () => {
  it('five wrong passwords answer 400, the sixth locks: 429 with Retry-After for the lockout window, the right one too; all audited', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    const lowBefore = passwordStats.byPriority.low;
    for (let i = 1; i <= 5; i++) {
      const res = await changePassword(token, WRONG);
      expect(res.status, `attempt ${i}`).toBe(400);
      expect(res.body.error).toBe('Current password is incorrect');
    }
    // Every check ran at the hash queue's low priority.
    expect(passwordStats.byPriority.low - lowBefore).toBe(5);
    const locked = await changePassword(token, WRONG);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatch(
      /^Too many wrong passwords\. For your security, password checks on your account are paused for 30 minutes\.$/,
    );
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(29 * 60);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    const right = await changePassword(token, TEST_PASSWORD);
    expect(right.status).toBe(429);
    expect(passwordStats.byPriority.low - lowBefore).toBe(5);
    // The lock is the user's, not the session's: another session of the same user, and tRPC, are refused too.
    expect(
      await trpcStatus(callerFor(env, u.user_id).auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })),
    ).toBe(429);
    const failures = await auditsOf('reauth_failed', u.user_id);
    const reasons = failures.map((f) => JSON.parse(f.new_values!) as { reason: string; purpose: string });
    expect(reasons.filter((r) => r.reason === 'wrong password')).toHaveLength(5);
    expect(reasons.filter((r) => r.reason === 'too many attempts; locked')).toHaveLength(1);
    expect(reasons.every((r) => r.purpose === 'change_password')).toBe(true);
    expect(failures.every((f) => f.user_id === u.user_id)).toBe(true);
    // Keyed by the user id in db.counters.
    const [counter] = await env.db
      .select()
      .from(loginCounters)
      .where(eq(loginCounters.key, reauthKey(u.user_id)));
    expect(counter?.count).toBeGreaterThan(5);
    // The user's sign-in is untouched (its own counters), and so is another user's change.
    await login(env, u.email);
    const other = await seedUser(env, 'Agent');
    expect((await changePassword(await tokenFor(env, other.user_id), TEST_PASSWORD)).status).toBe(200);
    // Once the window has passed, the right password works.
    await env.db.transaction((tx) =>
      tx
        .update(loginCounters)
        .set({ reset_at: Date.now() - 1 })
        .where(eq(loginCounters.key, reauthKey(u.user_id))),
    );
    expect((await changePassword(token, TEST_PASSWORD)).status).toBe(200);
  });

  it('a right password clears the count; a profile e-mail change counts on the same lock', async () => {
    const u = await seedUser(env, 'Broker');
    const token = await tokenFor(env, u.user_id);
    for (let i = 0; i < 4; i++) expect((await changePassword(token, WRONG)).status).toBe(400);
    // A wrong password on the e-mail change is the fifth attempt, then the lock holds for both.
    const viaProfile = await api(env, 'PUT', '/api/users/me/profile', { token, body: profileBody(u, `x.${unique()}@t.example`, WRONG) });
    expect(viaProfile.status).toBe(400);
    expect(viaProfile.body.error).toBe('Current password is incorrect');
    const lockedProfile = await api(env, 'PUT', '/api/users/me/profile', {
      token,
      body: profileBody(u, `x.${unique()}@t.example`, TEST_PASSWORD),
    });
    expect(lockedProfile.status).toBe(429);
    expect(lockedProfile.headers['retry-after']).toBeDefined();
    const v = await seedUser(env, 'School');
    const tv = await tokenFor(env, v.user_id);
    for (let i = 0; i < 4; i++) expect((await changePassword(tv, WRONG)).status).toBe(400);
    expect((await changePassword(tv, TEST_PASSWORD)).status).toBe(200);
    // Cleared: five more wrong ones before the lock.
    for (let i = 0; i < 5; i++) expect((await changePassword(tv, WRONG)).status).toBe(400);
    expect((await changePassword(tv, WRONG)).status).toBe(429);
  });

  it('one check at a time per session: a concurrent second check of the same session is refused at once, uncounted', async () => {
    const u = await seedUser(env, 'Agent');
    // The core rule: the second call of a key, made while the first runs, is refused before its check starts.
    let started = 0;
    const check = () => {
      started++;
      return new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 10));
    };
    const first = oneCheckAtATime('session:test', check);
    await expect(oneCheckAtATime('session:test', check)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(started).toBe(1);
    expect(await first).toBe(true);
    // Free again once the first has ended.
    expect(await oneCheckAtATime('session:test', check)).toBe(true);
    // Through the API: of concurrent wrong checks from one session, each is either checked (400, counted, audited)
    // or refused as in progress (429, not counted).
    const token = await tokenFor(env, u.user_id);
    const results = await Promise.all([1, 2, 3].map(() => changePassword(token, WRONG)));
    const checked = results.filter((r) => r.status === 400).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 400)) {
      expect(r.status).toBe(429);
      expect(r.body.error).toBe(CHECK_IN_PROGRESS_MESSAGE);
    }
    expect(await auditsOf('reauth_failed', u.user_id)).toHaveLength(checked);
    const [counter] = await env.db
      .select()
      .from(loginCounters)
      .where(eq(loginCounters.key, reauthKey(u.user_id)));
    expect(counter!.count).toBe(checked);
  });
});

describe('a password change or reset ends what a thief may hold', () => {
  it('expires every open reset, welcome and sign-in link; ends the other sessions (not this one); offers the calendar link', async () => {
    const u = await seedUser(env, 'Agent');
    const current = await login(env, u.email);
    const other = await login(env, u.email);
    expect((await api(env, 'POST', '/api/auth/forgot-password', { body: { email: u.email }, ip: nextIp() })).status).toBe(200);
    const resetToken = await mailedPasswordLink(u.email);
    expect(resetToken).not.toBeNull();
    // A welcome link written beside it (as a racing request might): both expire with the change.
    await env.db.transaction((tx) =>
      tx.insert(passwordResetTokens).values({
        user_id: u.user_id,
        token_hash: `welcome-${unique()}`,
        purpose: 'welcome',
        expires_at: new Date(Date.now() + LINK_VALIDITY_MS.welcome).toISOString(),
        created_at: new Date().toISOString(),
      }),
    );
    const feed = (await api(env, 'POST', '/api/calendar/token', { token: current })).body.url as string;
    const feedPath = new URL(feed).pathname;

    const changed = await changePassword(current, TEST_PASSWORD);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true, other_sessions_ended: 1, calendar_feed_active: true });
    expect((await api(env, 'GET', '/api/auth/me', { token: current })).status).toBe(200);
    expect((await api(env, 'GET', '/api/auth/me', { token: other })).status).toBe(401);
    // The reset link issued before the change no longer works.
    const late = await api(env, 'POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword: 'Th1ef-Passw0rd' } });
    expect(late.status).toBe(400);
    const links = await env.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, u.user_id));
    expect(links.every((l) => l.used_at !== null || Date.parse(l.expires_at) <= Date.now())).toBe(true);
    const [audit] = await auditsOf('change_password', u.user_id);
    expect(JSON.parse(audit!.new_values!)).toMatchObject({ other_sessions_revoked: 1, links_expired: 2 });

    // "Get a new calendar link": the old URL answers 404, the new one the feed.
    expect((await api(env, 'GET', feedPath)).status).toBe(200);
    const rotated = (await api(env, 'POST', '/api/calendar/token', { token: current })).body.url as string;
    expect((await api(env, 'GET', feedPath)).status).toBe(404);
    expect((await api(env, 'GET', new URL(rotated).pathname)).status).toBe(200);
  });

  it('a reset expires the other open password links of the user, not the undo link of an e-mail change', async () => {
    const u = await seedUser(env, 'School');
    const reset = await env.db.transaction((tx) => issueLinkToken(tx, u.user_id, 'reset', LINK_VALIDITY_MS.forgot, null));
    const undo = await env.db.transaction((tx) => issueLinkToken(tx, u.user_id, 'email_undo', LINK_VALIDITY_MS.admin, null, u.email));
    // A sign-in link that another request wrote after the reset link was issued.
    await env.db.transaction((tx) =>
      tx.insert(passwordResetTokens).values({
        user_id: u.user_id,
        token_hash: `racing-${unique()}`,
        purpose: 'sign_in',
        expires_at: new Date(Date.now() + LINK_VALIDITY_MS.forgot).toISOString(),
        created_at: new Date().toISOString(),
      }),
    );
    expect((await api(env, 'POST', '/api/auth/reset-password', { body: { token: reset, newPassword: NEW_PASSWORD } })).status).toBe(200);
    const rows = await env.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, u.user_id));
    const open = rows.filter((l) => l.used_at === null && Date.parse(l.expires_at) > Date.now());
    // Only the undo link stays: it is the old address's way back from a takeover (below).
    expect(open.map((l) => l.purpose)).toEqual(['email_undo']);
    expect(undo).toBeTruthy();
    const [audit] = await auditsOf('password_reset', u.user_id);
    expect(JSON.parse(audit!.new_values!)).toMatchObject({ links_expired: 1, sessions_revoked: 0 });
  });
});

describe('changing the sign-in e-mail', () => {
  it('without the current password: 400 on REST and tRPC, nothing changes; other fields alone need none', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await tokenFor(env, u.user_id);
    const res = await api(env, 'PUT', '/api/users/me/profile', { token, body: profileBody(u, `new.${unique()}@t.example`) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(PROFILE_STRINGS.emailNeedsPassword);
    expect(res.body.issues).toEqual([{ path: 'currentPassword', message: PROFILE_STRINGS.emailNeedsPassword }]);
    const viaTrpc = callerFor(env, u.user_id).users.updateProfile(profileBody(u, `new.${unique()}@t.example`));
    const err = await viaTrpc.catch((e: unknown) => e);
    expect(toErrorBody(err)).toMatchObject({ status: 400, body: { error: PROFILE_STRINGS.emailNeedsPassword } });
    expect(await emailOf(u.user_id)).toBe(u.email);
    const same = await api(env, 'PUT', '/api/users/me/profile', {
      token,
      body: profileBody({ first_name: 'Kept' }, u.email.toUpperCase()),
    });
    expect(same.status).toBe(200);
    expect(same.body.first_name).toBe('Kept');
  });

  it('a taken address answers exactly as a free one; only the free one gets a confirmation link', async () => {
    const a = await seedUser(env, 'Agent');
    const b = await seedUser(env, 'Agent');
    const taken = (await seedUser(env, 'School')).email;
    const free = `free.${unique()}@t.example`;
    const ta = await tokenFor(env, a.user_id);
    const tb = await tokenFor(env, b.user_id);
    const toTaken = await api(env, 'PUT', '/api/users/me/profile', { token: ta, body: profileBody(a, taken, TEST_PASSWORD) });
    const toFree = await api(env, 'PUT', '/api/users/me/profile', { token: tb, body: profileBody(b, free, TEST_PASSWORD) });
    expect(toTaken.status).toBe(200);
    expect(toFree.status).toBe(200);
    // Each answer is the caller as it is (its e-mail unchanged), the same as /auth/me: nothing tells the two apart.
    expect(toTaken.body).toEqual((await api(env, 'GET', '/api/auth/me', { token: ta })).body);
    expect(toFree.body).toEqual((await api(env, 'GET', '/api/auth/me', { token: tb })).body);
    expect(toTaken.body.email).toBe(a.email);
    expect(toFree.body.email).toBe(b.email);
    expect(await mailedLink(free, 'confirm')).not.toBeNull();
    expect(await outboxEmails(env.dir, taken)).toEqual([]);
    const requested = (await auditsOf('email_change_requested', a.user_id)).map((r) => JSON.parse(r.new_values!));
    expect(requested).toEqual([{ email: taken, not_sent: 'address in use' }]);
  });

  it('confirmed from the new address, audited; the old address gets a one-time undo link that takes the account back', async () => {
    const u = await seedUser(env, 'Broker');
    const oldEmail = u.email;
    const newEmail = `thief.${unique()}@t.example`;
    const thief = await login(env, oldEmail);
    const owner = await login(env, oldEmail);
    const feed = new URL((await api(env, 'POST', '/api/calendar/token', { token: owner })).body.url as string).pathname;

    // The thief knows the password (re-authentication asks for it), changes the e-mail and confirms it.
    expect((await api(env, 'PUT', '/api/users/me/profile', { token: thief, body: profileBody(u, newEmail, TEST_PASSWORD) })).status).toBe(
      200,
    );
    const confirm = await mailedLink(newEmail, 'confirm');
    const confirmed = await api(env, 'POST', '/api/users/email-change/confirm', { body: { token: confirm } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ success: true, message: `Your sign-in email is now ${newEmail}.` });
    expect(await emailOf(u.user_id)).toBe(newEmail);
    expect((await api(env, 'POST', '/api/users/email-change/confirm', { body: { token: confirm } })).status).toBe(400);
    const [changed] = await auditsOf('email_changed', u.user_id);
    expect(JSON.parse(changed!.old_values!)).toEqual({ email: oldEmail });
    expect(JSON.parse(changed!.new_values!)).toMatchObject({ email: newEmail });

    // The old address is told, with the undo link (7 days).
    await backgroundSettled();
    const notice = (await outboxEmails(env.dir, oldEmail)).at(-1)!;
    expect(notice.subject).toMatch(/your sign-in email was changed/);
    expect(notice.body).toContain(newEmail);
    expect(notice.body).toContain('valid for 7 days, once');
    const undo = await mailedLink(oldEmail, 'undo');
    expect(undo).not.toBeNull();

    // The thief makes it "permanent" with Forgot password? on the new address: the undo link still works.
    expect((await api(env, 'POST', '/api/auth/forgot-password', { body: { email: newEmail }, ip: nextIp() })).status).toBe(200);
    const thiefReset = await mailedPasswordLink(newEmail);
    expect(
      (await api(env, 'POST', '/api/auth/reset-password', { body: { token: thiefReset, newPassword: 'Th1ef-Passw0rd' } })).status,
    ).toBe(200);
    const thiefAgain = await login(env, newEmail, 'Th1ef-Passw0rd');

    const undone = await api(env, 'POST', '/api/users/email-change/undo', { body: { token: undo } });
    expect(undone.status).toBe(200);
    expect(undone.body.message).toContain(`Your sign-in email is ${oldEmail} again`);
    expect(await emailOf(u.user_id)).toBe(oldEmail);
    // Every session ends; neither the thief's password nor the original one signs in; the calendar link is dead.
    for (const t of [thief, owner, thiefAgain]) expect((await api(env, 'GET', '/api/auth/me', { token: t })).status).toBe(401);
    for (const [email, password] of [
      [oldEmail, 'Th1ef-Passw0rd'],
      [oldEmail, TEST_PASSWORD],
      [newEmail, 'Th1ef-Passw0rd'],
    ] as const) {
      expect((await api(env, 'POST', '/api/auth/login', { body: { email, password }, ip: nextIp() })).status).toBe(401);
    }
    expect((await api(env, 'GET', feed)).status).toBe(404);
    expect((await api(env, 'POST', '/api/users/email-change/undo', { body: { token: undo } })).status).toBe(400);
    const [entry] = await auditsOf('email_change_undone', u.user_id);
    // The thief's reset had ended the first two sessions; the undo ends the one the thief opened after it.
    expect(JSON.parse(entry!.new_values!)).toMatchObject({ email: oldEmail, sessions_revoked: 1, calendar_feed_stopped: true });

    // The old address gets a link to choose a new password; with it the owner is back in.
    const ownerReset = await mailedPasswordLink(oldEmail);
    expect(ownerReset).not.toBeNull();
    expect((await api(env, 'POST', '/api/auth/reset-password', { body: { token: ownerReset, newPassword: NEW_PASSWORD } })).status).toBe(
      200,
    );
    await login(env, oldEmail, NEW_PASSWORD);
  });

  it('an undo link whose address was taken meanwhile is refused with a clear message and changes nothing; bad tokens are 400', async () => {
    const u = await seedUser(env, 'Agent');
    const newEmail = `moved.${unique()}@t.example`;
    const undo = await env.db.transaction(async (tx) => {
      await tx.update(users).set({ email: newEmail }).where(eq(users.user_id, u.user_id));
      return issueLinkToken(tx, u.user_id, 'email_undo', LINK_VALIDITY_MS.admin, null, u.email);
    });
    const squatter = await seedUser(env, 'School', { email: u.email });
    expect(squatter.email).toBe(u.email);
    const res = await api(env, 'POST', '/api/users/email-change/undo', { body: { token: undo } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/now belongs to another account/);
    expect(await emailOf(u.user_id)).toBe(newEmail);
    for (const token of ['', 'x'.repeat(43), 'x'.repeat(201)]) {
      expect((await api(env, 'POST', '/api/users/email-change/undo', { body: { token } })).status).toBe(400);
      expect((await api(env, 'POST', '/api/users/email-change/confirm', { body: { token } })).status).toBe(400);
    }
    // A confirmation token is no undo token, nor a password link.
    const confirm = await env.db.transaction((tx) =>
      issueLinkToken(tx, u.user_id, 'email_change', LINK_VALIDITY_MS.admin, null, `other.${unique()}@t.example`),
    );
    expect((await api(env, 'POST', '/api/users/email-change/undo', { body: { token: confirm } })).status).toBe(400);
    expect((await api(env, 'POST', '/api/auth/reset-password', { body: { token: confirm, newPassword: NEW_PASSWORD } })).status).toBe(400);
  });
});
