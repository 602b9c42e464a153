/**
 * One-time sign-in links (docs/security.md "Sign-in", docs/decisions.md "Sign-in links"): whoever holds an account's
 * mailbox can always sign in, from any device, whatever strangers did to the account's counters.
 *
 * POST /auth/sign-in-link {email} answers the same 200 body, padded to the same minimum time as forgot-password,
 * whether or not the address has an active account; the e-mail goes out after the answer. Throttles as forgot-password:
 * per client address (429, the same for every e-mail; db.counters) and per account (silent: SIGN_IN_LINK_ACCOUNT_LIMIT
 * links an hour, then the same answer and no e-mail).
 *
 * The link (PUBLIC_URL/sign-in-link?token=...) carries a 256-bit random token; only its SHA-256 is stored, in
 * password_reset_tokens with purpose 'sign_in'. It works once, for 15 minutes, and a newer sign-in link replaces it
 * (the account's other links, a password link or a welcome link, are left alone). POST /auth/sign-in-link/consume
 * {token} claims it and opens a session as a sign-in does (the device cookie remembered, audited as `login` with
 * method `link`) in one transaction; it also lifts the strangers' lock on the account, as a password link does.
 */
import crypto from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { SIGN_IN_LINK_INVALID, type ConsumeSignInLinkInput, type LoginOutput, type SignInLinkInput } from '@lm/shared';
import { passwordResetTokens, users } from '../../db/schema/index.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Context } from '../../core/context.ts';
import { anonymousActor, audit, userActor, type Actor } from '../../core/audit.ts';
import { AppError, badRequest } from '../../base/errors.ts';
import { assertNotInMaintenance } from '../../core/access.ts';
import { hashToken } from '../../core/sessions.ts';
import { runInBackground } from '../../core/background.ts';
import { getSettings } from '../../core/settings.ts';
import { findUserByEmail, getPublicUser } from '../users/users.queries.ts';
import { deliver, type DeliveryOutcome } from '../notification-management/delivery.ts';
import { describeDuration } from '../notification-management/events.ts';
import { FORGOT_MIN_DURATION_MS, IP_LIMIT } from './password-reset.service.ts';
import { openSession } from './auth.service.ts';
import { accountLockKey, loginCounters } from './throttle.ts';
import { proofAttemptsKey } from './login-proof.ts';
import { forgetKnownSources } from './login-gate.ts';

const MINUTE = 60_000;
/** How long a sign-in link works. */
export const SIGN_IN_LINK_VALIDITY_MS = 15 * MINUTE;
/** Per account: at most this many sign-in links an hour; more requests answer the same, silently. */
export const SIGN_IN_LINK_ACCOUNT_LIMIT = { max: 3, windowMs: 60 * MINUTE } as const;
/** The counter of sign-in-link requests from one address (the limit of forgot-password, counted apart). */
export const signInLinkIpKey = (ip: string) => `sign-in-link:${ip}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function recentLinks(db: DbOrTx, userId: number, now: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.user_id, userId),
        eq(passwordResetTokens.purpose, 'sign_in'),
        gt(passwordResetTokens.created_at, new Date(now - SIGN_IN_LINK_ACCOUNT_LIMIT.windowMs).toISOString()),
      ),
    );
  return row?.n ?? 0;
}

/** A new sign-in link token for the user; the user's older unused sign-in links stop working. */
export async function issueSignInToken(tx: Tx, userId: number, ip: string | null, now: Date): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await tx
    .update(passwordResetTokens)
    .set({ expires_at: now.toISOString() })
    .where(
      and(
        eq(passwordResetTokens.user_id, userId),
        eq(passwordResetTokens.purpose, 'sign_in'),
        isNull(passwordResetTokens.used_at),
        gt(passwordResetTokens.expires_at, now.toISOString()),
      ),
    );
  await tx.insert(passwordResetTokens).values({
    user_id: userId,
    token_hash: hashToken(token),
    purpose: 'sign_in',
    expires_at: new Date(now.getTime() + SIGN_IN_LINK_VALIDITY_MS).toISOString(),
    requested_ip: ip,
    created_at: now.toISOString(),
  });
  return token;
}

/** The e-mail with the link: built-in text (an office cannot drop the link), sent like the password links. */
export async function sendSignInLink(
  db: Db,
  config: Config,
  args: { userId: number; token: string; actor: Actor },
): Promise<DeliveryOutcome> {
  const [user] = await db.select({ first_name: users.first_name, email: users.email }).from(users).where(eq(users.user_id, args.userId));
  if (!user) return { status: 'skipped', reason: 'duplicate' };
  const settings = await getSettings(db);
  const link = `${config.publicUrl}/sign-in-link?token=${encodeURIComponent(args.token)}`;
  const valid = describeDuration(SIGN_IN_LINK_VALIDITY_MS);
  return deliver(db, config, {
    channel: 'email',
    recipient: user.email,
    subject: `${settings.app_name}: your sign-in link`,
    body:
      `Hello ${user.first_name},\n\nOpen this link to sign in to ${settings.app_name} (valid for ${valid}, once):\n${link}\n\n` +
      `If you did not ask for it, ignore this email: nobody can use the link without this mailbox.`,
    template: { id: null, name: 'Sign-in link' },
    user_id: args.userId,
    actor: args.actor,
    ignoreChannelSwitch: true,
  });
}

/** POST /auth/sign-in-link: always {success: true}, after the same minimum time. */
export async function requestSignInLink(ctx: Context, input: SignInLinkInput): Promise<{ success: true }> {
  const started = Date.now();
  const [byIp] = await ctx.db.counters.hit([{ key: signInLinkIpKey(ctx.ip ?? 'unknown'), ...IP_LIMIT }], started);
  if (byIp!.over) {
    const retryAfter = Math.max(1, Math.ceil((byIp!.resetAt - started) / 1000));
    const minutes = Math.ceil(retryAfter / 60);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Too many sign-in link requests from this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { retryAfter },
    );
  }
  const user = await findUserByEmail(ctx.db, input.email);
  let send: (() => Promise<unknown>) | null = null;
  if (user) {
    // Anyone may ask: the request is made by an address, not by the account's holder.
    const actor = anonymousActor(ctx.ip);
    const token = await ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ is_active: users.is_active, deleted_at: users.deleted_at })
        .from(users)
        .where(eq(users.user_id, user.user_id));
      const active = !!current && current.is_active && !current.deleted_at;
      const throttled = active && (await recentLinks(tx, user.user_id, started)) >= SIGN_IN_LINK_ACCOUNT_LIMIT.max;
      const notSent = !active ? 'account inactive' : throttled ? 'too many requests for this account' : null;
      await audit(tx, actor, {
        action: 'sign_in_link_requested',
        table: 'users',
        id: user.user_id,
        new: { email: user.email, ...(notSent ? { not_sent: notSent } : {}) },
      });
      return notSent ? null : issueSignInToken(tx, user.user_id, ctx.ip, new Date(started));
    });
    if (token !== null) send = () => sendSignInLink(ctx.db, ctx.config, { userId: user.user_id, token, actor });
  }
  const wait = FORGOT_MIN_DURATION_MS - (Date.now() - started);
  if (wait > 0) await sleep(wait);
  if (send) runInBackground('sign-in link e-mail', send);
  return { success: true };
}

/** POST /auth/sign-in-link/consume: a valid link signs in once. */
export async function consumeSignInLink(ctx: Context, input: ConsumeSignInLinkInput): Promise<LoginOutput> {
  const invalid = () => badRequest(SIGN_IN_LINK_INVALID, [{ path: 'token', message: SIGN_IN_LINK_INVALID }]);
  const tokenHash = hashToken(input.token);
  const device = ctx.device ? ctx.device.issue() : null;
  const result = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: passwordResetTokens.id,
        user_id: passwordResetTokens.user_id,
        expires_at: passwordResetTokens.expires_at,
        used_at: passwordResetTokens.used_at,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        is_active: users.is_active,
        deleted_at: users.deleted_at,
        role_id: users.role_id,
      })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.user_id, passwordResetTokens.user_id))
      .where(and(eq(passwordResetTokens.token_hash, tokenHash), eq(passwordResetTokens.purpose, 'sign_in')));
    const now = new Date().toISOString();
    if (!row || row.used_at || row.expires_at <= now) throw invalid();
    if (!row.is_active || row.deleted_at) return null;
    await assertNotInMaintenance(ctx, row);
    // Of two requests racing with one link, only one claims it.
    const claimed = await tx
      .update(passwordResetTokens)
      .set({ used_at: now })
      .where(and(eq(passwordResetTokens.id, row.id), isNull(passwordResetTokens.used_at), gt(passwordResetTokens.expires_at, now)))
      .returning({ id: passwordResetTokens.id });
    if (claimed.length === 0) throw invalid();
    const token = await openSession(tx, ctx, row, device, { method: 'link' });
    return { token, userId: row.user_id, email: row.email, actor: userActor(row, ctx.ip) };
  });
  // 400, not 401 as a password sign-in answers: the link, not a credential, is what was sent (docs/api.md).
  if (result === null) throw badRequest('This account is inactive. Contact your administrator.');
  forgetKnownSources(ctx.db);
  // The mailbox's holder signed in: the strangers' lock and the solved-challenge count of the account go.
  const counters = loginCounters(ctx.db);
  await counters.reset(accountLockKey(result.email));
  await counters.reset(proofAttemptsKey(result.email));
  return { token: result.token, user: (await getPublicUser(ctx.db, result.userId))! };
}
