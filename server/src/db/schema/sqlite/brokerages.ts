import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { createdAt, updatedAt } from './columns.ts';

export const brokerages = sqliteTable(
  'brokerages',
  {
    brokerage_id: integer('brokerage_id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    website: text('website'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('brokerages_name_idx').on(sql`${t.name} COLLATE NOCASE`)],
);
