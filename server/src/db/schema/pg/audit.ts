import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { isoTimestamp } from './columns.ts';

/** Append-only: nothing in the product updates or deletes these rows (triggers in drizzle/pg, as on SQLite). */
export const auditLogs = pgTable(
  'audit_logs',
  {
    log_id: integer('log_id').primaryKey().generatedByDefaultAsIdentity(),
    timestamp: isoTimestamp('timestamp')
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
    // No foreign key: the log outlives anything it mentions, and failed sign-ins name no user.
    user_id: integer('user_id'),
    /** The actor's name and e-mail as they were when the entry was written (a label such as 'System' for the system). */
    actor_name: text('actor_name'),
    actor_email: text('actor_email'),
    action: text('action').notNull(),
    target_table: text('target_table'),
    target_id: integer('target_id'),
    ip_address: text('ip_address'),
    old_values: text('old_values'),
    new_values: text('new_values'),
  },
  (t) => [
    index('audit_timestamp_idx').on(t.timestamp, t.log_id),
    index('audit_action_idx').on(t.action, t.timestamp, t.log_id),
    index('audit_table_idx').on(t.target_table, t.timestamp, t.log_id),
    index('audit_user_idx').on(t.user_id, t.timestamp, t.log_id),
  ],
);
