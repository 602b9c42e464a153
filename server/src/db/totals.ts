/**
 * The running totals' recount (docs/decisions.md "Totals kept as changes happen"): license_totals,
 * license_month_totals and payment_totals are kept by triggers on licenses and payments; after a restore they are
 * recounted from the rows (a copy leaves them out and the target's triggers count them: DERIVED_TABLES,
 * portable-tables.ts). What reads them is server/src/modules/reports/totals.ts. Plain SQL, no table objects, that
 * reads the same on both engines but for the month of a date, picked by the transaction's engine (not the
 * process's), so it is right whichever database the handle is on.
 */
import { sql } from 'drizzle-orm';
import { rawExec } from './raw.ts';
import type { Tx } from './types.ts';

/**
 * The first day of expiration_date's month, as the month totals store it (migrations "month_totals"): 'YYYY-MM-01'
 * text on SQLite, a date on PostgreSQL (truncated as a timestamp without time zone, so the session's zone plays no part).
 */
const expirationMonth = (tx: Tx) =>
  tx.engine === 'postgres' ? sql`date_trunc('month', expiration_date::timestamp)::date` : sql`substr(expiration_date, 1, 7) || '-01'`;

/**
 * Recounts every running total from its rows, inside the caller's transaction: after a restore, which writes
 * licenses and payments in bulk (the triggers keep the totals then too; this makes them right whatever the order in
 * which the tables were filled).
 */
export async function rebuildTotals(tx: Tx): Promise<void> {
  await rawExec(tx, sql`DELETE FROM license_totals`);
  await rawExec(
    tx,
    sql`INSERT INTO license_totals (state, status, expiration_date, n)
        SELECT state, status, expiration_date, count(*) FROM licenses GROUP BY status, expiration_date, state`,
  );
  await rawExec(tx, sql`DELETE FROM license_month_totals`);
  await rawExec(
    tx,
    sql`INSERT INTO license_month_totals (state, status, expiration_month, n)
        SELECT state, status, ${expirationMonth(tx)}, count(*) FROM licenses GROUP BY status, ${expirationMonth(tx)}, state`,
  );
  await rawExec(tx, sql`DELETE FROM payment_totals`);
  await rawExec(
    tx,
    sql`INSERT INTO payment_totals (payment_date, status, payment_type, payment_method, n, cents)
        SELECT payment_date, status, payment_type, payment_method, count(*), sum(amount_cents) FROM payments
         GROUP BY payment_date, status, payment_type, payment_method`,
  );
}
