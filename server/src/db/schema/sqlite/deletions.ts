import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Tombstones: one row per deleted object, written in the delete's transaction, so an integrator's sync learns
 * what went away (GET /api/deletions?since=, docs/api.md "Changes since"). The holder and brokerage of the
 * object as of its deletion give the scope the list is read in.
 */
export const deletions = sqliteTable(
  'deletions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The REST resource: 'licenses', 'payments', ... */
    resource: text('resource').notNull(),
    object_id: integer('object_id').notNull(),
    /** The person the object belonged to (a license's holder), for the scope; null when none. */
    user_id: integer('user_id'),
    brokerage_id: integer('brokerage_id'),
    /** ISO 8601 UTC timestamp. */
    deleted_at: text('deleted_at')
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
  },
  (t) => [index('deletions_deleted_at_idx').on(t.deleted_at, t.id)],
);
