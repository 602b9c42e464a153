import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** One row per changed setting; values are JSON. Defaults live in @lm/shared (docs/product.md section 9). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updated_at: text('updated_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
  updated_by: integer('updated_by'),
});
