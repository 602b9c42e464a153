/**
 * Re-authentication: the current password asked of a signed-in user before a change a stolen session must not make
 * (the password, the sign-in e-mail). docs/security.md "Re-authentication and stolen tokens".
 *
 * - Counted per user, before any hashing, in db.counters under `reauth:<user_id>` (every session and instance of
 *   the user share it): settings' max_login_attempts per lockout_duration_minutes. Past it every check is refused
 *   with 429 and Retry-After, the right password too, until the window ends; the lock is audited once, when it
 *   starts, and each wrong password is audited.
 * - Checked at the hash queue's low priority (core/passwords.ts), so it never delays a sign-in, and one check at a
 *   time per session: a second concurrent check of the same session is refused at once (429; nothing read, counted
 *   or hashed).
 * - A right password clears the count. A check refused by the busy queue gives its attempt back.
 */
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { audit } from '../../core/audit.ts';
import { AppError, badRequest, notFound } from '../../base/errors.ts';
import { oneCheckAtATime, verifyPassword } from '../../core/passwords.ts';
import { getSettings } from '../../core/settings.ts';

export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';

/** The counter of a user's re-authentication attempts (db.counters). */
export const reauthKey = (userId: number) => `reauth:${userId}`;

export function reauthLocked(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    'TOO_MANY_REQUESTS',
    `Too many wrong passwords. For your security, password checks on your account are paused for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retryAfter: Math.max(1, retryAfterSeconds) },
  );
}

/**
 * Checks the signed-in user's current password for `purpose` (e.g. 'change_password', 'change_email'). Returns the
 * verified hash (a change may be made only over it); throws 400 (wrong, the user stays signed in) or 429 (locked, or
 * a check of this session already running).
 */
export function assertCurrentPassword(ctx: AuthedContext, password: string, purpose: string): Promise<string> {
  // A second check of this session while one runs is refused before anything is read, counted or hashed.
  return oneCheckAtATime(`session:${ctx.session.session_id}`, () => checkCurrentPassword(ctx, password, purpose));
}

async function checkCurrentPassword(ctx: AuthedContext, password: string, purpose: string): Promise<string> {
  const userId = ctx.user.user_id;
  const settings = await getSettings(ctx.db);
  const now = Date.now();
  const max = settings.max_login_attempts;
  const [hit] = await ctx.db.counters.hit([{ key: reauthKey(userId), max, windowMs: settings.lockout_duration_minutes * 60_000 }], now);
  const retryAfter = Math.ceil((hit!.resetAt - now) / 1000);
  const failed = (reason: string, extra: Record<string, unknown> = {}) =>
    ctx.db.transaction((tx) =>
      audit(tx, ctx.actor, { action: 'reauth_failed', table: 'users', id: userId, new: { purpose, reason, ...extra } }),
    );
  if (hit!.over) {
    if (hit!.count === max + 1) await failed('too many attempts; locked', { until: new Date(hit!.resetAt).toISOString() });
    throw reauthLocked(retryAfter);
  }
  const [row] = await ctx.db.select({ password_hash: users.password_hash }).from(users).where(eq(users.user_id, userId));
  if (!row) throw notFound('User');
  let ok: boolean;
  try {
    ok = await verifyPassword(row.password_hash, password, 'low');
  } catch (err) {
    // Refused by the busy hash queue before any hash: not an attempt.
    await ctx.db.counters.refund(reauthKey(userId));
    throw err;
  }
  if (!ok) {
    await failed('wrong password', { attempts: hit!.count });
    throw badRequest(CURRENT_PASSWORD_INCORRECT, [{ path: 'currentPassword', message: CURRENT_PASSWORD_INCORRECT }]);
  }
  await ctx.db.counters.reset(reauthKey(userId));
  return row.password_hash;
}
