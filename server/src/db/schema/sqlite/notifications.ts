import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { NOTIFICATION_EVENTS } from '@lm/shared';
import { users } from './users.ts';
import { createdAt, updatedAt } from './columns.ts';

/** In-app notifications: the notification centre of each user (the table keeps its first name, inbox_notifications). */
export const notifications = sqliteTable(
  'inbox_notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
    read_at: text('read_at'),
    created_at: createdAt(),
  },
  (t) => [
    index('inbox_notifications_user_idx').on(t.user_id, t.created_at, t.id),
    index('inbox_notifications_unread_idx').on(t.user_id, t.read_at),
    uniqueIndex('inbox_notifications_dedup_unique').on(t.dedup_key),
  ],
);

/** Per user and event: which channels reach them (a missing row means the defaults). */
export const notificationPreferences = sqliteTable(
  'notification_preferences',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'cascade' }),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    in_app: integer('in_app', { mode: 'boolean' }).notNull(),
    email: integer('email', { mode: 'boolean' }).notNull(),
    sms: integer('sms', { mode: 'boolean' }).notNull(),
    updated_at: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.event] })],
);

/** The secret of each user's calendar (.ics) feed, stored as its SHA-256; rotating replaces it. */
export const calendarFeeds = sqliteTable(
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
