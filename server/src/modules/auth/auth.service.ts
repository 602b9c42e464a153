import { and, eq, sql } from 'drizzle-orm';
import { passwordProblems, type ChangePasswordInput, type LoginInput, type LoginOutput, type User } from '@lm/shared';
import { users } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
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
import { notifyUser, passwordChangedNotice } from '../notifications/notify.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/** Attempts per address (all accounts, unknown sources only) inside SOURCE_WINDOW_MS. */
export const SOURCE_MAX_ATTEMPTS = 10;
export const SOURCE_WINDOW_MS = 60_000;

/** One answer for every refused attempt: the same for known and unknown e-mails (docs/security.md). */
export function tooManyAttempts(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    retryAfter: Math.max(1, retryAfterSeconds),
  });
}

/**
 * Sign-in (docs/security.md "Sign-in"). In order:
 * 1. The source: a device cookie or address that signed in to this account before is known.
 * 2. The attempt is counted, atomically and before any hashing, per (e-mail, source) and, for unknown
 *    sources, per e-mail and per address. Over any limit: 429 without hashing, alike for every e-mail.
 * 3. The password is verified (against a dummy hash for an unknown e-mail) in the hash queue, known
 *    and not-yet-failing sources first.
 * 4. Success clears the (e-mail, source) count, gives back the shared ones and remembers the source.
 * Every success and failure is audited; a lock is audited once, when it starts.
 */
export async function login(ctx: Context, input: LoginInput): Promise<LoginOutput> {
  const email = input.email;
  const ip = ctx.ip ?? 'unknown';
  const settings = await getSettings(ctx.db);
  const counters = loginCounters(ctx.db);
  const now = Date.now();
  const user = (await findUserByEmail(ctx.db, email)) ?? null;
  const source = await resolveSource(ctx.db, user?.user_id ?? null, ctx.device?.token ?? null, ip);
  const accountWindow = settings.lockout_duration_minutes * 60_000;
  const limits: CounterLimit[] = [{ key: `account:${email}|${source.key}`, max: settings.max_login_attempts, windowMs: accountWindow }];
  if (!source.known) {
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
    for (const h of over) {
      if (h.count !== h.max + 1) continue;
      const counter = h.key.startsWith('source:') ? 'address' : h.key.includes('|') ? 'account and source' : 'account, unknown sources';
      await failure('too many attempts; locked', { counter, until: new Date(h.resetAt).toISOString() });
    }
    throw tooManyAttempts(Math.ceil((Math.max(...over.map((h) => h.resetAt)) - now) / 1000));
  }

  const sourceHit = hits.find((h) => h.key.startsWith('source:'));
  const priority: HashPriority = source.known ? 'high' : (sourceHit?.count ?? 1) <= 1 ? 'normal' : 'low';
  let ok: boolean;
  try {
    ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password, priority);
  } catch (err) {
    // Refused by the busy hash queue: no password was checked, so the attempt does not count.
    for (const h of hits) await counters.refund(h.key);
    throw err;
  }
  if (!user || !ok) {
    await failure(user ? 'wrong password' : 'unknown email', { attempts: hits[0]!.count, known_source: source.known });
    throw unauthorized(INVALID_CREDENTIALS);
  }

  await counters.reset(hits[0]!.key);
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
    await tx
      .update(users)
      .set({
        failed_login_attempts: 0,
        locked_until: null,
        last_login: new Date(now).toISOString(),
        login_count: sql`${users.login_count} + 1`,
      })
      .where(eq(users.user_id, user.user_id));
    const session = await createSession(tx, user.user_id, { ip: ctx.ip, userAgent: ctx.userAgent });
    // The web app is known by its device cookie; API clients (which may keep no cookies) by address.
    if (device) await rememberSource(tx, user.user_id, 'device', hashDevice(device));
    if (ctx.channel !== 'trpc' && ctx.ip) await rememberSource(tx, user.user_id, 'address', ctx.ip);
    await audit(tx, userActor(user, ctx.ip), { action: 'login', table: 'users', id: user.user_id, new: { email: user.email } });
    return session.token;
  });
  if (token === null) throw unauthorized('This account is inactive. Contact your administrator.');
  return { token, user: (await getPublicUser(ctx.db, user.user_id))! };
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

export async function changePassword(ctx: AuthedContext, input: ChangePasswordInput): Promise<{ success: true }> {
  const [row] = await ctx.db.select({ password_hash: users.password_hash }).from(users).where(eq(users.user_id, ctx.user.user_id));
  if (!row) throw notFound('User');
  // 400, not 401: a wrong current password must not sign the user out.
  if (!(await verifyPassword(row.password_hash, input.currentPassword))) throw badRequest('Current password is incorrect');
  await assertPasswordAcceptable(ctx, input.newPassword);
  if (input.newPassword === input.currentPassword) throw badRequest('New password must be different from the current password');
  const hash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    // Only over the password that was verified: if another change committed meanwhile, this one is refused.
    const changed = await tx
      .update(users)
      .set({ password_hash: hash, password_changed_at: new Date().toISOString() })
      .where(and(eq(users.user_id, ctx.user.user_id), eq(users.password_hash, row.password_hash)))
      .returning({ id: users.user_id });
    if (changed.length === 0) throw badRequest('Current password is incorrect');
    const revoked = await revokeUserSessions(tx, ctx.user.user_id, ctx.session.session_id);
    await audit(tx, ctx.actor, {
      action: 'change_password',
      table: 'users',
      id: ctx.user.user_id,
      new: { other_sessions_revoked: revoked },
    });
    await notifyUser(tx, passwordChangedNotice(ctx.user.user_id));
  });
  return { success: true };
}
