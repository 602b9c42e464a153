import { eq, sql } from 'drizzle-orm';
import { passwordProblems, type ChangePasswordInput, type LoginInput, type LoginOutput, type User } from '@lm/shared';
import { users } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword, type HashPriority } from '../../core/passwords.ts';
import { getSettings } from '../../core/settings.ts';
import { MAINTENANCE_MESSAGE } from '../../core/trpc.ts';
import { findUserByEmail, getPublicUser } from '../users/users.queries.ts';
import { accountLockKey, loginCounters, type CounterLimit } from './throttle.ts';
import { hashDevice, rememberSource, resolveSource } from './sources.ts';
import { createSession, revokeSession, revokeUserSessions, type AuthSession, type AuthUser } from './sessions.ts';

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
  const settings = getSettings(ctx.db);
  const counters = loginCounters(ctx.db);
  const now = Date.now();
  const user = findUserByEmail(ctx.db, email) ?? null;
  const source = resolveSource(ctx.db, user?.user_id ?? null, ctx.device?.token ?? null, ip);
  const accountWindow = settings.lockout_duration_minutes * 60_000;
  const limits: CounterLimit[] = [{ key: `account:${email}|${source.key}`, max: settings.max_login_attempts, windowMs: accountWindow }];
  if (!source.known) {
    limits.push(
      { key: accountLockKey(email), max: settings.max_login_attempts, windowMs: accountWindow },
      { key: `source:${ip}`, max: SOURCE_MAX_ATTEMPTS, windowMs: SOURCE_WINDOW_MS },
    );
  }
  const hits = counters.hit(limits, now);
  const failure = (reason: string, extra: Record<string, unknown> = {}) =>
    audit(
      ctx.db,
      { userId: user?.user_id ?? null, ip: ctx.ip },
      { action: 'login_failed', table: 'users', id: user?.user_id ?? null, new: { email, reason, ...extra } },
    );

  const over = hits.filter((h) => h.over);
  if (over.length > 0) {
    for (const h of over) {
      if (h.count !== h.max + 1) continue;
      const counter = h.key.startsWith('source:') ? 'address' : h.key.includes('|') ? 'account and source' : 'account, unknown sources';
      failure('too many attempts; locked', { counter, until: new Date(h.resetAt).toISOString() });
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
    for (const h of hits) counters.refund(h.key);
    throw err;
  }
  if (!user || !ok) {
    failure(user ? 'wrong password' : 'unknown email', { attempts: hits[0]!.count, known_source: source.known });
    throw unauthorized(INVALID_CREDENTIALS);
  }

  counters.reset(hits[0]!.key);
  for (const h of hits.slice(1)) counters.refund(h.key);

  if (!user.is_active || user.deleted_at) {
    failure('account inactive');
    throw unauthorized('This account is inactive. Contact your administrator.');
  }
  if (user.role_id !== 1 && settings.maintenance_mode) {
    throw new AppError('SERVICE_UNAVAILABLE', MAINTENANCE_MESSAGE);
  }

  const device = ctx.device ? ctx.device.issue() : null;
  const token = ctx.db.transaction((tx) => {
    tx.update(users)
      .set({
        failed_login_attempts: 0,
        locked_until: null,
        last_login: new Date(now).toISOString(),
        login_count: sql`${users.login_count} + 1`,
      })
      .where(eq(users.user_id, user.user_id))
      .run();
    const session = createSession(tx, user.user_id, { ip: ctx.ip, userAgent: ctx.userAgent });
    // The web app is known by its device cookie; API clients (which may keep no cookies) by address.
    if (device) rememberSource(tx, user.user_id, 'device', hashDevice(device));
    if (ctx.channel !== 'trpc' && ctx.ip) rememberSource(tx, user.user_id, 'address', ctx.ip);
    audit(tx, { userId: user.user_id, ip: ctx.ip }, { action: 'login', table: 'users', id: user.user_id, new: { email: user.email } });
    return session.token;
  });
  return { token, user: getPublicUser(ctx.db, user.user_id)! };
}

export function logout(ctx: Context & { user: AuthUser; session: AuthSession }): { success: true } {
  ctx.db.transaction((tx) => {
    revokeSession(tx, ctx.session.session_id);
    audit(tx, ctx.actor, { action: 'logout', table: 'users', id: ctx.user.user_id });
  });
  return { success: true };
}

export function me(ctx: Context & { user: AuthUser }): User {
  const user = getPublicUser(ctx.db, ctx.user.user_id);
  if (!user) throw notFound('User');
  return user;
}

/** Checks a new password against settings.password_min_length and the strength rule (400 on failure). */
export function assertPasswordAcceptable(ctx: Pick<Context, 'db'>, password: string): void {
  const problem = passwordProblems(password, getSettings(ctx.db).password_min_length);
  if (problem) throw badRequest(problem, [{ path: 'password', message: problem }]);
}

export async function changePassword(
  ctx: Context & { user: AuthUser; session: AuthSession },
  input: ChangePasswordInput,
): Promise<{ success: true }> {
  const row = ctx.db.select({ password_hash: users.password_hash }).from(users).where(eq(users.user_id, ctx.user.user_id)).get();
  if (!row) throw notFound('User');
  // 400, not 401: a wrong current password must not sign the user out.
  if (!(await verifyPassword(row.password_hash, input.currentPassword))) throw badRequest('Current password is incorrect');
  assertPasswordAcceptable(ctx, input.newPassword);
  if (input.newPassword === input.currentPassword) throw badRequest('New password must be different from the current password');
  const hash = await hashPassword(input.newPassword);
  ctx.db.transaction((tx) => {
    tx.update(users)
      .set({ password_hash: hash, password_changed_at: new Date().toISOString() })
      .where(eq(users.user_id, ctx.user.user_id))
      .run();
    const revoked = revokeUserSessions(tx, ctx.user.user_id, ctx.session.session_id);
    audit(tx, ctx.actor, { action: 'change_password', table: 'users', id: ctx.user.user_id, new: { other_sessions_revoked: revoked } });
  });
  return { success: true };
}
