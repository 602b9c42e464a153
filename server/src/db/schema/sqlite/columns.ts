import { text } from 'drizzle-orm/sqlite-core';

/** ISO 8601 UTC timestamp text, set when the row is written. Sorts correctly as text. */
export const createdAt = () =>
  text('created_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString());

export const updatedAt = () =>
  text('updated_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString())
    .$onUpdateFn(() => new Date().toISOString());
