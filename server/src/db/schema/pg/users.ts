import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { brokerages } from './brokerages.ts';
import { createdAt, isoTimestamp, updatedAt } from './columns.ts';

export const users = pgTable(
  'users',
  {
    user_id: integer('user_id').primaryKey().generatedByDefaultAsIdentity(),
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
    is_active: boolean('is_active').notNull().default(true),
    /** Set by "delete": the row stays for history (licenses, payments, audit) but leaves every list. */
    deleted_at: isoTimestamp('deleted_at'),
    failed_login_attempts: integer('failed_login_attempts').notNull().default(0),
    locked_until: isoTimestamp('locked_until'),
    last_login: isoTimestamp('last_login'),
    login_count: integer('login_count').notNull().default(0),
    password_changed_at: isoTimestamp('password_changed_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.role_id, t.deleted_at),
    index('users_brokerage_idx').on(t.brokerage_id, t.role_id, t.deleted_at, t.user_id),
    index('users_created_at_idx').on(t.created_at),
    // People in name order (db/sql.ts personNameOrder): a first page by name reads its rows in order and stops.
    index('users_name_idx').on(sql`lower(${t.last_name})`, sql`lower(${t.first_name})`, t.user_id),
    check('users_role_check', sql`${t.role_id} IN (1, 2, 3, 4)`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    session_id: integer('session_id').primaryKey().generatedByDefaultAsIdentity(),
    // Sessions are not history: they may go with their user.
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    /** sha256 of the opaque token; the token itself is never stored. */
    token_hash: text('token_hash').notNull(),
    created_at: createdAt(),
    last_seen_at: isoTimestamp('last_seen_at').notNull(),
    /** The 12-hour absolute limit. */
    expires_at: isoTimestamp('expires_at').notNull(),
    revoked_at: isoTimestamp('revoked_at'),
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
export const loginCounters = pgTable('login_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  /** Epoch ms when the count lapses; while over the limit it is the end of the lock. */
  reset_at: bigint('reset_at', { mode: 'number' }).notNull(),
});

/**
 * Sources that signed in to an account with the right password before: a browser's device cookie
 * (only its SHA-256 is stored) or, for API clients, the client address. They keep signing in while
 * strangers are locked out, each with a counter of its own.
 */
export const knownSources = pgTable(
  'known_sources',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    /** 'device' (value = sha256 of the cookie) or 'address' (value = the client IP). */
    kind: text('kind', { enum: ['device', 'address'] }).notNull(),
    value: text('value').notNull(),
    created_at: createdAt(),
    last_used_at: isoTimestamp('last_used_at').notNull(),
  },
  (t) => [uniqueIndex('known_sources_unique').on(t.user_id, t.kind, t.value)],
);
