import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users.ts';
import { createdAt, updatedAt } from './columns.ts';

/** Webhook endpoints (docs/api.md "Webhooks"): where events are POSTed, signed with the endpoint's secret. */
export const webhookEndpoints = sqliteTable('webhook_endpoints', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  url: text('url').notNull(),
  description: text('description'),
  /** JSON array of event names (shared/src/webhooks.ts WEBHOOK_EVENTS). Text, as on PostgreSQL. */
  events: text('events').notNull(),
  /** whsec_…: kept in clear because every delivery is signed with it (docs/security.md "Webhooks"). */
  secret: text('secret').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  disabled_reason: text('disabled_reason'),
  /** The first failure of the current run of failures; null after a success. */
  failing_since: text('failing_since'),
  created_by: integer('created_by').references(() => users.user_id, { onDelete: 'set null' }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/**
 * The outbox: one row per event and subscribed endpoint, written in the transaction of the change. The id is the
 * webhook-id header (msg_…), the same on every attempt; the worker claims due rows with a lease (claimed_until).
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpoint_id: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** The exact body sent on every attempt: {type, timestamp, data}. */
    payload: text('payload').notNull(),
    created_at: createdAt(),
    /** When the next attempt is due; null once delivered or given up. */
    next_attempt_at: text('next_attempt_at'),
    attempts: integer('attempts').notNull().default(0),
    last_status_code: integer('last_status_code'),
    last_error: text('last_error'),
    last_duration_ms: integer('last_duration_ms'),
    delivered_at: text('delivered_at'),
    /** The lease of the worker sending it: no other worker claims it before this time. */
    claimed_until: text('claimed_until'),
    claim_token: text('claim_token'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.next_attempt_at),
    index('webhook_deliveries_endpoint_idx').on(t.endpoint_id, t.created_at, t.id),
  ],
);

/** One row per attempt of a delivery (the delivery log's attempts). */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    delivery_id: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempted_at: text('attempted_at').notNull(),
    status_code: integer('status_code'),
    error: text('error'),
    duration_ms: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.delivery_id, t.id)],
);

/** Events announced once per key (license.expiring: once per license and cycle), whatever endpoints exist then. */
export const webhookEventKeys = sqliteTable('webhook_event_keys', {
  key: text('key').primaryKey(),
  created_at: createdAt(),
});
