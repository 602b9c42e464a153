/**
 * The running totals (docs/decisions.md "Totals kept as changes happen"): license_totals holds how many licenses
 * have each (state, stored status, expiration date), payment_totals how many payments and cents have each (date,
 * status, type, method), kept by triggers in every writing transaction (migrations "scope", "scope3", both
 * engines) and recounted after a restore or a copy (db/totals.ts rebuildTotals). The reports, the Admin's stats and
 * the payments summary sum these rows instead of counting licenses and payments, so their cost follows the days and
 * kinds there are, not the number of rows.
 */
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { licenseTotals, paymentTotals } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/types.ts';
import type { LicenseColumns } from '../licenses/compliance.sql.ts';

/**
 * license_totals' columns for the compliance judgement's status and date fragments (statusSql, statusIs,
 * expiringSql), which read only the stored status and the expiration date. The CE figures are not kept per total:
 * a fragment that reads them (ceCompleteSql, complianceIs) is not for totals, and NULL makes any such use count nothing.
 */
export const TOTALS_COLUMNS: LicenseColumns = {
  status: licenseTotals.status,
  expiration_date: licenseTotals.expiration_date,
  ce_hours_required: sql`NULL`,
  ce_hours_completed: sql`NULL`,
  ce_topic_hours_missing: sql`NULL`,
};

/** The payments summary's filters that the totals can answer (the others need the payments themselves). */
export interface PaymentTotalsFilter {
  status?: string | undefined;
  payment_type?: string | undefined;
  payment_method?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/**
 * Counts and cents of the payments matching `f`, summed from payment_totals (every payment, no scope: for callers
 * who see every payment). Revenue is the Completed payments' cents (docs/decisions.md "Total Revenue").
 */
export async function paymentTotalsOf(db: DbOrTx, f: PaymentTotalsFilter) {
  const t = paymentTotals;
  const conds: Array<SQL | undefined> = [
    f.status ? eq(t.status, f.status) : undefined,
    f.payment_type ? eq(t.payment_type, f.payment_type) : undefined,
    f.payment_method ? eq(t.payment_method, f.payment_method) : undefined,
    f.start_date ? gte(t.payment_date, f.start_date) : undefined,
    f.end_date ? lte(t.payment_date, f.end_date) : undefined,
  ];
  const by = (status: string) => sql`coalesce(sum(CASE WHEN ${t.status} = ${status} THEN ${t.n} ELSE 0 END), 0)`.mapWith(Number);
  const [row] = await db
    .select({
      revenue_cents: sql`coalesce(sum(CASE WHEN ${t.status} = 'Completed' THEN ${t.cents} ELSE 0 END), 0)`.mapWith(Number),
      completed: by('Completed'),
      pending: by('Pending'),
      failed: by('Failed'),
      refunded: by('Refunded'),
      total_payments: sql`coalesce(sum(${t.n}), 0)`.mapWith(Number),
    })
    .from(t)
    .where(and(...conds));
  return row ?? { revenue_cents: 0, completed: 0, pending: 0, failed: 0, refunded: 0, total_payments: 0 };
}
