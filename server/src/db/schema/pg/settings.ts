import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { isoTimestamp } from './columns.ts';

/** One row per changed setting; values are JSON text (as on SQLite). Defaults live in @lm/shared (docs/product.md section 9). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updated_at: isoTimestamp('updated_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
  updated_by: integer('updated_by'),
});
