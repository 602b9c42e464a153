import crypto from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { AppError } from '../base/errors.ts';
import type { Context, JobDeps } from '../core/context.ts';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { canonicalJson } from './etag.ts';

/**
 * `Idempotency-Key` on REST POSTs (docs/api.md "Safe retries", docs/decisions.md "Idempotency keys"). The REST
 * adapter (http/rest.ts) is the one caller: before the procedure runs it claims the key for the caller
 * (an insert that a unique primary key makes atomic across instances), then stores the answer.
 *   - same key, same request, within 24 h: the stored answer again (status and body), nothing runs;
 *   - same key, another request (method, path or body): 409, nothing runs;
 *   - same key while the first is still running: 409 "in progress";
 *   - answers of 429 and 5xx are not kept (the key is released, so the client may retry).
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key and its answer are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim with no answer after this long belongs to a request that died (a crash): a retry takes it over. */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export const KEY_INVALID_MESSAGE = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters';
export const KEY_REUSED_MESSAGE =
  'This Idempotency-Key was already used for a different request (another path or body). Use a new key for a new request.';
export const KEY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is in progress. Try again in a moment.';
export const SECRET_ANSWER_MESSAGE =
  'A request with this Idempotency-Key already succeeded. Its answer held a secret, which is shown only once, so it is not repeated.';

/** Answer keys whose values are shown once (API key and webhook secrets, session tokens): such answers are not kept. */
const SECRET_KEY = /secret|token|password/i;

/** The caller a key belongs to: an API key, else the signed-in person; null (no idempotency) for anonymous calls. */
export function callerOf(ctx: Context): string | null {
  if (ctx.apiKey) return `key:${ctx.apiKey.api_key_id}`;
  return ctx.user ? `user:${ctx.user.user_id}` : null;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? {})}`)
    .digest('hex');
}

/** The header's key, or null when the request has none; 400 when it is malformed. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return null;
  if (!KEY_RE.test(value)) throw new AppError('BAD_REQUEST', KEY_INVALID_MESSAGE);
  return value;
}

export type Claim = { kind: 'run' } | { kind: 'replay'; status: number; body: string };

/**
 * Claims `key` for `caller` in one transaction: a new (or expired, or abandoned) key is inserted and the request
 * runs; a kept answer is replayed; otherwise 409. On PostgreSQL two instances inserting the same key at once
 * serialise on the primary key: one runs, the other sees the claim.
 */
export async function claimKey(db: Db, caller: string, key: string, hash: string, now = new Date()): Promise<Claim> {
  const createdAt = now.toISOString();
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ caller, idempotency_key: key, request_hash: hash, created_at: createdAt })
      .onConflictDoNothing()
      .returning({ caller: idempotencyKeys.caller });
    if (inserted.length === 1) return { kind: 'run' } as const;
    const [row] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.idempotency_key, key)));
    if (!row) throw new AppError('CONFLICT', KEY_IN_PROGRESS_MESSAGE);
    const age = now.getTime() - Date.parse(row.created_at);
    const stale = age >= IDEMPOTENCY_TTL_MS || (row.status === null && age >= ABANDONED_AFTER_MS);
    if (stale) {
      await tx
        .update(idempotencyKeys)
        .set({ request_hash: hash, status: null, body: null, created_at: createdAt })
        .where(and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.idempotency_key, key)));
      return { kind: 'run' } as const;
    }
    if (row.request_hash !== hash) throw new AppError('CONFLICT', KEY_REUSED_MESSAGE);
    if (row.status === null) throw new AppError('CONFLICT', KEY_IN_PROGRESS_MESSAGE);
    if (row.body === null) throw new AppError('CONFLICT', SECRET_ANSWER_MESSAGE);
    return { kind: 'replay', status: row.status, body: row.body } as const;
  });
}

function holdsSecret(data: unknown): boolean {
  return !!data && typeof data === 'object' && Object.keys(data).some((k) => SECRET_KEY.test(k));
}

/**
 * Records the first answer of a claimed key; answers that a retry may change (429, 5xx) release the key instead.
 * An answer holding a secret keeps only its status (a retry is told it succeeded, without the secret).
 */
export async function settleKey(db: Db, caller: string, key: string, status: number, data: unknown): Promise<void> {
  const where = and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.idempotency_key, key));
  await db.transaction(async (tx) => {
    if (status >= 500 || status === 429) {
      await tx.delete(idempotencyKeys).where(where);
      return;
    }
    const body = holdsSecret(data) ? null : JSON.stringify(data ?? null);
    await tx.update(idempotencyKeys).set({ status, body }).where(where);
  });
}

/** The background pass: removes keys older than 24 hours. Returns how many went. */
export async function removeExpiredKeys(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const removed = await db.transaction((tx) =>
    tx.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, before)).returning({ caller: idempotencyKeys.caller }),
  );
  return removed.length;
}

/** How often the background pass removes expired keys. */
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/** The background pass of jobs.ts: expired keys removed hourly (every instance may run it; a delete is idempotent). */
export function startIdempotencyCleanup(deps: JobDeps): () => void {
  const run = () => void removeExpiredKeys(deps.db).catch((err: unknown) => deps.app.log.error({ err }, 'idempotency keys cleanup failed'));
  const timer = setInterval(run, CLEANUP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
