import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { brokerages } from './brokerages.ts';
import { users } from './users.ts';
import { createdAt, isoTimestamp } from './columns.ts';

/**
 * API keys of integrators (docs/api.md "API keys", docs/security.md "API keys"). The secret `lmk_<prefix>_<secret>`
 * is shown once; only the prefix (to find the row) and the SHA-256 of the whole key are stored. A key with a
 * brokerage acts with a Broker's reach over it; one without, with an Admin's (docs/decisions.md "API keys").
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    api_key_id: integer('api_key_id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    /** The public part of the key (`lmk_<prefix>_…`), shown in lists. */
    prefix: text('prefix').notNull(),
    /** sha256 (hex) of the whole key; the key itself is never stored. */
    secret_hash: text('secret_hash').notNull(),
    /** 'read' or 'write' (write implies read). */
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    /** A brokerage's key (never SET NULL: that would widen it to an Admin's reach). */
    brokerage_id: integer('brokerage_id').references(() => brokerages.brokerage_id, { onDelete: 'cascade' }),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    /** Written at most about once a minute per key. */
    last_used_at: isoTimestamp('last_used_at'),
    revoked_at: isoTimestamp('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_prefix_unique').on(t.prefix),
    index('api_keys_brokerage_idx').on(t.brokerage_id),
    check('api_keys_scope_check', sql`${t.scope} IN ('read', 'write')`),
  ],
);
