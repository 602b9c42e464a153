/** System stats for the Reports screen's Overview (docs/product.md section 3, the Reports screen in section 2). Admin only. */
import { count, isNull, sql } from 'drizzle-orm';
import { LICENSE_STATUSES, REPORT_STRINGS, ROLE_IDS, roleName, toDollars, type SystemStats } from '@lm/shared';
import { courses, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { sumOf } from '../../db/sql.ts';
import { badRequest } from '../../base/errors.ts';
import { today } from '../../core/dates.ts';
import { statusSql } from '../licenses/compliance.sql.ts';
import { licenseTotalsRows, paymentTotalsOf, TOTALS_COLUMNS } from '../reports/totals.ts';

export interface StatsCtx {
  db: Db;
}

/**
 * Counts are the system's current totals (users not deleted, every license, every course). Revenue
 * is the sum of Completed payments; with start_date/end_date it is the revenue of payments dated in
 * that period, otherwise of all time.
 */
export async function systemStats(ctx: StatsCtx, input: { start_date?: string; end_date?: string } | undefined): Promise<SystemStats> {
  const { db } = ctx;
  const start = input?.start_date;
  const end = input?.end_date;
  if (start && end && start > end) throw badRequest(REPORT_STRINGS.dateOrder, [{ path: 'start_date', message: REPORT_STRINGS.dateOrder }]);

  const roleCounts = new Map(
    (await db.select({ role_id: users.role_id, n: count() }).from(users).where(isNull(users.deleted_at)).groupBy(users.role_id)).map(
      (r) => [r.role_id, r.n],
    ),
  );
  const by_role = ROLE_IDS.map((id) => ({ role_id: id, role_name: roleName(id), count: roleCounts.get(id) ?? 0 }));

  // The status each license reads as today (an Active license past its date is Expired), summed from the running
  // totals (docs/decisions.md "Totals kept as changes happen"; only today is compared, so the totals are read by
  // month but for today's month), grouped by position: the expression's date is a parameter, which PostgreSQL would
  // not match between SELECT and GROUP BY.
  const now = today();
  const statusCounts = new Map(
    (
      await db
        .select({ status: statusSql(TOTALS_COLUMNS, now), n: sumOf(sql`l.n`) })
        .from(sql`${licenseTotalsRows(now, now)} AS l`)
        .groupBy(sql`1`)
    ).map((r) => [r.status as string, r.n]),
  );
  const by_status = LICENSE_STATUSES.map((status) => ({ status, count: statusCounts.get(status) ?? 0 }));

  // Revenue: the Completed payments' cents in the period, summed from the running totals.
  const revenue = await paymentTotalsOf(db, { status: 'Completed', start_date: start, end_date: end });
  const [courseCount] = await db.select({ n: count() }).from(courses);

  return {
    users: { total: by_role.reduce((s, r) => s + r.count, 0), by_role },
    licenses: { total: by_status.reduce((s, r) => s + r.count, 0), by_status },
    courses: { total: courseCount?.n ?? 0 },
    payments: { total_amount: toDollars(revenue.revenue_cents) },
  };
}
