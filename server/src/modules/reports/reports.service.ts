/**
 * License, user and course analytics (docs/product.md section 3) and the rows of the CSV exports. Admin only.
 * Read-only SQL across the domains' tables (reports.queries.ts, one dialect module per engine).
 *
 * Filters: state and license_status narrow licenses; brokerage_id and user_role narrow the people
 * (license holders, users, the users of completions). The period (start_date..end_date, default the
 * last 30 days) applies to the "this period" figures: renewals, new users, completions.
 */
import {
  addDays,
  EXPIRING_SOON_DAYS,
  REVENUE_LABELS,
  type CourseAnalytics,
  type LicenseAnalytics,
  type ReportFilters,
  type SystemStats,
  type UserAnalytics,
} from '@lm/shared';
import type { Db } from '../../db/client.ts';
import { courses } from '../../db/schema/index.ts';
import { today } from '../../core/dates.ts';
import { resolvePeriod } from './period.ts';
import {
  brokerageStats,
  courseGroups,
  coursesChunk,
  licenseFigures,
  licensesChunk,
  pendingCompletions,
  userTotals,
  usersChunk,
  type Chunk,
  type Row,
} from './reports.queries.ts';

export interface ReportsCtx {
  db: Db;
}

const round = (n: number | null | undefined, digits: number) => Number((n ?? 0).toFixed(digits));

export async function licenseAnalytics(ctx: ReportsCtx, input: ReportFilters): Promise<LicenseAnalytics> {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const now = today();
  const { groups, renewed } = await licenseFigures(ctx.db, f, {
    now,
    soon: addDays(now, EXPIRING_SOON_DAYS),
    fromIso: period.fromIso,
    toIso: period.toIso,
  });

  const states = new Map<string, { state: string; active: number; expired: number; total: number }>();
  const statuses = new Map<string, number>();
  let expiring_soon = 0;
  let expired = 0;
  const renewed_this_period = renewed;
  for (const g of groups) {
    const s = states.get(g.state) ?? { state: g.state, active: 0, expired: 0, total: 0 };
    s.active += g.active;
    s.expired += g.expired;
    s.total += g.total;
    states.set(g.state, s);
    statuses.set(g.status, (statuses.get(g.status) ?? 0) + g.total);
    expiring_soon += g.expiring;
    expired += g.expired;
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

export async function userAnalytics(ctx: ReportsCtx, input: ReportFilters): Promise<UserAnalytics> {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const row = await userTotals(ctx.db, f, period);
  const brokerage_stats = await brokerageStats(ctx.db, f);

  return {
    period: { start_date: period.start_date, end_date: period.end_date },
    new_users_this_period: row.new_users ?? 0,
    active_users: row.active ?? 0,
    inactive_users: row.inactive ?? 0,
    avg_login_frequency: round(row.per_week, 2),
    brokerage_stats,
  };
}

export async function courseAnalytics(ctx: ReportsCtx, input: ReportFilters): Promise<CourseAnalytics> {
  const f = input ?? {};
  const period = resolvePeriod(f);
  const { db } = ctx;
  // One pass over the period's completions, grouped by course and date; the rest is arithmetic.
  const groups = await courseGroups(db, f, period);

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

  const courseRows = await db
    .select({ course_id: courses.course_id, course_name: courses.course_name, ce_hours: courses.ce_hours })
    .from(courses);
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
    pending_approvals: await pendingCompletions(db, f),
    avg_completion_time: approved > 0 ? round(approvalDays / approved, 1) : 0,
    top_courses,
    completions_by_date: [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, completions]) => ({ date, completions })),
  };
}

// ---------------------------------------------------------------------------------------------
// CSV export rows. Each source yields chunks of rows read by keyset (id > last), so a large export
// streams in bounded memory and never holds the connection between chunks.

export const EXPORT_CHUNK = 1000;

export interface ExportSource {
  columns: Array<{ key: string; header: string }>;
  chunks: () => AsyncGenerator<Row[]>;
}

/** Reads chunk after chunk by keyset (id > last); each chunk is read whole before it is yielded. */
async function* keyset(chunk: Chunk, idKey: string): AsyncGenerator<Row[]> {
  let last = 0;
  for (;;) {
    const rows = await chunk(last, EXPORT_CHUNK);
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
    chunks: () => keyset(licensesChunk(ctx.db, f, now), 'license_id'),
  };
}

export function usersExport(ctx: ReportsCtx, input: ReportFilters): ExportSource {
  const f = input ?? {};
  resolvePeriod(f);
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
    chunks: () => keyset(usersChunk(ctx.db, f), 'user_id'),
  };
}

export function coursesExport(ctx: ReportsCtx, input: ReportFilters): ExportSource {
  const f = input ?? {};
  const period = resolvePeriod(f);
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
    chunks: () => keyset(coursesChunk(ctx.db, f, period), 'course_id'),
  };
}

/** One row per figure of every report: Section, Metric, Value. */
export async function comprehensiveExport(ctx: ReportsCtx, input: ReportFilters, stats: SystemStats): Promise<ExportSource> {
  const lic = await licenseAnalytics(ctx, input);
  const usr = await userAnalytics(ctx, input);
  const crs = await courseAnalytics(ctx, input);
  const rows: Row[] = [];
  const add = (section: string, metric: string, value: unknown) => rows.push({ section, metric, value });
  add('Period', 'Start Date', lic.period.start_date);
  add('Period', 'End Date', lic.period.end_date);
  add('Overview', 'Total Users', stats.users.total);
  for (const r of stats.users.by_role) add('Users by Role', r.role_name, r.count);
  add('Overview', 'Total Licenses', stats.licenses.total);
  for (const s of stats.licenses.by_status) add('Licenses by Status', s.status, s.count);
  add('Overview', 'Total Courses', stats.courses.total);
  add('Overview', REVENUE_LABELS.period, stats.payments.total_amount.toFixed(2));
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
    chunks: async function* () {
      yield rows;
    },
  };
}
