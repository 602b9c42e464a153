import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { NOTIFICATION_EVENTS } from '@lm/shared';
import { users } from './users.ts';
import { createdAt, isoTimestamp, updatedAt } from './columns.ts';

/** In-app notifications: the notification centre of each user (the table keeps its first name, inbox_notifications). */
export const notifications = pgTable(
  'inbox_notifications',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    /** Client path of the object (e.g. /licenses?open=12), or null. */
    link: text('link'),
    object_type: text('object_type'),
    object_id: integer('object_id'),
    /** Dedup key for notifications of the daily pass: one per user, object, event and threshold. */
    dedup_key: text('dedup_key'),
    read_at: isoTimestamp('read_at'),
    created_at: createdAt(),
  },
  (t) => [
    index('inbox_notifications_user_idx').on(t.user_id, t.created_at, t.id),
    index('inbox_notifications_unread_idx').on(t.user_id, t.read_at),
    uniqueIndex('inbox_notifications_dedup_unique').on(t.dedup_key),
  ],
);

/** Per user and event: which channels reach them (a missing row means the defaults). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    in_app: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
    sms: boolean('sms').notNull(),
    updated_at: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.event] })],
);

/** The secret of each user's calendar (.ics) feed, stored as its SHA-256; rotating replaces it. */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    /** SHA-256 of the secret in the feed's URL. */
    token_hash: text('token_hash').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_user_unique').on(t.user_id)],
);
