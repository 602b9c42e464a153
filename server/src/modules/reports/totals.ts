/**
 * The running totals (docs/decisions.md "Totals kept as changes happen"): license_totals holds how many licenses
 * have each (state, stored status, expiration date), license_month_totals the same by expiration month, payment_totals
 * how many payments and cents have each (date, status, type, method), kept by triggers in every writing transaction
 * (migrations "growth" and "month_totals", both engines) and recounted after a restore (db/totals.ts rebuildTotals).
 * The reports, the Admin's stats and the payments summary sum these rows instead of counting licenses and payments,
 * so their cost follows the months and kinds there are, not the number of rows.
 */
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { addDays, startOfMonth } from '@lm/shared';
import { licenseMonthTotals, licenseTotals, paymentTotals } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/types.ts';
import type { LicenseColumns } from '../licenses/compliance.sql.ts';

/**
 * The licenses' running totals as rows of (state, status, expiration_date, n), for judging on `now` with an
 * "expiring soon" window ending on `soon`: a FROM-able subquery (`FROM ${licenseTotalsRows(now, soon)} AS l`). The
 * compliance fragments compare the expiration date only with `now` and `soon`, so every day of a month wholly before
 * month(now) or wholly after month(soon) judges as its first day does: those months come as one row each from
 * license_month_totals (its first day as the date), the months from month(now) to month(soon) as their days from
 * license_totals (a range of license_totals_expiration_idx). What is read is bounded by states x statuses x months
 * plus the days of those few months, not by the days there are. Only for figures that compare the date with `now`
 * and `soon` and nothing else.
 */
export function licenseTotalsRows(now: string, soon: string): SQL {
  const [early, late] = now <= soon ? [now, soon] : [soon, now];
  const first = startOfMonth(early);
  // The first day of the month after late's: its month's first day + 31 days is always in the next month.
  const after = startOfMonth(addDays(startOfMonth(late), 31));
  const m = licenseMonthTotals;
  const d = licenseTotals;
  return sql`(SELECT ${m.state} AS state, ${m.status} AS status, ${m.expiration_month} AS expiration_date, ${m.n} AS n
                FROM ${m} WHERE ${m.expiration_month} < ${first} OR ${m.expiration_month} >= ${after}
              UNION ALL
              SELECT ${d.state}, ${d.status}, ${d.expiration_date}, ${d.n}
                FROM ${d} WHERE ${d.expiration_date} >= ${first} AND ${d.expiration_date} < ${after})`;
}

/**
 * The columns of licenseTotalsRows read as `l`, for the compliance judgement's status and date fragments
 * (statusSql, statusIs, expiringSql), which read only the stored status and the expiration date. The CE figures are
 * not kept per total: a fragment that reads them (ceCompleteSql, complianceIs) is not for totals, and NULL makes any
 * such use count nothing.
 */
export const TOTALS_COLUMNS: LicenseColumns = {
  status: sql`l.status`,
  expiration_date: sql`l.expiration_date`,
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
