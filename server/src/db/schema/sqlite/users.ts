import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { brokerages } from './brokerages.ts';
import { createdAt, updatedAt } from './columns.ts';

export const users = sqliteTable(
  'users',
  {
    user_id: integer('user_id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    /** 1 Admin, 2 Broker, 3 Agent, 4 School */
    role_id: integer('role_id').notNull(),
    // Deleting a brokerage unassigns its people; it never removes them.
    brokerage_id: integer('brokerage_id').references(() => brokerages.brokerage_id, { onDelete: 'set null' }),
    phone_number: text('phone_number'),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    zip_code: text('zip_code'),
    is_active: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    /** Set by "delete": the row stays for history (licenses, payments, audit) but leaves every list. */
    deleted_at: text('deleted_at'),
    failed_login_attempts: integer('failed_login_attempts').notNull().default(0),
    locked_until: text('locked_until'),
    last_login: text('last_login'),
    login_count: integer('login_count').notNull().default(0),
    password_changed_at: text('password_changed_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.role_id, t.deleted_at),
    index('users_brokerage_idx').on(t.brokerage_id, t.role_id, t.deleted_at, t.user_id),
    index('users_created_at_idx').on(t.created_at),
    // People in name order (db/sql.ts personNameOrder): a first page by name reads its rows in order and stops.
    index('users_name_idx').on(sql`${t.last_name} COLLATE NOCASE`, sql`${t.first_name} COLLATE NOCASE`, t.user_id),
    check('users_role_check', sql`${t.role_id} IN (1, 2, 3, 4)`),
  ],
);

export const sessions = sqliteTable(
  'sessions',
  {
    session_id: integer('session_id').primaryKey({ autoIncrement: true }),
    // Sessions are not history: they may go with their user.
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    /** sha256 of the opaque token; the token itself is never stored. */
    token_hash: text('token_hash').notNull(),
    created_at: createdAt(),
    last_seen_at: text('last_seen_at').notNull(),
    /** The 12-hour absolute limit. */
    expires_at: text('expires_at').notNull(),
    revoked_at: text('revoked_at'),
    ip_address: text('ip_address'),
    user_agent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_unique').on(t.token_hash), index('sessions_user_idx').on(t.user_id)],
);

/**
 * Sign-in attempt counters (docs/security.md): one row per key, `account:<email>|<source>`,
 * `account:<email>` (unknown sources only) and `source:<source>`. Attempts are counted before the
 * password is checked by one INSERT ... ON CONFLICT DO UPDATE ... RETURNING, so concurrency and tRPC
 * batches cannot exceed the limit. Keyed on the e-mail string, never the user id: unknown and known
 * addresses behave alike.
 */
export const loginCounters = sqliteTable('login_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  /** Epoch ms when the count lapses; while over the limit it is the end of the lock. */
  reset_at: integer('reset_at').notNull(),
});

/**
 * Sources that signed in to an account with the right password before: a browser's device cookie
 * (only its SHA-256 is stored) or, for API clients, the client address. They keep signing in while
 * strangers are locked out, each with a counter of its own.
 */
export const knownSources = sqliteTable(
  'known_sources',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    /** 'device' (value = sha256 of the cookie) or 'address' (value = the client IP). */
    kind: text('kind', { enum: ['device', 'address'] }).notNull(),
    value: text('value').notNull(),
    created_at: createdAt(),
    last_used_at: text('last_used_at').notNull(),
  },
  (t) => [uniqueIndex('known_sources_unique').on(t.user_id, t.kind, t.value)],
);
