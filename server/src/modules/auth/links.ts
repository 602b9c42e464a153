/**
 * The single-use links of password_reset_tokens (docs/decisions.md "Password reset", docs/security.md
 * "Re-authentication and stolen tokens"): issuing one, and expiring a user's open ones. A link carries a 256-bit
 * random token; only its SHA-256 is stored.
 */
import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { passwordResetTokens } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';
import { hashToken } from '../../core/sessions.ts';

/** Every purpose a link of password_reset_tokens may have. */
export type TokenPurpose = (typeof passwordResetTokens.$inferInsert)['purpose'];
/** The links that set a password or sign in: a password change or reset expires every open one of the user. */
export const PASSWORD_LINK_PURPOSES = ['reset', 'welcome', 'sign_in'] as const satisfies readonly TokenPurpose[];
/**
 * What issuing a link expires among the user's open links: a password link its kind (only the latest works); an
 * e-mail change confirmation the previous one; an undo link nothing, and nothing expires it but its own use or an
 * undo (so the old address keeps its way back whatever the new holder does: docs/security.md "Re-authentication
 * and stolen tokens").
 */
const EXPIRES_ON_ISSUE: Record<TokenPurpose, readonly TokenPurpose[]> = {
  reset: PASSWORD_LINK_PURPOSES,
  welcome: PASSWORD_LINK_PURPOSES,
  sign_in: PASSWORD_LINK_PURPOSES,
  email_change: ['email_change'],
  email_undo: [],
};

/** Expires the user's open links of the given purposes (inside the caller's transaction); returns how many. */
export async function expireOpenLinks(tx: Tx, userId: number, purposes: readonly TokenPurpose[]): Promise<number> {
  if (purposes.length === 0) return 0;
  const now = new Date().toISOString();
  const expired = await tx
    .update(passwordResetTokens)
    .set({ expires_at: now })
    .where(
      and(
        eq(passwordResetTokens.user_id, userId),
        inArray(passwordResetTokens.purpose, [...purposes]),
        isNull(passwordResetTokens.used_at),
        gt(passwordResetTokens.expires_at, now),
      ),
    )
    .returning({ id: passwordResetTokens.id });
  return expired.length;
}

/** A password change or reset: every open reset, welcome and sign-in link of the user stops working. */
export function expireOpenPasswordLinks(tx: Tx, userId: number): Promise<number> {
  return expireOpenLinks(tx, userId, PASSWORD_LINK_PURPOSES);
}

/**
 * Creates a link token for the user (inside the caller's transaction) and expires the user's older
 * unused ones of its kind (EXPIRES_ON_ISSUE). `data` is what the link acts on (an e-mail change's address).
 * Returns the token: it exists only in the e-mail.
 */
export async function issueLinkToken(
  tx: Tx,
  userId: number,
  purpose: TokenPurpose,
  validForMs: number,
  ip: string | null,
  data: string | null = null,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  await expireOpenLinks(tx, userId, EXPIRES_ON_ISSUE[purpose]);
  await tx.insert(passwordResetTokens).values({
    user_id: userId,
    token_hash: hashToken(token),
    purpose,
    data,
    expires_at: new Date(now.getTime() + validForMs).toISOString(),
    requested_ip: ip,
    created_at: now.toISOString(),
  });
  return token;
}
