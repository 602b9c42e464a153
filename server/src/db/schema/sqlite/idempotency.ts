import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns.ts';

/**
 * One row per Idempotency-Key of a REST POST (server/src/http/idempotency.ts, docs/api.md "Safe retries"):
 * claimed before the call runs (status null: in progress), then the first answer (status, JSON body). Keyed per
 * caller, so two callers may use the same key. Rows older than 24 hours are expired and removed by the
 * background pass.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    /** Who called: `user:<id>` or `key:<id>` (an API key). */
    caller: text('caller').notNull(),
    idempotency_key: text('idempotency_key').notNull(),
    /** sha256 of the method, path and canonical JSON body. */
    request_hash: text('request_hash').notNull(),
    /** The first answer's HTTP status; null while the first request is in progress. */
    status: integer('status'),
    /** The first answer's JSON body; null while in progress, or when the answer held a secret. */
    body: text('body'),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.caller, t.idempotency_key] }), index('idempotency_keys_created_at_idx').on(t.created_at)],
);
