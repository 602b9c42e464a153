/**
 * Changing the sign-in e-mail (docs/security.md "Re-authentication and stolen tokens", docs/decisions.md "Changing
 * the sign-in e-mail"):
 *
 * 1. PUT /users/me/profile with a new e-mail needs the current password (reauth.ts: counted per user). The change is
 *    then pending: a single-use link (purpose email_change, data = the new address, 24 hours) goes to the NEW
 *    address, and the answer is the same whether the address is free or taken (no e-mail goes out for a taken one:
 *    the requester cannot tell, so the profile form is no way to learn which addresses have accounts).
 * 2. POST /users/email-change/confirm {token}: the change is made and audited, and the OLD address gets a notice with
 *    a single-use undo link (purpose email_undo, data = the old address, 7 days).
 * 3. POST /users/email-change/undo {token}: the old address is put back, the password is replaced by an unusable
 *    one (whoever made the change knew it), every session ends, every open link of the user expires, the calendar
 *    feed stops, and a link to choose a new password goes to the old address. Audited.
 *
 * E-mails go after the transaction (runInBackground), as every account e-mail does.
 */
import crypto from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { PROFILE_STRINGS, type EmailLinkOutput } from '@lm/shared';
import { passwordResetTokens, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { audit, userActor, type Actor } from '../../core/audit.ts';
import { badRequest } from '../../base/errors.ts';
import { hashPassword } from '../../core/passwords.ts';
import { hashToken, revokeUserSessions } from '../../core/sessions.ts';
import { runInBackground } from '../../core/background.ts';
import { assertCurrentPassword } from '../auth/reauth.ts';
import { expireOpenLinks, issueLinkToken, LINK_VALIDITY_MS, type TokenPurpose } from '../auth/password-reset.service.ts';
import { sendEmailChangeLink, sendPasswordLink } from '../notification-management/events.ts';
import { stopCalendarFeed } from '../notifications/calendar.service.ts';
import { emailIs } from './users.queries.ts';

const HOUR = 3_600_000;
/** How long the links work: the confirmation to the new address 24 hours, the undo to the old one 7 days. */
export const EMAIL_LINK_VALIDITY_MS = { confirm: 24 * HOUR, undo: 7 * 24 * HOUR } as const;

export const EMAIL_LINK_INVALID = 'This link is invalid, already used or expired.';
export const EMAIL_TAKEN_ON_CONFIRM = 'This address can no longer be used for your account. Ask your administrator for help.';
export const EMAIL_TAKEN_ON_UNDO =
  'Your previous address now belongs to another account, so it cannot be put back. Contact your administrator at once.';
const ALL_LINKS: readonly TokenPurpose[] = ['reset', 'welcome', 'sign_in', 'email_change', 'email_undo'];

async function emailTaken(db: DbOrTx, email: string, exceptUserId: number): Promise<boolean> {
  const [other] = await db
    .select({ id: users.user_id })
    .from(users)
    .where(and(emailIs(email), ne(users.user_id, exceptUserId)))
    .limit(1);
  return Boolean(other);
}

/**
 * Called by updateProfile before its transaction: when `email` is not the current one, checks the current password
 * (400 without it, 400/429 when wrong or locked). Returns whether a change was asked for.
 */
export async function assertEmailChangeAllowed(ctx: AuthedContext, currentEmail: string, email: string, password: string | undefined) {
  if (email === currentEmail.toLowerCase()) return false;
  if (!password) {
    throw badRequest(PROFILE_STRINGS.emailNeedsPassword, [{ path: 'currentPassword', message: PROFILE_STRINGS.emailNeedsPassword }]);
  }
  await assertCurrentPassword(ctx, password, 'change_email');
  return true;
}

/**
 * Inside updateProfile's transaction: records the request and, when the address is free, issues the confirmation
 * link. Returns the e-mail to send after the commit (null for a taken address: nothing is sent).
 */
export async function requestEmailChange(
  tx: Tx,
  ctx: AuthedContext,
  currentEmail: string,
  email: string,
): Promise<(() => Promise<unknown>) | null> {
  const userId = ctx.user.user_id;
  const taken = await emailTaken(tx, email, userId);
  if (taken) {
    await audit(tx, ctx.actor, {
      action: 'email_change_requested',
      table: 'users',
      id: userId,
      new: { email, not_sent: 'address in use' },
    });
    return null;
  }
  const token = await issueLinkToken(tx, userId, 'email_change', EMAIL_LINK_VALIDITY_MS.confirm, ctx.ip, email);
  await audit(tx, ctx.actor, { action: 'email_change_requested', table: 'users', id: userId, new: { email } });
  const actor = ctx.actor;
  return () =>
    sendEmailChangeLink(ctx.db, ctx.config, {
      kind: 'confirm',
      userId,
      to: email,
      otherEmail: currentEmail,
      token,
      validForMs: EMAIL_LINK_VALIDITY_MS.confirm,
      actor,
    });
}

/** The open link of a token and purpose, with its user (active, not deleted), or null. */
async function findLink(db: DbOrTx, token: string, purpose: TokenPurpose) {
  const [row] = await db
    .select({
      id: passwordResetTokens.id,
      user_id: passwordResetTokens.user_id,
      data: passwordResetTokens.data,
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
    .where(and(eq(passwordResetTokens.token_hash, hashToken(token)), eq(passwordResetTokens.purpose, purpose)));
  const open = row && row.data && !row.used_at && Date.parse(row.expires_at) > Date.now() && row.is_active && !row.deleted_at;
  return open ? { ...row, data: row.data! } : null;
}

/** Marks the link used; false when another request used it first. */
async function claim(tx: Tx, id: number): Promise<boolean> {
  const used = await tx
    .update(passwordResetTokens)
    .set({ used_at: new Date().toISOString() })
    .where(and(eq(passwordResetTokens.id, id), isNull(passwordResetTokens.used_at)))
    .returning({ id: passwordResetTokens.id });
  return used.length > 0;
}

const invalid = () => badRequest(EMAIL_LINK_INVALID, [{ path: 'token', message: EMAIL_LINK_INVALID }]);

/** POST /users/email-change/confirm: the holder of the new mailbox makes the change. */
export async function confirmEmailChange(ctx: Context, input: { token: string }): Promise<EmailLinkOutput> {
  const done = await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, input.token, 'email_change');
    if (!link || !(await claim(tx, link.id))) throw invalid();
    const oldEmail = link.email;
    const newEmail = link.data;
    if (await emailTaken(tx, newEmail, link.user_id)) throw badRequest(EMAIL_TAKEN_ON_CONFIRM);
    await tx.update(users).set({ email: newEmail }).where(eq(users.user_id, link.user_id));
    await expireOpenLinks(tx, link.user_id, ['email_change']);
    const undoToken = await issueLinkToken(tx, link.user_id, 'email_undo', EMAIL_LINK_VALIDITY_MS.undo, ctx.ip, oldEmail);
    const actor: Actor = userActor({ ...link, email: newEmail }, ctx.ip);
    await audit(tx, actor, {
      action: 'email_changed',
      table: 'users',
      id: link.user_id,
      old: { email: oldEmail },
      new: { email: newEmail, undo_link_to: oldEmail },
    });
    return { userId: link.user_id, oldEmail, newEmail, undoToken, actor };
  });
  runInBackground('e-mail change notice', () =>
    sendEmailChangeLink(ctx.db, ctx.config, {
      kind: 'undo',
      userId: done.userId,
      to: done.oldEmail,
      otherEmail: done.newEmail,
      token: done.undoToken,
      validForMs: EMAIL_LINK_VALIDITY_MS.undo,
      actor: done.actor,
    }),
  );
  return { success: true, message: `Your sign-in email is now ${done.newEmail}.` };
}

/** POST /users/email-change/undo: the holder of the old mailbox takes the account back. */
export async function undoEmailChange(ctx: Context, input: { token: string }): Promise<EmailLinkOutput> {
  // A first look, so a bad link costs no hash.
  if (!(await findLink(ctx.db, input.token, 'email_undo'))) throw invalid();
  // Whoever changed the e-mail knew the password: it is replaced by one nobody knows, until the reset link is used.
  const unusable = await hashPassword(crypto.randomBytes(32).toString('base64url'));
  const done = await ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, input.token, 'email_undo');
    if (!link || !(await claim(tx, link.id))) throw invalid();
    const restored = link.data;
    if (await emailTaken(tx, restored, link.user_id)) throw badRequest(EMAIL_TAKEN_ON_UNDO);
    const now = new Date().toISOString();
    await tx
      .update(users)
      .set({ email: restored, password_hash: unusable, password_changed_at: now, failed_login_attempts: 0, locked_until: null })
      .where(eq(users.user_id, link.user_id));
    const linksExpired = await expireOpenLinks(tx, link.user_id, ALL_LINKS);
    const revoked = await revokeUserSessions(tx, link.user_id);
    const feedStopped = await stopCalendarFeed(tx, link.user_id);
    const resetToken = await issueLinkToken(tx, link.user_id, 'reset', LINK_VALIDITY_MS.admin, ctx.ip);
    const actor: Actor = userActor({ ...link, email: restored }, ctx.ip);
    await audit(tx, actor, {
      action: 'email_change_undone',
      table: 'users',
      id: link.user_id,
      old: { email: link.email },
      new: {
        email: restored,
        password: 'replaced until reset',
        sessions_revoked: revoked,
        links_expired: linksExpired,
        calendar_feed_stopped: feedStopped,
      },
    });
    return { userId: link.user_id, restored, resetToken, actor };
  });
  runInBackground('e-mail change undo: reset link', () =>
    sendPasswordLink(ctx.db, ctx.config, {
      userId: done.userId,
      purpose: 'reset',
      token: done.resetToken,
      validForMs: LINK_VALIDITY_MS.admin,
      actor: done.actor,
    }),
  );
  return {
    success: true,
    message: `Your sign-in email is ${done.restored} again. Everyone was signed out; we sent a link to ${done.restored} to choose a new password.`,
  };
}
