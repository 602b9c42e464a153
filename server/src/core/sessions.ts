import crypto from 'node:crypto';
import { and, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import { sessions, users } from '../db/schema/index.ts';
import type { Db, Tx } from '../db/client.ts';
import { preparedSelectOne } from '../db/prepared.ts';
import { getSettings } from './settings.ts';
import { diskFullSince } from '../db/errors.ts';
import { AppError } from '../base/errors.ts';

import type { AuthSession, AuthUser } from './identity.ts';
export type { AuthSession, AuthUser } from './identity.ts';

export const ABSOLUTE_SESSION_HOURS = 12;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 30_000;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Creates a session and returns the opaque token (256 random bits); only its hash is stored. */
export async function createSession(
  tx: Tx,
  userId: number,
  meta: { ip: string | null; userAgent: string | null },
): Promise<{ token: string; sessionId: number }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  const [row] = await tx
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
    .returning({ session_id: sessions.session_id });
  return { token, sessionId: row!.session_id };
}

/**
 * Finds the live session for a token: not revoked, inside the 12-hour absolute limit and the idle
 * timeout of settings.session_timeout_minutes, and its user active and not deleted.
 */
interface SessionRow {
  session_id: number;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role_id: number;
  brokerage_id: number | null;
  is_active: boolean;
  deleted_at: string | null;
}

/** Every signed-in request starts here: prepared once per connection (docs/performance.md "API throughput"). */
const sessionColumns = {
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
};
const sessionByTokenHash = preparedSelectOne<typeof sessionColumns, { hash: string }, SessionRow[]>(
  'session_by_token_hash',
  sessionColumns,
  (select) =>
    select
      .from(sessions)
      .innerJoin(users, eq(users.user_id, sessions.user_id))
      .where(eq(sessions.token_hash, sql.placeholder('hash'))),
);

export async function resolveSession(db: Db, token: string): Promise<{ user: AuthUser; session: AuthSession } | null> {
  if (token.length > 200) return null;
  const [row] = await sessionByTokenHash(db, { hash: hashToken(token) });
  if (!row || row.revoked_at || !row.is_active || row.deleted_at) return null;
  const now = Date.now();
  if (Date.parse(row.expires_at) <= now) return null;
  const idleMs = (await getSettings(db)).session_timeout_minutes * 60_000;
  const lastSeen = Date.parse(row.last_seen_at);
  if (lastSeen + idleMs <= now) return null;
  // While the disk is full the touch is skipped, so reads keep working (docs/security.md "Faults").
  if (now - lastSeen > TOUCH_INTERVAL_MS && diskFullSince(now) === null) {
    const seen = new Date(now).toISOString();
    // Only ever moves forward: of concurrent requests of one session, the latest time stays.
    await db
      .transaction((tx) =>
        tx
          .update(sessions)
          .set({ last_seen_at: seen })
          .where(and(eq(sessions.session_id, row.session_id), lt(sessions.last_seen_at, seen))),
      )
      .catch((err: unknown) => {
        // A touch that cannot be written (a full disk) is skipped; the request is a read and goes on.
        if (!(err instanceof AppError && err.appCode === 'INSUFFICIENT_STORAGE')) throw err;
      });
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

export async function revokeSession(tx: Tx, sessionId: number): Promise<void> {
  await tx
    .update(sessions)
    .set({ revoked_at: new Date().toISOString() })
    .where(and(eq(sessions.session_id, sessionId), isNull(sessions.revoked_at)));
}

/** Revokes every live session of a user, except `keepSessionId` when given. Returns how many. */
export async function revokeUserSessions(tx: Tx, userId: number, keepSessionId?: number): Promise<number> {
  const conditions = [eq(sessions.user_id, userId), isNull(sessions.revoked_at)];
  if (keepSessionId !== undefined) conditions.push(ne(sessions.session_id, keepSessionId));
  const revoked = await tx
    .update(sessions)
    .set({ revoked_at: new Date().toISOString() })
    .where(and(...conditions))
    .returning({ id: sessions.session_id });
  return revoked.length;
}
