import { and, eq, sql } from 'drizzle-orm';
import {
  passwordProblems,
  type ChangePasswordInput,
  type ChangePasswordOutput,
  type LoginInput,
  type LoginOutput,
  type User,
} from '@lm/shared';
import { users } from '../../db/schema/index.ts';
import { essentialWrite } from '../../db/errors.ts';
import type { Context } from '../../core/context.ts';
import type { Tx } from '../../db/client.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { assertNotInMaintenance } from '../../core/access.ts';
import { anonymousActor, audit, userActor } from '../../core/audit.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../base/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword, type HashPriority } from '../../core/passwords.ts';
import { getSettings } from '../../core/settings.ts';
import { findUserByEmail, getPublicUser } from '../users/users.queries.ts';
import { accountLockKey, loginCounters, type CounterLimit } from './throttle.ts';
import { hashDevice, rememberSource, resolveSource } from '../../core/sources.ts';
import { createSession, revokeSession, revokeUserSessions } from '../../core/sessions.ts';
import { acceptSolution, PROOF_MAX_ATTEMPTS, proofAttemptsKey } from './login-proof.ts';
import { forgetKnownSources, noteAddressOverLimit, tooManyAttemptsMessage } from './login-gate.ts';
import { notifyUser, passwordChangedNotice } from '../notifications/notify.ts';
import { hasCalendarFeed } from '../notifications/calendar.service.ts';
import { assertCurrentPassword, CURRENT_PASSWORD_INCORRECT } from './reauth.ts';
import { expireOpenPasswordLinks } from './links.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/** Attempts per address (all accounts, unknown sources only) inside SOURCE_WINDOW_MS. */
export const SOURCE_MAX_ATTEMPTS = 10;
export const SOURCE_WINDOW_MS = 60_000;

/** One answer for every refused attempt: the same for known and unknown e-mails (docs/security.md). */
export function tooManyAttempts(retryAfterSeconds: number): AppError {
  return new AppError('TOO_MANY_REQUESTS', tooManyAttemptsMessage(retryAfterSeconds * 1000), {
    retryAfter: Math.max(1, retryAfterSeconds),
  });
}

/**
 * Sign-in (docs/security.md "Sign-in"). In order:
 * 1. The source: a device cookie or address that signed in to this account before is known.
 * 2. The attempt is counted, atomically and before any hashing, per (e-mail, source) and, for unknown
 *    sources, per e-mail and per address. Over any limit: 429 without hashing, alike for every e-mail.
 *    An unknown source with a solved challenge for this e-mail (login-proof.ts) is counted under the account's
 *    solved attempts instead, so the strangers' lock does not keep the owner's new device out.
 * 3. The password is verified (against a dummy hash for an unknown e-mail) in the hash queue, known
 *    sources first, then solved and not-yet-failing ones.
 * 4. Success clears the (e-mail, source) count, gives back the shared ones and remembers the source.
 * Every success and failure is audited; a lock is audited once, when it starts.
 */
export async function login(ctx: Context, input: LoginInput): Promise<LoginOutput> {
  // Sign-in may use the space reserve when the disk is full (docs/security.md "Faults").
  return essentialWrite(() => signIn(ctx, input));
}

async function signIn(ctx: Context, input: LoginInput): Promise<LoginOutput> {
  const email = input.email;
  const ip = ctx.ip ?? 'unknown';
  const settings = await getSettings(ctx.db);
  const counters = loginCounters(ctx.db);
  const now = Date.now();
  const user = (await findUserByEmail(ctx.db, email)) ?? null;
  const source = await resolveSource(ctx.db, user?.user_id ?? null, ctx.device?.token ?? null, ip);
  const accountWindow = settings.lockout_duration_minutes * 60_000;
  // A solution counts only for an unknown source (a known one has its own counter) and only once.
  const solved = !source.known && input.solution !== undefined && (await acceptSolution(ctx.db, ctx.config, email, input.solution));
  const limits: CounterLimit[] = solved
    ? [{ key: proofAttemptsKey(email), max: PROOF_MAX_ATTEMPTS, windowMs: accountWindow }]
    : [{ key: `account:${email}|${source.key}`, max: settings.max_login_attempts, windowMs: accountWindow }];
  if (!source.known && !solved) {
    limits.push(
      { key: accountLockKey(email), max: settings.max_login_attempts, windowMs: accountWindow },
      { key: `source:${ip}`, max: SOURCE_MAX_ATTEMPTS, windowMs: SOURCE_WINDOW_MS },
    );
  }
  const hits = await counters.hit(limits, now);
  const failureEntry = (reason: string, extra: Record<string, unknown> = {}) => ({
    action: 'login_failed',
    table: 'users',
    id: user?.user_id ?? null,
    new: { email, reason, ...extra },
  });
  // An attempt on an account names that account's holder as they are now (as the audit log always did);
  // one naming no account has no actor, and the e-mail tried stays in the entry's values.
  const failureActor = user ? userActor(user, ctx.ip) : anonymousActor(ctx.ip);
  const failure = (reason: string, extra: Record<string, unknown> = {}) =>
    ctx.db.transaction((tx) => audit(tx, failureActor, failureEntry(reason, extra)));

  const over = hits.filter((h) => h.over);
  if (over.length > 0) {
    // The gate refuses this address's next sign-ins without any work until its limit lapses (solved ones pass).
    const sourceOver = over.find((h) => h.key.startsWith('source:'));
    if (sourceOver && ctx.ip) noteAddressOverLimit(ctx.db, ctx.ip, sourceOver.resetAt);
    for (const h of over) {
      if (h.count !== h.max + 1) continue;
      const counter = h.key.startsWith('source:')
        ? 'address'
        : h.key.startsWith('proof:')
          ? 'account, solved challenges'
          : h.key.includes('|')
            ? 'account and source'
            : 'account, unknown sources';
      await failure('too many attempts; locked', { counter, until: new Date(h.resetAt).toISOString() });
    }
    throw tooManyAttempts(Math.ceil((Math.max(...over.map((h) => h.resetAt)) - now) / 1000));
  }

  const sourceHit = hits.find((h) => h.key.startsWith('source:'));
  // A solved attempt waits with the first attempts of new sources, ahead of sources already failing (the flood's).
  const priority: HashPriority = source.known ? 'high' : solved || (sourceHit?.count ?? 1) <= 1 ? 'normal' : 'low';
  let ok: boolean;
  try {
    ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password, priority);
  } catch (err) {
    // Refused by the busy hash queue: no password was checked, so the attempt does not count against the account;
    // it still counts against the stranger's address (a flood must reach its address limit, and then the gate).
    for (const h of hits) if (!h.key.startsWith('source:')) await counters.refund(h.key);
    throw err;
  }
  if (!user || !ok) {
    await failure(user ? 'wrong password' : 'unknown email', {
      attempts: hits[0]!.count,
      known_source: source.known,
      ...(solved ? { solved_challenge: true } : {}),
    });
    throw unauthorized(INVALID_CREDENTIALS);
  }

  // A solved success gives its attempt back: the account's failed solved attempts still set the next challenge's work.
  if (solved) await counters.refund(hits[0]!.key);
  else await counters.reset(hits[0]!.key);
  for (const h of hits.slice(1)) await counters.refund(h.key);

  const device = ctx.device ? ctx.device.issue() : null;
  // The account's state is read inside the transaction that opens the session, so a deactivation or
  // role change that commits first is honoured.
  const token = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ is_active: users.is_active, deleted_at: users.deleted_at, role_id: users.role_id })
      .from(users)
      .where(eq(users.user_id, user.user_id));
    if (!current || !current.is_active || current.deleted_at) {
      await audit(tx, failureActor, failureEntry('account inactive'));
      return null;
    }
    await assertNotInMaintenance(ctx, current);
    return openSession(tx, ctx, user, device, solved ? { method: 'password', solved_challenge: true } : {});
  });
  if (token === null) throw unauthorized('This account is inactive. Contact your administrator.');
  // Committed: the source may be newly known, so the gate asks the database again.
  forgetKnownSources(ctx.db);
  return { token, user: (await getPublicUser(ctx.db, user.user_id))! };
}

/**
 * The end of every sign-in (password, or a sign-in link: sign-in-link.service.ts), inside the caller's transaction once
 * it has checked the account is active: the user's sign-in figures, a new session, the source remembered (the device
 * cookie, or the address of an API client) and the `login` audit entry. Returns the session's token.
 */
export async function openSession(
  tx: Tx,
  ctx: Context,
  user: { user_id: number; email: string; first_name: string; last_name: string },
  device: string | null,
  auditNew: Record<string, unknown> = {},
): Promise<string> {
  await tx
    .update(users)
    .set({
      failed_login_attempts: 0,
      locked_until: null,
      last_login: new Date().toISOString(),
      login_count: sql`${users.login_count} + 1`,
    })
    .where(eq(users.user_id, user.user_id));
  const session = await createSession(tx, user.user_id, { ip: ctx.ip, userAgent: ctx.userAgent });
  // The web app is known by its device cookie; API clients (which may keep no cookies) by address.
  if (device) await rememberSource(tx, user.user_id, 'device', hashDevice(device));
  if (ctx.channel !== 'trpc' && ctx.ip) await rememberSource(tx, user.user_id, 'address', ctx.ip);
  await audit(tx, userActor(user, ctx.ip), { action: 'login', table: 'users', id: user.user_id, new: { email: user.email, ...auditNew } });
  return session.token;
}

export async function logout(ctx: AuthedContext): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    await revokeSession(tx, ctx.session.session_id);
    await audit(tx, ctx.actor, { action: 'logout', table: 'users', id: ctx.user.user_id });
  });
  return { success: true };
}

export async function me(ctx: AuthedContext): Promise<User> {
  const user = await getPublicUser(ctx.db, ctx.user.user_id);
  if (!user) throw notFound('User');
  return user;
}

/** Checks a new password against settings.password_min_length and the strength rule (400 on failure). */
export async function assertPasswordAcceptable(ctx: Pick<Context, 'db'>, password: string): Promise<void> {
  const problem = passwordProblems(password, (await getSettings(ctx.db)).password_min_length);
  if (problem) throw badRequest(problem, [{ path: 'password', message: problem }]);
}

/**
 * POST /auth/change-password (docs/security.md "Re-authentication and stolen tokens"): the new password's rules
 * first (no hash for a typo), then the current password through reauth.ts (counted per user, low priority, one at a
 * time per session), then one transaction: the new hash over the verified one, every open password link of the user
 * expired, the other sessions ended, the audit entry. The answer says how many sessions ended and whether the user
 * has a calendar link to rotate.
 */
export async function changePassword(ctx: AuthedContext, input: ChangePasswordInput): Promise<ChangePasswordOutput> {
  await assertPasswordAcceptable(ctx, input.newPassword);
  if (input.newPassword === input.currentPassword) throw badRequest('New password must be different from the current password');
  const verified = await assertCurrentPassword(ctx, input.currentPassword, 'change_password');
  const hash = await hashPassword(input.newPassword);
  const revoked = await ctx.db.transaction(async (tx) => {
    // Only over the password that was verified: if another change committed meanwhile, this one is refused.
    const changed = await tx
      .update(users)
      .set({ password_hash: hash, password_changed_at: new Date().toISOString() })
      .where(and(eq(users.user_id, ctx.user.user_id), eq(users.password_hash, verified)))
      .returning({ id: users.user_id });
    if (changed.length === 0) throw badRequest(CURRENT_PASSWORD_INCORRECT);
    const links = await expireOpenPasswordLinks(tx, ctx.user.user_id);
    const n = await revokeUserSessions(tx, ctx.user.user_id, ctx.session.session_id);
    await audit(tx, ctx.actor, {
      action: 'change_password',
      table: 'users',
      id: ctx.user.user_id,
      new: { other_sessions_revoked: n, links_expired: links },
    });
    await notifyUser(tx, passwordChangedNotice(ctx.user.user_id));
    return n;
  });
  return { success: true, other_sessions_ended: revoked, calendar_feed_active: await hasCalendarFeed(ctx.db, ctx.user.user_id) };
}
