import crypto from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { sessions, users } from '../../db/schema/index.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { getSettings } from '../../core/settings.ts';

import type { AuthSession, AuthUser } from '../../core/identity.ts';
export type { AuthSession, AuthUser } from '../../core/identity.ts';

export const ABSOLUTE_SESSION_HOURS = 12;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 30_000;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Creates a session and returns the opaque token (256 random bits); only its hash is stored. */
export function createSession(
  db: DbOrTx,
  userId: number,
  meta: { ip: string | null; userAgent: string | null },
): { token: string; sessionId: number } {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  const row = db
    .insert(sessions)
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ABSOLUTE_SESSION_HOURS * 3_600_000).toISOString(),
      ip_address: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .returning({ session_id: sessions.session_id })
    .get();
  return { token, sessionId: row.session_id };
}

/**
 * Finds the live session for a token: not revoked, inside the 12-hour absolute limit and the idle
 * timeout of settings.session_timeout_minutes, and its user active and not deleted.
 */
export function resolveSession(db: Db, token: string): { user: AuthUser; session: AuthSession } | null {
  if (token.length > 200) return null;
  const row = db
    .select({
      session_id: sessions.session_id,
      last_seen_at: sessions.last_seen_at,
      expires_at: sessions.expires_at,
      revoked_at: sessions.revoked_at,
      user_id: users.user_id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      role_id: users.role_id,
      brokerage_id: users.brokerage_id,
      is_active: users.is_active,
      deleted_at: users.deleted_at,
    })
    .from(sessions)
    .innerJoin(users, eq(users.user_id, sessions.user_id))
    .where(eq(sessions.token_hash, hashToken(token)))
    .get();
  if (!row || row.revoked_at || !row.is_active || row.deleted_at) return null;
  const now = Date.now();
  if (Date.parse(row.expires_at) <= now) return null;
  const idleMs = getSettings(db).session_timeout_minutes * 60_000;
  const lastSeen = Date.parse(row.last_seen_at);
  if (lastSeen + idleMs <= now) return null;
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    db.update(sessions)
      .set({ last_seen_at: new Date(now).toISOString() })
      .where(eq(sessions.session_id, row.session_id))
      .run();
  }
  return {
    session: { session_id: row.session_id },
    user: {
      user_id: row.user_id,
      email: row.email,
      first_name: row.first_name,
      last_name: row.last_name,
      role_id: row.role_id,
      brokerage_id: row.brokerage_id,
    },
  };
}

export function revokeSession(db: DbOrTx, sessionId: number): void {
  db.update(sessions)
    .set({ revoked_at: new Date().toISOString() })
    .where(and(eq(sessions.session_id, sessionId), isNull(sessions.revoked_at)))
    .run();
}

/** Revokes every live session of a user, except `keepSessionId` when given. Returns how many. */
export function revokeUserSessions(db: DbOrTx, userId: number, keepSessionId?: number): number {
  const conditions = [eq(sessions.user_id, userId), isNull(sessions.revoked_at)];
  if (keepSessionId !== undefined) conditions.push(ne(sessions.session_id, keepSessionId));
  return db
    .update(sessions)
    .set({ revoked_at: new Date().toISOString() })
    .where(and(...conditions))
    .run().changes;
}
