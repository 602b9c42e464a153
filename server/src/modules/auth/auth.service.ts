import { eq, sql } from 'drizzle-orm';
import { passwordProblems, type ChangePasswordInput, type LoginInput, type LoginOutput, type User } from '@lm/shared';
import { users } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../core/passwords.ts';
import { getSettings } from '../../core/settings.ts';
import { MAINTENANCE_MESSAGE } from '../../core/trpc.ts';
import { findUserByEmail, getPublicUser } from '../users/users.queries.ts';
import { createSession, revokeSession, revokeUserSessions, type AuthSession, type AuthUser } from './sessions.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';

function lockedMessage(until: string, now: number): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(until) - now) / 60_000));
  return `Account locked due to too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

function lockedError(until: string, now: number) {
  return new AppError('TOO_MANY_REQUESTS', lockedMessage(until, now), {
    retryAfter: Math.max(1, Math.ceil((Date.parse(until) - now) / 1000)),
  });
}

/**
 * Sign-in: per-IP throttle of failures, per-account lockout from settings, bounded password hashing,
 * and an audit entry for every success and failure.
 */
export async function login(ctx: Context, input: LoginInput): Promise<LoginOutput> {
  const ip = ctx.ip ?? 'unknown';
  const release = ctx.services.loginThrottle.begin(ip);
  try {
    const settings = getSettings(ctx.db);
    const now = Date.now();
    const user = findUserByEmail(ctx.db, input.email);
    const failure = (reason: string, userId: number | null) =>
      audit(ctx.db, { userId, ip: ctx.ip }, { action: 'login_failed', table: 'users', id: userId, new: { email: input.email, reason } });

    if (user?.locked_until && Date.parse(user.locked_until) > now) {
      failure('account locked', user.user_id);
      throw lockedError(user.locked_until, now);
    }

    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
    if (!user || !ok) {
      ctx.services.loginThrottle.recordFailure(ip);
      if (!user) {
        failure('unknown email', null);
        throw unauthorized(INVALID_CREDENTIALS);
      }
      const attempts = user.failed_login_attempts + 1;
      const lock = attempts >= settings.max_login_attempts;
      const lockedUntil = lock ? new Date(now + settings.lockout_duration_minutes * 60_000).toISOString() : null;
      ctx.db.transaction((tx) => {
        tx.update(users)
          .set({ failed_login_attempts: lock ? 0 : attempts, locked_until: lockedUntil })
          .where(eq(users.user_id, user.user_id))
          .run();
        audit(
          tx,
          { userId: user.user_id, ip: ctx.ip },
          {
            action: 'login_failed',
            table: 'users',
            id: user.user_id,
            new: { email: input.email, reason: lock ? 'wrong password; account locked' : 'wrong password', attempts },
          },
        );
      });
      if (lockedUntil) throw lockedError(lockedUntil, now);
      throw unauthorized(INVALID_CREDENTIALS);
    }

    if (!user.is_active || user.deleted_at) {
      failure('account inactive', user.user_id);
      throw unauthorized('This account is inactive. Contact your administrator.');
    }
    if (user.role_id !== 1 && settings.maintenance_mode) {
      throw new AppError('SERVICE_UNAVAILABLE', MAINTENANCE_MESSAGE);
    }

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
      audit(tx, { userId: user.user_id, ip: ctx.ip }, { action: 'login', table: 'users', id: user.user_id, new: { email: user.email } });
      return session.token;
    });
    return { token, user: getPublicUser(ctx.db, user.user_id)! };
  } finally {
    release();
  }
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
