/**
 * "Forgot password?" and the single-use links to choose a password (docs/decisions.md "Password reset").
 *
 * A link carries a 256-bit random token; only its SHA-256 is stored (password_reset_tokens). Issuing a
 * new password link makes the user's older unused password links expire at once, so only the latest one works. A
 * link works once: using it sets the password (settings' policy), clears the lockout, expires the user's other
 * password links, signs the user out everywhere and is audited, in one transaction. A password change does the same
 * to the open links (docs/security.md "Re-authentication and stolen tokens").
 *
 * POST /auth/forgot-password answers the same 200 body, padded to the same minimum time, whether or
 * not the address has an account; the e-mail is sent after the answer. Throttles: per client IP
 * (429, the same for every address; db.counters, shared by every instance) and per account (silent: still the same 200, no e-mail).
 */
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { PASSWORD_RESET_STRINGS, type ForgotPasswordInput, type ResetPasswordInput } from '@lm/shared';
import { passwordResetTokens, users } from '../../db/schema/index.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Context } from '../../core/context.ts';
import { anonymousActor, audit, userActor, type Actor } from '../../core/audit.ts';
import { AppError, badRequest } from '../../base/errors.ts';
import { hashPassword } from '../../core/passwords.ts';
import { runInBackground } from '../../core/background.ts';
import { findUserByEmail } from '../users/users.queries.ts';
import { sendPasswordLink, type LinkPurpose } from '../notification-management/events.ts';
import type { DeliveryOutcome } from '../notification-management/delivery.ts';
import { assertPasswordAcceptable } from './auth.service.ts';
import { hashToken, revokeUserSessions } from '../../core/sessions.ts';
import { expireOpenPasswordLinks, issueLinkToken } from './links.ts';
import { notifyUser, passwordChangedNotice } from '../notifications/notify.ts';
import { accountLockKey, loginCounters } from './throttle.ts';

const MINUTE = 60_000;
/** How long a link works: "Forgot password?" 60 minutes; sent by an Admin 24 hours; welcome 7 days. */
export const LINK_VALIDITY_MS = { forgot: 60 * MINUTE, admin: 24 * 60 * MINUTE, welcome: 7 * 24 * 60 * MINUTE } as const;
/** Every forgot-password answer takes at least this long, so timing does not tell which addresses exist. */
export const FORGOT_MIN_DURATION_MS = 400;
/** Per account: at most this many "Forgot password?" e-mails per hour; more requests answer the same, silently. */
export const ACCOUNT_LIMIT = { max: 3, windowMs: 60 * MINUTE } as const;
/**
 * Per client IP: at most this many forgot-password requests per 15 minutes, then 429 until 15 minutes after the
 * last one allowed. Counted in db.counters, so every instance shares the count.
 */
export const IP_LIMIT = { max: 10, windowMs: 15 * MINUTE } as const;

/** The counter of forgot-password requests from one address (db.counters: shared by every instance). */
export const forgotIpKey = (ip: string) => `forgot:${ip}`;

// The link tokens themselves (issue, expire) live in links.ts, which auth.service.ts imports too.
export { expireOpenLinks, expireOpenPasswordLinks, issueLinkToken, PASSWORD_LINK_PURPOSES, type TokenPurpose } from './links.ts';

/** Issues a link and e-mails it (awaited: the caller decides whether to wait or run it in the background). */
export async function issueAndSendLink(
  db: Db,
  config: Config,
  args: { userId: number; purpose: LinkPurpose; validForMs: number; actor: Actor; auditAction: string; auditNew?: object },
): Promise<DeliveryOutcome> {
  const token = await db.transaction(async (tx) => {
    const t = await issueLinkToken(tx, args.userId, args.purpose, args.validForMs, args.actor.ip);
    await audit(tx, args.actor, {
      action: args.auditAction,
      table: 'users',
      id: args.userId,
      new: { purpose: args.purpose, ...args.auditNew },
    });
    return t;
  });
  return sendPasswordLink(db, config, {
    userId: args.userId,
    purpose: args.purpose,
    token,
    validForMs: args.validForMs,
    actor: args.actor,
  });
}

async function recentRequests(db: DbOrTx, userId: number, now: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.user_id, userId),
        eq(passwordResetTokens.purpose, 'reset'),
        gt(passwordResetTokens.created_at, new Date(now - ACCOUNT_LIMIT.windowMs).toISOString()),
      ),
    );
  return row?.n ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /auth/forgot-password: always {success: true}, after the same minimum time. */
export async function forgotPassword(ctx: Context, input: ForgotPasswordInput): Promise<{ success: true }> {
  const started = Date.now();
  const [byIp] = await ctx.db.counters.hit([{ key: forgotIpKey(ctx.ip ?? 'unknown'), ...IP_LIMIT }], started);
  if (byIp!.over) {
    const retryAfter = Math.max(1, Math.ceil((byIp!.resetAt - started) / 1000));
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Too many password reset requests from this address. Try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`,
      { retryAfter },
    );
  }
  const user = await findUserByEmail(ctx.db, input.email);
  let send: (() => Promise<unknown>) | null = null;
  if (user) {
    // Anyone may ask for a link: the request is made by an address, not by the account's holder.
    const actor: Actor = anonymousActor(ctx.ip);
    // The per-account count is read inside the transaction that issues the link, so concurrent
    // requests cannot all pass it.
    const token = await ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ is_active: users.is_active, deleted_at: users.deleted_at })
        .from(users)
        .where(eq(users.user_id, user.user_id));
      const active = !!current && current.is_active && !current.deleted_at;
      const throttled = active && (await recentRequests(tx, user.user_id, started)) >= ACCOUNT_LIMIT.max;
      if (active && !throttled) {
        // The token and its audit entry now; the e-mail after the answer.
        const t = await issueLinkToken(tx, user.user_id, 'reset', LINK_VALIDITY_MS.forgot, ctx.ip);
        await audit(tx, actor, { action: 'password_reset_requested', table: 'users', id: user.user_id, new: { email: user.email } });
        return t;
      }
      await audit(tx, actor, {
        action: 'password_reset_requested',
        table: 'users',
        id: user.user_id,
        new: { email: user.email, not_sent: active ? 'too many requests for this account' : 'account inactive' },
      });
      return null;
    });
    if (token !== null) {
      send = () =>
        sendPasswordLink(ctx.db, ctx.config, { userId: user.user_id, purpose: 'reset', token, validForMs: LINK_VALIDITY_MS.forgot, actor });
    }
  }
  const wait = FORGOT_MIN_DURATION_MS - (Date.now() - started);
  if (wait > 0) await sleep(wait);
  if (send) runInBackground('password reset e-mail', send);
  return { success: true };
}

/** POST /auth/reset-password: a valid link sets the new password and signs the user out everywhere. */
export async function resetPassword(ctx: Context, input: ResetPasswordInput): Promise<{ success: true }> {
  const invalid = () => badRequest(PASSWORD_RESET_STRINGS.invalidToken, [{ path: 'token', message: PASSWORD_RESET_STRINGS.invalidToken }]);
  const tokenHash = hashToken(input.token);
  const findLink = async (db: DbOrTx) => {
    const [row] = await db
      .select({
        id: passwordResetTokens.id,
        user_id: passwordResetTokens.user_id,
        purpose: passwordResetTokens.purpose,
        expires_at: passwordResetTokens.expires_at,
        used_at: passwordResetTokens.used_at,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        is_active: users.is_active,
        deleted_at: users.deleted_at,
      })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.user_id, passwordResetTokens.user_id))
      .where(eq(passwordResetTokens.token_hash, tokenHash));
    // Only a password link sets a password here (an e-mail change link has its own page and rules).
    const usable = row && (row.purpose === 'reset' || row.purpose === 'welcome');
    return usable && !row.used_at && Date.parse(row.expires_at) > Date.now() && row.is_active && !row.deleted_at ? row : null;
  };
  // A first look so that a bad link or password is refused before any hashing.
  if (!(await findLink(ctx.db))) throw invalid();
  await assertPasswordAcceptable(ctx, input.newPassword);
  const hash = await hashPassword(input.newPassword);
  const email = await ctx.db.transaction(async (tx) => {
    // Decided again inside the transaction: of two requests racing with one link, only one wins, and a
    // link of an account deactivated meanwhile no longer works.
    const row = await findLink(tx);
    if (!row) throw invalid();
    const now = new Date().toISOString();
    const claimed = await tx
      .update(passwordResetTokens)
      .set({ used_at: now })
      .where(and(eq(passwordResetTokens.id, row.id), isNull(passwordResetTokens.used_at), gt(passwordResetTokens.expires_at, now)))
      .returning({ id: passwordResetTokens.id });
    if (claimed.length === 0) throw invalid();
    await tx
      .update(users)
      .set({ password_hash: hash, password_changed_at: now, failed_login_attempts: 0, locked_until: null })
      .where(eq(users.user_id, row.user_id));
    // The user's other open password links go too (docs/security.md "Re-authentication and stolen tokens").
    const linksExpired = await expireOpenPasswordLinks(tx, row.user_id);
    const revoked = await revokeUserSessions(tx, row.user_id);
    await audit(tx, userActor(row, ctx.ip), {
      action: 'password_reset',
      table: 'users',
      id: row.user_id,
      new: { purpose: row.purpose, sessions_revoked: revoked, links_expired: linksExpired },
    });
    // A first password (welcome link) is not a change worth telling about.
    if (row.purpose === 'reset') await notifyUser(tx, passwordChangedNotice(row.user_id));
    return row.email;
  });
  // Whoever holds the mailbox may sign in again from a new device: the strangers' lock on the account goes.
  await loginCounters(ctx.db).reset(accountLockKey(email));
  return { success: true };
}
