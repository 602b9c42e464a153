import crypto from 'node:crypto';
import { AppError } from '../base/errors.ts';

/**
 * ETags and conditional requests on REST (docs/api.md "ETags", docs/decisions.md "ETags and If-Match").
 * An object's ETag is a strong validator: a hash of its answer (GET /api/<resource>/{id}) as canonical JSON, so it
 * changes whenever anything the caller sees changes (the row, its holder's name, its compliance on a new day).
 *   - GET answers it in `ETag` and answers 304 to an `If-None-Match` that names it (http/rest.ts);
 *   - PUT/PATCH pass `If-Match` to the service on the context (`ctx.ifMatch`); the service reads the object again
 *     inside its update's transaction and calls `assertIfMatch`, so the comparison and the write are atomic.
 */

export const PRECONDITION_FAILED_MESSAGE =
  'This object was changed by someone else since you read it (If-Match does not match its ETag). Read it again and retry.';
export const IF_MATCH_UNSUPPORTED_MESSAGE = 'This operation does not support If-Match';

/** JSON with object keys sorted (undefined values left out), so equal objects serialise equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The strong ETag of an answer: `"` + 32 characters of its sha256 (base64url) + `"`. */
export function etagOf(data: unknown): string {
  return `"${crypto.createHash('sha256').update(canonicalJson(data)).digest('base64url').slice(0, 32)}"`;
}

/** The entity tags of an If-Match / If-None-Match header: '*' or a list; weak tags keep their W/ prefix. */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** If-None-Match: weak comparison (W/"x" matches "x"), or `*`. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => (t.startsWith('W/') ? t.slice(2) : t);
  return tagsOf(header).some((t) => t === '*' || strip(t) === strip(etag));
}

/** If-Match: strong comparison (a weak tag never matches), or `*`. */
export function ifMatches(header: string, etag: string): boolean {
  return tagsOf(header).some((t) => t === '*' || t === etag);
}

/**
 * Inside an update's transaction: when the request carries If-Match (`ctx.ifMatch`), `current` (the object as
 * GET /api/<resource>/{id} answers it, read in this transaction) must still have that ETag, else 412 and the
 * transaction rolls back. Without If-Match it does nothing (and `read` is not called).
 */
export async function assertIfMatch(ctx: { ifMatch?: string }, read: () => Promise<unknown>): Promise<void> {
  if (ctx.ifMatch === undefined) return;
  if (!ifMatches(ctx.ifMatch, etagOf(await read()))) throw new AppError('PRECONDITION_FAILED', PRECONDITION_FAILED_MESSAGE);
}
