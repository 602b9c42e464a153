/**
 * The running totals' recount (docs/decisions.md "Totals kept as changes happen"): license_totals and payment_totals
 * are kept by triggers on licenses and payments; after a bulk rewrite (a restore, db:copy) they are recounted from
 * the rows. What reads them is server/src/modules/reports/totals.ts. Plain SQL that reads the same on both engines:
 * db:copy runs it on PostgreSQL from a process whose schema objects are SQLite's.
 */
import { sql } from 'drizzle-orm';
import { rawExec } from './raw.ts';
import type { Tx } from './types.ts';

/**
 * Recounts every running total from its rows, inside the caller's transaction: after a restore or a copy, which
 * write licenses and payments in bulk (the triggers keep the totals then too; this makes them right whatever the
 * order in which a copy fills the tables).
 */
export async function rebuildTotals(tx: Tx): Promise<void> {
  await rawExec(tx, sql`DELETE FROM license_totals`);
  await rawExec(
    tx,
    sql`INSERT INTO license_totals (state, status, expiration_date, n)
        SELECT state, status, expiration_date, count(*) FROM licenses GROUP BY status, expiration_date, state`,
  );
  await rawExec(tx, sql`DELETE FROM payment_totals`);
  await rawExec(
    tx,
    sql`INSERT INTO payment_totals (payment_date, status, payment_type, payment_method, n, cents)
        SELECT payment_date, status, payment_type, payment_method, count(*), sum(amount_cents) FROM payments
         GROUP BY payment_date, status, payment_type, payment_method`,
  );
}
