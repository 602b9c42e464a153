import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES, NOTIFICATION_TYPES, TRIGGER_EVENTS } from '@lm/shared';
import { users } from './users.ts';
import { licenses } from './licenses.ts';
import { createdAt, isoTimestamp, updatedAt } from './columns.ts';

export const notificationTemplates = pgTable(
  'notification_templates',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull().default('email'),
    trigger_event: text('trigger_event', { enum: TRIGGER_EVENTS }).notNull(),
    is_active: boolean('is_active').notNull().default(true),
    /** JSON array of variable names, e.g. ["user_name","license_number"]. Text, as on SQLite (not a json column). */
    variables: text('variables').notNull().default('[]'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('notification_templates_trigger_idx').on(t.trigger_event, t.is_active)],
);

export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    template_id: integer('template_id').references(() => notificationTemplates.id, { onDelete: 'set null' }),
    /** Snapshot of the template name, so history survives the template. */
    template_name: text('template_name').notNull(),
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    user_id: integer('user_id').references(() => users.user_id, { onDelete: 'set null' }),
    license_id: integer('license_id').references(() => licenses.license_id, { onDelete: 'set null' }),
    subject: text('subject'),
    body: text('body'),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    /** 'smtp' or 'outbox' (file written to $DATA_DIR/outbox). */
    transport: text('transport'),
    outbox_file: text('outbox_file'),
    error: text('error'),
    /** Dedup key for automatic reminders: one per license, threshold and cycle. */
    reminder_key: text('reminder_key'),
    created_at: createdAt(),
    sent_at: isoTimestamp('sent_at'),
  },
  (t) => [
    index('notification_deliveries_created_idx').on(t.created_at),
    index('notification_deliveries_status_idx').on(t.status),
    uniqueIndex('notification_deliveries_reminder_unique').on(t.reminder_key),
  ],
);
