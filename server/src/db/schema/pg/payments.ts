import { check, date, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { PAYMENT_METHODS, PAYMENT_STATUSES, PAYMENT_TYPES } from '@lm/shared';
import { users } from './users.ts';
import { licenses } from './licenses.ts';
import { createdAt, updatedAt } from './columns.ts';

export const payments = pgTable(
  'payments',
  {
    payment_id: integer('payment_id').primaryKey().generatedByDefaultAsIdentity(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'restrict' }),
    license_id: integer('license_id').references(() => licenses.license_id, { onDelete: 'set null' }),
    /** Money is exact: integer cents. The API speaks dollars with 2 decimals. */
    amount_cents: integer('amount_cents').notNull(),
    payment_type: text('payment_type', { enum: PAYMENT_TYPES }).notNull().default('License Fee'),
    payment_method: text('payment_method', { enum: PAYMENT_METHODS }).notNull().default('Credit Card'),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('Completed'),
    description: text('description'),
    payment_date: date('payment_date', { mode: 'string' }).notNull(),
    created_by: integer('created_by').references(() => users.user_id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('payments_date_idx').on(t.payment_date),
    index('payments_user_date_idx').on(t.user_id, t.payment_date),
    index('payments_status_idx').on(t.status),
    index('payments_license_idx').on(t.license_id),
    check('payments_amount_check', sql`${t.amount_cents} > 0`),
  ],
);
