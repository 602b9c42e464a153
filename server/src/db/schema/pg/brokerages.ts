import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, updatedAt } from './columns.ts';

export const brokerages = pgTable(
  'brokerages',
  {
    brokerage_id: integer('brokerage_id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    website: text('website'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  // PostgreSQL has no NOCASE collation: the case-insensitive order is lower(name) (SQLite: name COLLATE NOCASE).
  (t) => [index('brokerages_name_idx').on(sql`lower(${t.name})`)],
);
