/**
 * The compliance judgement in SQL: the counterpart of shared/src/compliance.ts for filters, counts and sorts that
 * run in the database (docs/decisions.md "Compliance"). Every query that asks "expired?", "expiring?", "CE
 * complete?", "at risk?" or "what status does it read as?" builds it here; server/test/compliance.test.ts holds
 * these to the pure functions on one fixture. The fragments take the license columns they read, so the query
 * builder (`LICENSE_COLUMNS`) and raw SQL over an alias (`licenseColumnsOf('l')`) say the same thing.
 */
import { sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { addDays, AT_RISK_DAYS, EXPIRING_STATUSES, type ComplianceState, type LicenseStatus } from '@lm/shared';
import { licenses } from '../../db/schema/index.ts';
import { greatest } from '../../db/sql.ts';

type Expr = SQLWrapper | AnyColumn;
/** A calendar date: a value, a placeholder or an expression. */
type DateValue = string | SQLWrapper;

export interface LicenseColumns {
  status: Expr;
  expiration_date: Expr;
  ce_hours_required: Expr;
  ce_hours_completed: Expr;
  ce_topic_hours_missing: Expr;
}

export const LICENSE_COLUMNS: LicenseColumns = {
  status: licenses.status,
  expiration_date: licenses.expiration_date,
  ce_hours_required: licenses.ce_hours_required,
  ce_hours_completed: licenses.ce_hours_completed,
  ce_topic_hours_missing: licenses.ce_topic_hours_missing,
};

/** The same columns of `licenses AS l`, for the raw SQL of the reports. */
export const LICENSE_COLUMNS_AS_L: LicenseColumns = {
  status: sql`l.status`,
  expiration_date: sql`l.expiration_date`,
  ce_hours_required: sql`l.ce_hours_required`,
  ce_hours_completed: sql`l.ce_hours_completed`,
  ce_topic_hours_missing: sql`l.ce_topic_hours_missing`,
};

const inList = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The expiration date has passed (isExpired). */
export function expiredSql(c: LicenseColumns, today: DateValue): SQL {
  return sql`${c.expiration_date} < ${today}`;
}

/** The status a license reads as (licenseStatusOn): an Active license past its date is Expired. */
export function statusSql(c: LicenseColumns, today: DateValue): SQL<LicenseStatus> {
  return sql<LicenseStatus>`(CASE WHEN ${c.status} = 'Active' AND ${expiredSql(c, today)} THEN 'Expired' ELSE ${c.status} END)`;
}

/** Reads as `status` (licenseStatusOn), written so the (status, expiration_date) index serves it. */
export function statusIs(c: LicenseColumns, status: LicenseStatus, today: DateValue): SQL {
  if (status === 'Active') return sql`(${c.status} = 'Active' AND ${c.expiration_date} >= ${today})`;
  if (status === 'Expired') return sql`(${c.status} = 'Expired' OR ${c.status} = 'Active' AND ${expiredSql(c, today)})`;
  return sql`${c.status} = ${status}`;
}

/** The current cycle's hours and every required topic are met (hours_remaining = 0). */
export function ceCompleteSql(c: LicenseColumns): SQL {
  return sql`(${c.ce_hours_completed} >= ${c.ce_hours_required} AND ${c.ce_topic_hours_missing} = 0)`;
}

/** hoursRemaining: the larger of the total and the topics still missing. */
export function hoursRemainingSql(c: LicenseColumns): SQL<number> {
  return greatest(0, sql`${c.ce_hours_required} - ${c.ce_hours_completed}`, c.ce_topic_hours_missing);
}

/** The last day on which a license that is not complete counts as at risk. */
let lastEdge = { today: '', edge: '' };
export function atRiskEdge(today: string): string {
  // Every list call asks for today's: the day's answer is kept (docs/performance.md "API throughput").
  if (lastEdge.today !== today) lastEdge = { today, edge: addDays(today, AT_RISK_DAYS) };
  return lastEdge.edge;
}

/** complianceOf(...).state = `state`; `edge` is atRiskEdge(today). */
export function complianceIs(c: LicenseColumns, state: ComplianceState, today: DateValue, edge: DateValue): SQL {
  const open = sql`${c.expiration_date} >= ${today}`;
  switch (state) {
    case 'expired':
      return expiredSql(c, today);
    case 'complete':
      return sql`(${open} AND ${ceCompleteSql(c)})`;
    case 'at_risk':
      return sql`(${open} AND ${c.expiration_date} <= ${edge} AND NOT ${ceCompleteSql(c)})`;
    case 'on_track':
      return sql`(${c.expiration_date} > ${edge} AND NOT ${ceCompleteSql(c)})`;
  }
}

/**
 * The state's place in COMPLIANCE_STATES (at risk first), for sorting. The ranks are written out:
 * at_risk 0, expired 1, on_track 2, complete 3 (server/test/compliance.test.ts checks them against the list).
 */
export function complianceRankSql(c: LicenseColumns, today: DateValue, edge: DateValue): SQL<number> {
  return sql<number>`(CASE WHEN ${expiredSql(c, today)} THEN 1
    WHEN ${ceCompleteSql(c)} THEN 3
    WHEN ${c.expiration_date} <= ${edge} THEN 0
    ELSE 2 END)`;
}

/** "Expiring" (isExpiringWithin): a live status and an expiration date from `from` to `to`, both included. */
export function expiringSql(c: LicenseColumns, from: DateValue, to: DateValue): SQL {
  return sql`(${c.status} IN (${inList(EXPIRING_STATUSES)}) AND ${c.expiration_date} >= ${from} AND ${c.expiration_date} <= ${to})`;
}
