/**
 * License, user and course analytics (docs/product.md section 3) and the rows of the CSV exports. Admin only.
 * Read-only SQL across the domains' tables, prepared once per connection.
 *
 * Filters: state and license_status narrow licenses; brokerage_id and user_role narrow the people
 * (license holders, users, the users of completions). The period (start_date..end_date, default the
 * last 30 days) applies to the "this period" figures: renewals, new users, completions.
 */
import {
  addDays,
  EXPIRING_SOON_DAYS,
  ROLE,
  type CourseAnalytics,
  type LicenseAnalytics,
  type ReportFilters,
  type SystemStats,
  type UserAnalytics,
} from '@lm/shared';
import type { Db } from '../../db/client.ts';
import { today } from '../../core/dates.ts';
import { resolvePeriod, type Period } from './period.ts';
import { stmt, Where } from './sql.ts';

export interface ReportsCtx {
  db: Db;
}

type Filters = NonNullable<ReportFilters>;

const round = (n: number | null | undefined, digits: number) => Number((n ?? 0).toFixed(digits));

/** Conditions on the holder (alias u) and, for licenses (alias l), state and status. */
function peopleWhere(f: Filters, w = new Where()): Where {
  if (f.brokerage_id !== undefined) w.add('u.brokerage_id = ?', Number(f.brokerage_id));
  if (f.user_role !== undefined) w.add('u.role_id = ?', ROLE[f.user_role]);
  return w;
}

function licenseWhere(f: Filters): Where {
  const w = new Where();
  if (f.state !== undefined) w.add('l.state = ?', f.state);
  if (f.license_status !== undefined) w.add('l.status = ?', f.license_status);
  return peopleWhere(f, w);
}

const LICENSES_FROM = 'FROM licenses AS l JOIN users AS u ON u.user_id = l.user_id';
/** The holder join only when a people filter needs it: one pass over licenses alone otherwise. */
const licensesFrom = (f: Filters) => (f.brokerage_id !== undefined || f.user_role !== undefined ? LICENSES_FROM : 'FROM licenses AS l');

export function licenseAnalytics(ctx: ReportsCtx, input: ReportFilters): LicenseAnalytics {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const w = licenseWhere(f);
  const now = today();
  // One pass: every figure is a sum over (state, status) groups.
  const groups = stmt(
    ctx.db,
    `SELECT l.state AS state, l.status AS status, count(*) AS total,
            sum(l.status = 'Active' AND l.expiration_date >= ?) AS active,
            sum(l.status = 'Expired' OR l.expiration_date < ?) AS expired,
            sum(l.expiration_date >= ? AND l.expiration_date <= ? AND l.status NOT IN ('Inactive', 'Expired')) AS expiring,
            sum(l.renewed_at >= ? AND l.renewed_at < ?) AS renewed
       ${licensesFrom(f)} ${w.where}
      GROUP BY l.state, l.status`,
  ).all(now, now, now, addDays(now, EXPIRING_SOON_DAYS), period.fromIso, period.toIso, ...w.params) as Array<{
    state: string;
    status: string;
    total: number;
    active: number;
    expired: number;
    expiring: number;
    renewed: number | null;
  }>;

  const states = new Map<string, { state: string; active: number; expired: number; total: number }>();
  const statuses = new Map<string, number>();
  let expiring_soon = 0;
  let expired = 0;
  let renewed_this_period = 0;
  for (const g of groups) {
    const s = states.get(g.state) ?? { state: g.state, active: 0, expired: 0, total: 0 };
    s.active += g.active;
    s.expired += g.expired;
    s.total += g.total;
    states.set(g.state, s);
    statuses.set(g.status, (statuses.get(g.status) ?? 0) + g.total);
    expiring_soon += g.expiring;
    expired += g.expired;
    renewed_this_period += g.renewed ?? 0;
  }
  const byCountThenName = <T extends { n: number; k: string }>(a: T, b: T) => b.n - a.n || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0);
  return {
    period: { start_date: period.start_date, end_date: period.end_date },
    expiring_soon,
    expired,
    renewed_this_period,
    top_states: [...states.values()]
      .map((s) => ({ ...s, n: s.total, k: s.state }))
      .sort(byCountThenName)
      .map(({ n: _n, k: _k, ...s }) => s),
    by_status: [...statuses.entries()]
      .map(([status, count]) => ({ status, count, n: count, k: status }))
      .sort(byCountThenName)
      .map(({ status, count }) => ({ status, count })),
  };
}

export function userAnalytics(ctx: ReportsCtx, input: ReportFilters): UserAnalytics {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const { db } = ctx;
  const w = peopleWhere(f, new Where().add('u.deleted_at IS NULL'));
  const row = stmt(
    db,
    `SELECT sum(CASE WHEN u.created_at >= ? AND u.created_at < ? THEN 1 ELSE 0 END) AS new_users,
            sum(CASE WHEN u.is_active = 1 THEN 1 ELSE 0 END) AS active,
            sum(CASE WHEN u.is_active = 0 THEN 1 ELSE 0 END) AS inactive,
            avg(u.login_count / max((julianday('now') - julianday(u.created_at)) / 7.0, 1.0)) AS per_week
       FROM users AS u ${w.where}`,
  ).get(period.fromIso, period.toIso, ...w.params) as {
    new_users: number | null;
    active: number | null;
    inactive: number | null;
    per_week: number | null;
  };

  // Every brokerage (or the chosen one), with its live people; the role filter narrows the counts.
  const b = new Where();
  if (f.brokerage_id !== undefined) b.add('b.brokerage_id = ?', Number(f.brokerage_id));
  const roleJoin = f.user_role !== undefined ? ' AND u.role_id = ?' : '';
  const brokerage_stats = stmt(
    db,
    `SELECT b.brokerage_id AS brokerage_id, b.name AS name,
            sum(CASE WHEN u.role_id = ${ROLE.Broker} THEN 1 ELSE 0 END) AS brokers,
            sum(CASE WHEN u.role_id = ${ROLE.Agent} THEN 1 ELSE 0 END) AS agents,
            count(u.user_id) AS total
       FROM brokerages AS b
       LEFT JOIN users AS u ON u.brokerage_id = b.brokerage_id AND u.deleted_at IS NULL${roleJoin}
       ${b.where}
      GROUP BY b.brokerage_id ORDER BY total DESC, b.name COLLATE NOCASE`,
  ).all(...(f.user_role !== undefined ? [ROLE[f.user_role]] : []), ...b.params) as UserAnalytics['brokerage_stats'];

  return {
    period: { start_date: period.start_date, end_date: period.end_date },
    new_users_this_period: row.new_users ?? 0,
    active_users: row.active ?? 0,
    inactive_users: row.inactive ?? 0,
    avg_login_frequency: round(row.per_week, 2),
    brokerage_stats,
  };
}

/** Completions in the period (by completion date), not Rejected, of the filtered people. */
function completionsWhere(f: Filters, period: Period): Where {
  return peopleWhere(
    f,
    new Where().add("c.completion_date >= ? AND c.completion_date <= ? AND c.status <> 'Rejected'", period.start_date, period.end_date),
  );
}

const COMPLETIONS_FROM = 'FROM completions AS c JOIN users AS u ON u.user_id = c.user_id';
const completionsFrom = (f: Filters) =>
  f.brokerage_id !== undefined || f.user_role !== undefined ? COMPLETIONS_FROM : 'FROM completions AS c';

export function courseAnalytics(ctx: ReportsCtx, input: ReportFilters): CourseAnalytics {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const { db } = ctx;
  const w = completionsWhere(f, period);
  const people = peopleWhere(f);
  const from = completionsFrom(f);

  // One pass over the period's completions, grouped by course and date; the rest is arithmetic.
  const groups = stmt(
    db,
    `SELECT c.course_id AS course_id, c.completion_date AS date, count(*) AS n,
            sum(c.rating) AS rating_sum, count(c.rating) AS rated,
            sum(CASE WHEN c.status = 'Approved' AND c.reviewed_at IS NOT NULL
                     THEN julianday(c.reviewed_at) - julianday(c.created_at) END) AS approval_days,
            sum(c.status = 'Approved' AND c.reviewed_at IS NOT NULL) AS approved
       ${from} ${w.where}
      GROUP BY c.course_id, c.completion_date`,
  ).all(...w.params) as Array<{
    course_id: number;
    date: string;
    n: number;
    rating_sum: number | null;
    rated: number;
    approval_days: number | null;
    approved: number;
  }>;

  const byCourse = new Map<number, { completions: number; ratingSum: number; rated: number }>();
  const byDate = new Map<string, number>();
  let total = 0;
  let approvalDays = 0;
  let approved = 0;
  for (const g of groups) {
    total += g.n;
    approvalDays += g.approval_days ?? 0;
    approved += g.approved;
    byDate.set(g.date, (byDate.get(g.date) ?? 0) + g.n);
    const c = byCourse.get(g.course_id) ?? { completions: 0, ratingSum: 0, rated: 0 };
    c.completions += g.n;
    c.ratingSum += g.rating_sum ?? 0;
    c.rated += g.rated;
    byCourse.set(g.course_id, c);
  }

  const courseRows = stmt(db, 'SELECT course_id, course_name, ce_hours FROM courses').all() as Array<{
    course_id: number;
    course_name: string;
    ce_hours: number;
  }>;
  const top_courses = courseRows
    .filter((c) => byCourse.has(c.course_id))
    .map((c) => {
      const agg = byCourse.get(c.course_id)!;
      return {
        course_id: c.course_id,
        title: c.course_name,
        completions: agg.completions,
        avg_rating: agg.rated > 0 ? round(agg.ratingSum / agg.rated, 1) : null,
        ce_hours: c.ce_hours,
      };
    })
    .sort((a, b) => b.completions - a.completions || a.title.localeCompare(b.title))
    .slice(0, 10);

  return {
    period: { start_date: period.start_date, end_date: period.end_date },
    total_courses: courseRows.length,
    completions_this_period: total,
    pending_approvals: stmt(
      db,
      `SELECT count(*) ${people.conds.length ? COMPLETIONS_FROM : 'FROM completions AS c'} WHERE c.status = 'Pending'${people.and}`,
    )
      .pluck()
      .get(...people.params) as number,
    avg_completion_time: approved > 0 ? round(approvalDays / approved, 1) : 0,
    top_courses,
    completions_by_date: [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, completions]) => ({ date, completions })),
  };
}

// ---------------------------------------------------------------------------------------------
// CSV export rows. Each source yields chunks of rows read by keyset (id > last), so a large export
// streams in bounded memory and never holds the connection between chunks.

export const EXPORT_CHUNK = 1000;

type Row = Record<string, unknown>;

export interface ExportSource {
  columns: Array<{ key: string; header: string }>;
  chunks: () => Generator<Row[]>;
}

/** Runs `text` (ending in `... > ? ... LIMIT ?` after `params(last)`) chunk by chunk. */
function* keyset(db: Db, text: string, idKey: string, params: (last: number) => unknown[]): Generator<Row[]> {
  const s = stmt(db, text);
  let last = 0;
  for (;;) {
    const rows: Row[] = [];
    // Each chunk is read to the end before yielding: the connection is free while the client reads.
    for (const row of s.iterate(...params(last), EXPORT_CHUNK) as Iterable<Row>) rows.push(row);
    if (rows.length > 0) {
      last = rows[rows.length - 1]![idKey] as number;
      yield rows;
    }
    if (rows.length < EXPORT_CHUNK) return;
  }
}

export function licensesExport(ctx: ReportsCtx, input: ReportFilters): ExportSource {
  const f = input ?? {};
  resolvePeriod(f);
  const w = licenseWhere(f);
  const now = today();
  return {
    columns: [
      { key: 'license_id', header: 'License ID' },
      { key: 'license_number', header: 'License Number' },
      { key: 'state', header: 'State' },
      { key: 'license_type', header: 'License Type' },
      { key: 'status', header: 'Status' },
      { key: 'first_name', header: 'First Name' },
      { key: 'last_name', header: 'Last Name' },
      { key: 'email', header: 'Email' },
      { key: 'brokerage', header: 'Brokerage' },
      { key: 'issue_date', header: 'Issue Date' },
      { key: 'expiration_date', header: 'Expiration Date' },
      { key: 'days_left', header: 'Days Left' },
      { key: 'ce_hours_required', header: 'CE Hours Required' },
      { key: 'ce_hours_completed', header: 'CE Hours Completed' },
      { key: 'renewed_at', header: 'Renewed At' },
    ],
    chunks: () =>
      keyset(
        ctx.db,
        `SELECT l.license_id, l.license_number, l.state, l.license_type, l.status, u.first_name, u.last_name, u.email,
                b.name AS brokerage, l.issue_date, l.expiration_date,
                CAST(julianday(l.expiration_date) - julianday(?) AS INTEGER) AS days_left,
                l.ce_hours_required, l.ce_hours_completed, l.renewed_at
           ${LICENSES_FROM} LEFT JOIN brokerages AS b ON b.brokerage_id = u.brokerage_id
          WHERE l.license_id > ?${w.and}
          ORDER BY l.license_id LIMIT ?`,
        'license_id',
        (last) => [now, last, ...w.params],
      ),
  };
}

export function usersExport(ctx: ReportsCtx, input: ReportFilters): ExportSource {
  const f = input ?? {};
  resolvePeriod(f);
  const w = peopleWhere(f, new Where().add('u.deleted_at IS NULL'));
  return {
    columns: [
      { key: 'user_id', header: 'User ID' },
      { key: 'first_name', header: 'First Name' },
      { key: 'last_name', header: 'Last Name' },
      { key: 'email', header: 'Email' },
      { key: 'role', header: 'Role' },
      { key: 'brokerage', header: 'Brokerage' },
      { key: 'status', header: 'Status' },
      { key: 'created_at', header: 'Created At' },
      { key: 'last_login', header: 'Last Login' },
      { key: 'login_count', header: 'Login Count' },
    ],
    chunks: () =>
      keyset(
        ctx.db,
        `SELECT u.user_id, u.first_name, u.last_name, u.email,
                CASE u.role_id WHEN 1 THEN 'Admin' WHEN 2 THEN 'Broker' WHEN 3 THEN 'Agent' ELSE 'School' END AS role,
                b.name AS brokerage, CASE WHEN u.is_active = 1 THEN 'Active' ELSE 'Inactive' END AS status,
                u.created_at, u.last_login, u.login_count
           FROM users AS u LEFT JOIN brokerages AS b ON b.brokerage_id = u.brokerage_id
          WHERE u.user_id > ?${w.and}
          ORDER BY u.user_id LIMIT ?`,
        'user_id',
        (last) => [last, ...w.params],
      ),
  };
}

export function coursesExport(ctx: ReportsCtx, input: ReportFilters): ExportSource {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const people = peopleWhere(f);
  return {
    columns: [
      { key: 'course_id', header: 'Course ID' },
      { key: 'course_name', header: 'Course Name' },
      { key: 'provider', header: 'Provider' },
      { key: 'course_type', header: 'Course Type' },
      { key: 'ce_hours', header: 'CE Hours' },
      { key: 'cost', header: 'Cost' },
      { key: 'status', header: 'Status' },
      { key: 'completions', header: 'Completions This Period' },
      { key: 'pending', header: 'Pending Approvals' },
      { key: 'avg_rating', header: 'Average Rating' },
    ],
    chunks: () =>
      keyset(
        ctx.db,
        `SELECT co.course_id, co.course_name, co.provider, co.course_type, co.ce_hours,
                printf('%.2f', co.cost_cents / 100.0) AS cost,
                CASE WHEN co.is_active = 1 THEN 'Active' ELSE 'Inactive' END AS status,
                (SELECT count(*) ${COMPLETIONS_FROM} WHERE c.course_id = co.course_id
                    AND c.completion_date >= ? AND c.completion_date <= ? AND c.status <> 'Rejected'${people.and}) AS completions,
                (SELECT count(*) ${COMPLETIONS_FROM} WHERE c.course_id = co.course_id AND c.status = 'Pending'${people.and}) AS pending,
                (SELECT round(avg(c.rating), 1) ${COMPLETIONS_FROM} WHERE c.course_id = co.course_id
                    AND c.completion_date >= ? AND c.completion_date <= ? AND c.status <> 'Rejected'${people.and}) AS avg_rating
           FROM courses AS co
          WHERE co.course_id > ?
          ORDER BY co.course_id LIMIT ?`,
        'course_id',
        (last) => [
          period.start_date,
          period.end_date,
          ...people.params,
          ...people.params,
          period.start_date,
          period.end_date,
          ...people.params,
          last,
        ],
      ),
  };
}

/** One row per figure of every report: Section, Metric, Value. */
export function comprehensiveExport(ctx: ReportsCtx, input: ReportFilters, stats: SystemStats): ExportSource {
  const lic = licenseAnalytics(ctx, input);
  const usr = userAnalytics(ctx, input);
  const crs = courseAnalytics(ctx, input);
  const rows: Row[] = [];
  const add = (section: string, metric: string, value: unknown) => rows.push({ section, metric, value });
  add('Period', 'Start Date', lic.period.start_date);
  add('Period', 'End Date', lic.period.end_date);
  add('Overview', 'Total Users', stats.users.total);
  for (const r of stats.users.by_role) add('Users by Role', r.role_name, r.count);
  add('Overview', 'Total Licenses', stats.licenses.total);
  for (const s of stats.licenses.by_status) add('Licenses by Status', s.status, s.count);
  add('Overview', 'Total Courses', stats.courses.total);
  add('Overview', 'Total Revenue', stats.payments.total_amount.toFixed(2));
  add('License Analytics', 'Expiring Soon (30 days)', lic.expiring_soon);
  add('License Analytics', 'Expired Licenses', lic.expired);
  add('License Analytics', 'Renewed This Period', lic.renewed_this_period);
  for (const s of lic.top_states) add('Licenses by State', s.state, `${s.total} (active ${s.active}, expired ${s.expired})`);
  add('User Analytics', 'New Users This Period', usr.new_users_this_period);
  add('User Analytics', 'Active Users', usr.active_users);
  add('User Analytics', 'Inactive Users', usr.inactive_users);
  add('User Analytics', 'Average Logins per Week', usr.avg_login_frequency);
  for (const b of usr.brokerage_stats) add('Users by Brokerage', b.name, `${b.total} (brokers ${b.brokers}, agents ${b.agents})`);
  add('Course Analytics', 'Total Courses', crs.total_courses);
  add('Course Analytics', 'Completions This Period', crs.completions_this_period);
  add('Course Analytics', 'Pending Approvals', crs.pending_approvals);
  add('Course Analytics', 'Average Completion Time (days)', crs.avg_completion_time);
  for (const c of crs.top_courses) add('Most Popular Courses', c.title, c.completions);
  return {
    columns: [
      { key: 'section', header: 'Section' },
      { key: 'metric', header: 'Metric' },
      { key: 'value', header: 'Value' },
    ],
    chunks: function* () {
      yield rows;
    },
  };
}
