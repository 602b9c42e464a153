/**
 * Conditions of the reports' raw SQL that read the same on SQLite and PostgreSQL (aliases: l licenses,
 * u users, c completions). The statements are in reports.queries.ts; their dialect-specific parts in
 * reports.queries.sqlite.ts / reports.queries.pg.ts.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ROLE, type ReportFilters } from '@lm/shared';
import type { Period } from './period.ts';
import { LICENSE_COLUMNS_AS_L, statusIs } from '../licenses/compliance.sql.ts';

export type Filters = NonNullable<ReportFilters>;

/** Conditions on the holder (alias u). */
export function peopleConds(f: Filters): SQL[] {
  const conds: SQL[] = [];
  if (f.brokerage_id !== undefined) conds.push(sql`u.brokerage_id = ${Number(f.brokerage_id)}`);
  if (f.user_role !== undefined) conds.push(sql`u.role_id = ${ROLE[f.user_role]}`);
  return conds;
}

/** State and status (as the license reads on `today`) of licenses (alias l), then the holder's conditions. */
export function licenseConds(f: Filters, today: string): SQL[] {
  const conds: SQL[] = [];
  if (f.state !== undefined) conds.push(sql`l.state = ${f.state}`);
  if (f.license_status !== undefined) conds.push(statusIs(LICENSE_COLUMNS_AS_L, f.license_status, today));
  return [...conds, ...peopleConds(f)];
}

/** Completions in the period (by completion date), not Rejected, of the filtered people. */
export function completionConds(f: Filters, period: Pick<Period, 'start_date' | 'end_date'>): SQL[] {
  return [
    sql`c.completion_date >= ${period.start_date} AND c.completion_date <= ${period.end_date} AND c.status <> 'Rejected'`,
    ...peopleConds(f),
  ];
}

export const needsPeople = (f: Filters) => f.brokerage_id !== undefined || f.user_role !== undefined;

export const LICENSES_FROM = sql`FROM licenses AS l JOIN users AS u ON u.user_id = l.user_id`;
/** The holder join only when a people filter needs it: one pass over licenses alone otherwise. */
export const licensesFrom = (f: Filters): SQL => (needsPeople(f) ? LICENSES_FROM : sql`FROM licenses AS l`);

export const COMPLETIONS_FROM = sql`FROM completions AS c JOIN users AS u ON u.user_id = c.user_id`;
export const completionsFrom = (f: Filters): SQL => (needsPeople(f) ? COMPLETIONS_FROM : sql`FROM completions AS c`);
