/**
 * The reports' statements (docs/performance.md). Most of their SQL reads the same on both engines; what
 * differs (booleans, day arithmetic, timestamp and money formatting) comes from one module per dialect
 * (reports.queries.sqlite.ts, reports.queries.pg.ts) implementing ReportsDialect, picked by engine.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ROLE } from '@lm/shared';
import { byEngine, type DbOrTx } from '../../db/client.ts';
import { andAll, caseInsensitive, countWhere, daysBetween, whereAll } from '../../db/sql.ts';
import type { Period } from './period.ts';
import {
  COMPLETIONS_FROM,
  completionConds,
  completionsFrom,
  LICENSES_FROM,
  licenseConds,
  licensesFrom,
  needsPeople,
  peopleConds,
  type Filters,
} from './sql.ts';
import type { ReportsDialect } from './reports.dialect.ts';
import { expiringSql, LICENSE_COLUMNS_AS_L, statusIs, statusSql } from '../licenses/compliance.sql.ts';
import { licenseTotalsRows } from './totals.ts';
import { sqliteReports } from './reports.queries.sqlite.ts';
import { pgReports } from './reports.queries.pg.ts';

export type { ReportsDialect } from './reports.dialect.ts';

export type Row = Record<string, unknown>;

const d: ReportsDialect = byEngine<ReportsDialect>({ sqlite: sqliteReports, postgres: pgReports });
const rawRows = <T>(db: DbOrTx, query: SQL) => d.rows<T>(db, query);

export interface LicenseGroup {
  state: string;
  status: string;
  total: number;
  active: number;
  expired: number;
  expiring: number;
}

/** How many rows of a group satisfy a condition: a count over licenses, a sum of `n` over running totals. */
type Tally = (condition?: SQL) => SQL;
const overLicenses: Tally = (condition) => (condition ? countWhere(condition) : sql`count(*)`);
const overTotals: Tally = (condition) => sql`coalesce(sum(${condition ? sql`CASE WHEN ${condition} THEN l.n ELSE 0 END` : sql`l.n`}), 0)`;

/**
 * Every figure of the license report is a sum over (state, status) groups, the status as the license reads today;
 * active, expired and expiring are the compliance judgement's (compliance.sql.ts), which read only the stored
 * status and the expiration date. Without a filter on the holders the groups are summed from the running totals
 * (licenseTotalsRows AS l has those columns, so the same conditions apply: rows bounded by states x statuses x
 * months, not by licenses or days; reports/totals.ts); a holder filter (brokerage, role) counts the holders'
 * licenses. "Renewed this period" is a range of the renewed_at index.
 */
export async function licenseFigures(
  db: DbOrTx,
  f: Filters,
  at: { now: string; soon: string; fromIso: string; toIso: string },
): Promise<{ groups: LicenseGroup[]; renewed: number }> {
  const l = LICENSE_COLUMNS_AS_L;
  const conds = whereAll(licenseConds(f, at.now));
  const people = needsPeople(f);
  const n: Tally = people ? overLicenses : overTotals;
  const groups = await rawRows<LicenseGroup>(
    db,
    sql`SELECT l.state AS state, ${statusSql(l, at.now)} AS status, ${n()} AS total,
               ${n(statusIs(l, 'Active', at.now))} AS active,
               ${n(statusIs(l, 'Expired', at.now))} AS expired,
               ${n(expiringSql(l, at.now, at.soon))} AS expiring
          ${people ? licensesFrom(f) : sql`FROM ${licenseTotalsRows(at.now, at.soon)} AS l`} ${conds}
         GROUP BY 1, 2`, // by position: the status expression's date is a parameter, which PostgreSQL would not match
  );
  const [renewed] = await rawRows<{ n: number }>(
    db,
    sql`SELECT count(*) AS n ${licensesFrom(f)}
         WHERE l.renewed_at >= ${at.fromIso} AND l.renewed_at < ${at.toIso}${andAll(licenseConds(f, at.now))}`,
  );
  return { groups, renewed: Number(renewed?.n ?? 0) };
}

export async function userTotals(db: DbOrTx, f: Filters, period: Period) {
  const [row] = await rawRows<{ new_users: number; active: number; inactive: number; per_week: number | null }>(
    db,
    sql`SELECT ${countWhere(sql`u.created_at >= ${period.fromIso} AND u.created_at < ${period.toIso}`)} AS new_users,
               ${countWhere(d.isTrue(sql`u.is_active`))} AS active,
               ${countWhere(d.isFalse(sql`u.is_active`))} AS inactive,
               avg(u.login_count / ${d.weeksSince(sql`u.created_at`)}) AS per_week
          FROM users AS u ${whereAll([sql`u.deleted_at IS NULL`, ...peopleConds(f)])}`,
  );
  return row ?? { new_users: 0, active: 0, inactive: 0, per_week: null };
}

/** Every brokerage (or the chosen one) with its live people; the role filter narrows the counts. */
export function brokerageStats(db: DbOrTx, f: Filters) {
  const roleJoin = f.user_role !== undefined ? sql` AND u.role_id = ${ROLE[f.user_role]}` : sql``;
  const where = f.brokerage_id !== undefined ? sql`WHERE b.brokerage_id = ${Number(f.brokerage_id)}` : sql``;
  return rawRows<{ brokerage_id: number; name: string; brokers: number; agents: number; total: number }>(
    db,
    sql`SELECT b.brokerage_id AS brokerage_id, b.name AS name,
               ${countWhere(sql`u.role_id = ${ROLE.Broker}`)} AS brokers,
               ${countWhere(sql`u.role_id = ${ROLE.Agent}`)} AS agents,
               count(u.user_id) AS total
          FROM brokerages AS b
          LEFT JOIN users AS u ON u.brokerage_id = b.brokerage_id AND u.deleted_at IS NULL${roleJoin}
          ${where}
         GROUP BY b.brokerage_id, b.name ORDER BY total DESC, ${caseInsensitive(sql`b.name`)}, b.brokerage_id`,
  );
}

export interface CourseGroup {
  course_id: number;
  date: string;
  n: number;
  rating_sum: number | null;
  rated: number;
  approval_days: number | null;
  approved: number;
}

/** One pass over the period's completions, grouped by course and date. */
export function courseGroups(db: DbOrTx, f: Filters, period: Period) {
  const approved = sql`c.status = 'Approved' AND c.reviewed_at IS NOT NULL`;
  return rawRows<CourseGroup>(
    db,
    sql`SELECT c.course_id AS course_id, c.completion_date AS date, count(*) AS n,
               sum(c.rating) AS rating_sum, count(c.rating) AS rated,
               sum(CASE WHEN ${approved} THEN ${d.daysFromTo(sql`c.created_at`, sql`c.reviewed_at`)} END) AS approval_days,
               ${countWhere(approved)} AS approved
          ${completionsFrom(f)} ${whereAll(completionConds(f, period))}
         GROUP BY c.course_id, c.completion_date`,
  );
}

export async function pendingCompletions(db: DbOrTx, f: Filters): Promise<number> {
  const people = peopleConds(f);
  const [row] = await rawRows<{ n: number }>(
    db,
    sql`SELECT count(*) AS n ${people.length ? COMPLETIONS_FROM : sql`FROM completions AS c`} WHERE c.status = 'Pending'${andAll(people)}`,
  );
  return Number(row?.n ?? 0);
}

/** One chunk of an export: rows after id `last`, in id order. */
export type Chunk = (last: number, limit: number) => Promise<Row[]>;

export function licensesChunk(db: DbOrTx, f: Filters, now: string): Chunk {
  const conds = licenseConds(f, now);
  return (last, limit) =>
    rawRows<Row>(
      db,
      sql`SELECT l.license_id, l.license_number, l.state, l.license_type, ${statusSql(LICENSE_COLUMNS_AS_L, now)} AS status, u.first_name, u.last_name, u.email,
                 b.name AS brokerage, l.issue_date, l.expiration_date,
                 ${daysBetween(now, sql`l.expiration_date`)} AS days_left,
                 l.ce_hours_required, l.ce_hours_completed, ${d.iso(sql`l.renewed_at`)} AS renewed_at
            ${LICENSES_FROM} LEFT JOIN brokerages AS b ON b.brokerage_id = u.brokerage_id
           WHERE l.license_id > ${last}${andAll(conds)}
           ORDER BY l.license_id LIMIT ${limit}`,
    );
}

export function usersChunk(db: DbOrTx, f: Filters): Chunk {
  const conds = [sql`u.deleted_at IS NULL`, ...peopleConds(f)];
  return (last, limit) =>
    rawRows<Row>(
      db,
      sql`SELECT u.user_id, u.first_name, u.last_name, u.email,
                 CASE u.role_id WHEN ${ROLE.Admin} THEN 'Admin' WHEN ${ROLE.Broker} THEN 'Broker' WHEN ${ROLE.Agent} THEN 'Agent' ELSE 'School' END AS role,
                 b.name AS brokerage, CASE WHEN ${d.isTrue(sql`u.is_active`)} THEN 'Active' ELSE 'Inactive' END AS status,
                 ${d.iso(sql`u.created_at`)} AS created_at, ${d.iso(sql`u.last_login`)} AS last_login, u.login_count
            FROM users AS u LEFT JOIN brokerages AS b ON b.brokerage_id = u.brokerage_id
           WHERE u.user_id > ${last}${andAll(conds)}
           ORDER BY u.user_id LIMIT ${limit}`,
    );
}

export function coursesChunk(db: DbOrTx, f: Filters, period: Period): Chunk {
  const people = andAll(peopleConds(f));
  const inPeriod = sql`c.completion_date >= ${period.start_date} AND c.completion_date <= ${period.end_date} AND c.status <> 'Rejected'`;
  return (last, limit) =>
    rawRows<Row>(
      db,
      sql`SELECT co.course_id, co.course_name, co.provider, co.course_type, co.ce_hours,
                 ${d.dollars(sql`co.cost_cents`)} AS cost,
                 CASE WHEN ${d.isTrue(sql`co.is_active`)} THEN 'Active' ELSE 'Inactive' END AS status,
                 (SELECT count(*) ${COMPLETIONS_FROM} WHERE c.course_id = co.course_id AND ${inPeriod}${people}) AS completions,
                 (SELECT count(*) ${COMPLETIONS_FROM} WHERE c.course_id = co.course_id AND c.status = 'Pending'${people}) AS pending,
                 (SELECT round(avg(c.rating), 1) ${COMPLETIONS_FROM} WHERE c.course_id = co.course_id AND ${inPeriod}${people}) AS avg_rating
            FROM courses AS co
           WHERE co.course_id > ${last}
           ORDER BY co.course_id LIMIT ${limit}`,
    );
}
