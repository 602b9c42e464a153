/**
 * Who is calling with an API key (docs/decisions.md "API keys", docs/security.md "API keys"): the key from its
 * `Authorization: Bearer lmk_<prefix>_<secret>`, the user it acts as, what it may never do, and its rate limit.
 *
 *   resolveApiKey   the live key: found by its prefix, the SHA-256 of the whole key compared in constant time, not
 *                   revoked, and its creator still active and still allowed to create such a key (the policy's
 *                   'apiKeys.create'); read on every request (no cache, so a revoke on any instance holds at once).
 *   assertKeyMay    the one place a key's scope is applied: a read key is refused (403) on any request that is not a
 *                   GET or HEAD; no key manages keys or acts as a person (sign-out, password, profile).
 *   takeKeyRate     the key's requests in the current window (API_KEY_RATE_LIMIT per API_KEY_RATE_WINDOW seconds):
 *                   the database counters on PostgreSQL (shared by every instance), memory on SQLite (one process).
 */
import crypto from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { API_KEY_PATTERN, can, scopesOf, type ApiKeyScope, type PolicyAction } from '@lm/shared';
import { apiKeys, users } from '../db/schema/index.ts';
import type { Db } from '../db/client.ts';
import { preparedSelectOne } from '../db/prepared.ts';
import { diskFullSince } from '../db/errors.ts';
import { AppError, forbidden } from '../base/errors.ts';
import { apiKeyUser, type ApiKeyCaller, type AuthUser } from './identity.ts';
import type { AppServices } from './context.ts';

export type { ApiKeyCaller } from './identity.ts';

/** last_used_at is written at most this often per key, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export const READ_ONLY_KEY_MESSAGE =
  'This API key is read-only: it may only read (GET). Create a key with the write scope to make changes.';
export const INVALID_KEY_MESSAGE = 'Invalid or revoked API key';
export const KEY_NOT_A_PERSON_MESSAGE = 'An API key cannot do this: sign in as a person (keys are managed in Settings › Integrations).';

/** Actions that are a person's own, never a key's: its session, password and profile, and the keys themselves. */
const PEOPLE_ONLY: ReadonlySet<PolicyAction> = new Set<PolicyAction>([
  'auth.logout',
  'auth.changePassword',
  'profile.update',
  'apiKeys.create',
  'apiKeys.revoke',
]);

export const hashApiKey = (key: string): string => crypto.createHash('sha256').update(key).digest('hex');

/** A new key: 72 random bits of prefix (to find it) and 256 of secret; only the hash of the whole is stored. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = crypto.randomBytes(9).toString('base64url');
  const secret = crypto.randomBytes(32).toString('base64url');
  const key = `lmk_${prefix}_${secret}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** Whether a bearer token is meant as an API key (then it is never tried as a session token). */
export const looksLikeApiKey = (token: string): boolean => token.startsWith('lmk_');

const keyColumns = {
  api_key_id: apiKeys.api_key_id,
  name: apiKeys.name,
  secret_hash: apiKeys.secret_hash,
  scope: apiKeys.scope,
  brokerage_id: apiKeys.brokerage_id,
  last_used_at: apiKeys.last_used_at,
  revoked_at: apiKeys.revoked_at,
  user_id: users.user_id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
  role_id: users.role_id,
  user_brokerage_id: users.brokerage_id,
  is_active: users.is_active,
  deleted_at: users.deleted_at,
};
interface KeyRow {
  api_key_id: number;
  name: string;
  secret_hash: string;
  scope: ApiKeyScope;
  brokerage_id: number | null;
  last_used_at: string | null;
  revoked_at: string | null;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role_id: number;
  user_brokerage_id: number | null;
  is_active: boolean;
  deleted_at: string | null;
}
const keyByPrefix = preparedSelectOne<typeof keyColumns, { prefix: string }, KeyRow[]>('api_key_by_prefix', keyColumns, (select) =>
  select
    .from(apiKeys)
    .innerJoin(users, eq(users.user_id, apiKeys.created_by))
    .where(eq(apiKeys.prefix, sql.placeholder('prefix'))),
);

/** The live key of a bearer token, or null (unknown, wrong secret, revoked, or its creator may no longer make it). */
export async function resolveApiKey(db: Db, token: string, method: string): Promise<ApiKeyCaller | null> {
  const match = API_KEY_PATTERN.exec(token);
  if (!match) return null;
  const [row] = await keyByPrefix(db, { prefix: match[1]! });
  if (!row || row.revoked_at || !row.is_active || row.deleted_at) return null;
  const expected = Buffer.from(row.secret_hash, 'hex');
  const given = Buffer.from(hashApiKey(token), 'hex');
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const creator: AuthUser = {
    user_id: row.user_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role_id: row.role_id,
    brokerage_id: row.user_brokerage_id,
  };
  // A key never outgrows its creator: an Admin demoted, or a Broker moved to another brokerage, stops its keys.
  if (!can(creator, 'apiKeys.create', { scopes: scopesOf(row.scope), brokerage_id: row.brokerage_id })) return null;
  await touch(db, row);
  return {
    api_key_id: row.api_key_id,
    name: row.name,
    scope: row.scope,
    user: apiKeyUser(creator, row.brokerage_id),
    writing: method !== 'GET' && method !== 'HEAD',
  };
}

/** Records the key's use, at most once a minute (only ever forward; skipped while the disk is full). */
async function touch(db: Db, row: KeyRow): Promise<void> {
  const now = Date.now();
  if (row.last_used_at && now - Date.parse(row.last_used_at) < TOUCH_INTERVAL_MS) return;
  if (diskFullSince(now) !== null) return;
  const used = new Date(now).toISOString();
  const stale = new Date(now - TOUCH_INTERVAL_MS).toISOString();
  await db
    .transaction((tx) =>
      tx
        .update(apiKeys)
        .set({ last_used_at: used })
        .where(and(eq(apiKeys.api_key_id, row.api_key_id), or(isNull(apiKeys.last_used_at), lt(apiKeys.last_used_at, stale)))),
    )
    .catch((err: unknown) => {
      if (!(err instanceof AppError && err.appCode === 'INSUFFICIENT_STORAGE')) throw err;
    });
}

/** The one place a key's limits apply (called by checkAccess): its scope, and what only a person may do. */
export function assertKeyMay(key: ApiKeyCaller, action: PolicyAction): void {
  if (PEOPLE_ONLY.has(action)) throw forbidden(KEY_NOT_A_PERSON_MESSAGE);
  if (key.writing && key.scope !== 'write') throw forbidden(READ_ONLY_KEY_MESSAGE);
}

// ---------------------------------------------------------------- rate limit

export interface KeyRateLimit {
  /** Requests per window. */
  max: number;
  windowSeconds: number;
}

export interface KeyRate {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
  over: boolean;
}

interface Window {
  start: number;
  count: number;
}
const windows = new WeakMap<AppServices, Map<number, Window>>();

/** Counts one request of the key in the current fixed window and says where it stands. */
export async function takeKeyRate(
  deps: { db: Db; services: AppServices },
  keyId: number,
  limit: KeyRateLimit,
  now = Date.now(),
): Promise<KeyRate> {
  const windowMs = limit.windowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  let count: number;
  if (deps.db.shared) {
    // One atomic upsert per request, shared by every instance; the window's start in the key starts each window at 0.
    const [hit] = await deps.db.counters.hit([{ key: `api_key:${keyId}:${start}`, max: limit.max, windowMs }], now);
    count = hit!.count;
  } else {
    let byKey = windows.get(deps.services);
    if (!byKey) windows.set(deps.services, (byKey = new Map()));
    if (byKey.size > 10_000) for (const [k, w] of byKey) if (w.start < start) byKey.delete(k);
    let w = byKey.get(keyId);
    if (!w || w.start !== start) byKey.set(keyId, (w = { start, count: 0 }));
    count = ++w.count;
  }
  return {
    limit: limit.max,
    remaining: Math.max(0, limit.max - count),
    reset: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    over: count > limit.max,
  };
}

export const rateLimitedMessage = (limit: KeyRateLimit, seconds: number): string =>
  `This API key has made ${limit.max} requests in ${limit.windowSeconds} seconds, the most allowed. Try again in ${seconds} seconds.`;
