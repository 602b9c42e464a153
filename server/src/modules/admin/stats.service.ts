/** System stats for the Reports screen's Overview (docs/product.md section 3, the Reports screen in section 2). Admin only. */
import { and, count, eq, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { LICENSE_STATUSES, REPORT_STRINGS, ROLE_IDS, roleName, toDollars, type SystemStats } from '@lm/shared';
import { courses, licenses, payments, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { sumOf } from '../../db/sql.ts';
import { badRequest } from '../../base/errors.ts';
import { today } from '../../core/dates.ts';
import { LICENSE_COLUMNS, statusSql } from '../licenses/compliance.sql.ts';

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

  // The status each license reads as today (an Active license past its date is Expired), grouped by position:
  // the expression's date is a parameter, which PostgreSQL would not match between SELECT and GROUP BY.
  const statusCounts = new Map(
    (
      await db
        .select({ status: statusSql(LICENSE_COLUMNS, today()), n: count() })
        .from(licenses)
        .groupBy(sql`1`)
    ).map((r) => [r.status as string, r.n]),
  );
  const by_status = LICENSE_STATUSES.map((status) => ({ status, count: statusCounts.get(status) ?? 0 }));

  const paymentConds: Array<SQL | undefined> = [eq(payments.status, 'Completed')];
  if (start) paymentConds.push(gte(payments.payment_date, start));
  if (end) paymentConds.push(lte(payments.payment_date, end));
  const [revenue] = await db
    .select({ cents: sumOf(payments.amount_cents) })
    .from(payments)
    .where(and(...paymentConds));
  const [courseCount] = await db.select({ n: count() }).from(courses);

  return {
    users: { total: by_role.reduce((s, r) => s + r.count, 0), by_role },
    licenses: { total: by_status.reduce((s, r) => s + r.count, 0), by_status },
    courses: { total: courseCount?.n ?? 0 },
    payments: { total_amount: toDollars(Number(revenue?.cents ?? 0)) },
  };
}
