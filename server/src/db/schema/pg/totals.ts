import { bigint, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Running totals of the licenses (docs/decisions.md "Totals kept as changes happen"): how many licenses have each
 * (state, stored status, expiration date). Kept by triggers on licenses in the writing transaction (insert, delete,
 * an update of any of the three; migration "scope"), rebuilt by rebuildTotals (db/totals.ts) after a restore.
 * The status a license reads as depends on today (an Active license past its date reads Expired), so the
 * reports sum these rows with the compliance judgement's date conditions instead of counting licenses.
 */
export const licenseTotals = pgTable(
  'license_totals',
  {
    state: text('state').notNull(),
    status: text('status').notNull(),
    expiration_date: date('expiration_date', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.status, t.expiration_date, t.state] }),
    // The reports read the days of the current and the expiring-soon months (a range; the key leads with status).
    index('license_totals_expiration_idx').on(t.expiration_date),
  ],
);

/**
 * The same counts by month (docs/decisions.md "Totals kept as changes happen"): how many licenses have each (state,
 * stored status, expiration month), the month written as its first day. Kept by the same trigger function as
 * license_totals in the same transaction (migration "month_totals"), recounted by rebuildTotals. The figures only
 * compare a date with today and the end of "expiring soon", so a month wholly before today's or wholly after the
 * expiring-soon end's judges alike whatever its day: the reports read its row instead of its days
 * (reports/totals.ts licenseTotalsRows), which keeps what they read bounded by states x statuses x months.
 */
export const licenseMonthTotals = pgTable(
  'license_month_totals',
  {
    state: text('state').notNull(),
    status: text('status').notNull(),
    expiration_month: date('expiration_month', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.status, t.expiration_month, t.state] })],
);

/**
 * Running totals of the payments: how many payments and how many cents have each (payment date, status, type,
 * method), kept the same way (triggers on payments, migration "scope3"; rebuildTotals after a restore). The
 * payments summary and the Admin's revenue sum these rows when no filter needs the payments themselves.
 */
export const paymentTotals = pgTable(
  'payment_totals',
  {
    payment_date: date('payment_date', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    payment_type: text('payment_type').notNull(),
    payment_method: text('payment_method').notNull(),
    n: integer('n').notNull(),
    // 64-bit: one day's payments of one kind may pass 2^31 cents ($21.4M; a payment may be $1M).
    cents: bigint('cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.payment_date, t.status, t.payment_type, t.payment_method] })],
);
