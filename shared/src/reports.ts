/**
 * The reports domain: system stats, license/user/course analytics, the report filters, CSV export
 * names and the screen's strings (docs/product.md sections 2, 3, 7 and 9).
 */
import { z } from 'zod';
import { singleLine } from './text.ts';
import { dateString } from './common.ts';
import { addDays } from './dates.ts';
import { LICENSE_STATUSES } from './domain-constants.ts';
import { ROLE_NAMES } from './roles.ts';
import { MAX_ID } from './common.ts';

/** Reports default range: the last 30 days (docs/product.md section 9). */
export const REPORT_DEFAULT_DAYS = 30;
/** The State filter's options (docs/product.md section 2). */
export const REPORT_STATES = ['CA', 'TX', 'FL', 'NY'] as const;
/** The License Status filter's options (docs/product.md section 2). */
export const REPORT_LICENSE_STATUSES = ['Active', 'Expired', 'Pending Renewal', 'Suspended'] as const;
/** License Analytics' "Expiring Soon (30 days)". */
export const EXPIRING_SOON_DAYS = 30;
export const REPORT_NAMES = ['licenses', 'users', 'courses', 'comprehensive'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** The filters of every report call and export; empty values mean "no filter". */
export const reportFiltersShape = {
  start_date: z.preprocess(emptyToUndefined, dateString.optional()),
  end_date: z.preprocess(emptyToUndefined, dateString.optional()),
  state: z.preprocess(
    emptyToUndefined,
    singleLine(2)
      .regex(/^[A-Za-z]{2}$/, 'State must be a two-letter code')
      .toUpperCase()
      .optional(),
  ),
  license_status: z.preprocess(emptyToUndefined, z.enum(LICENSE_STATUSES, { error: 'Unknown license status' }).optional()),
  brokerage_id: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'Brokerage must be a number' }).int().positive().max(MAX_ID).optional(),
  ),
  user_role: z.preprocess(emptyToUndefined, z.enum(ROLE_NAMES, { error: 'Unknown user role' }).optional()),
};
export const reportFiltersInput = z.object(reportFiltersShape).optional();
export type ReportFilters = z.output<typeof reportFiltersInput>;

/** GET /reports/{name}/export: the same filters plus format=csv. */
export const reportExportQuery = z.object({
  ...reportFiltersShape,
  format: z.preprocess(emptyToUndefined, z.literal('csv', { error: 'Only format=csv is supported' }).optional()),
});

export const adminStatsInput = z.object({ start_date: reportFiltersShape.start_date, end_date: reportFiltersShape.end_date }).optional();

/** The default period: 30 days ago to today (today is the caller's office date). */
export function defaultReportPeriod(today: string): { start_date: string; end_date: string } {
  return { start_date: addDays(today, -REPORT_DEFAULT_DAYS), end_date: today };
}

/** {name}_report_{start}_to_{end}.csv (docs/product.md section 7). */
export function reportFileName(name: ReportName, start: string, end: string): string {
  return `${name}_report_${start}_to_${end}.csv`;
}

// ---------------------------------------------------------------------------------------------
// System stats (GET /admin/stats)

export const systemStatsOutput = z.object({
  users: z.object({
    total: z.number().int(),
    by_role: z.array(z.object({ role_id: z.number().int(), role_name: z.string(), count: z.number().int() })),
  }),
  licenses: z.object({
    total: z.number().int(),
    by_status: z.array(z.object({ status: z.string(), count: z.number().int() })),
  }),
  courses: z.object({ total: z.number().int() }),
  /** total_amount: dollars of Completed payments (in the period when start_date/end_date are given). */
  payments: z.object({ total_amount: z.number() }),
});
export type SystemStats = z.infer<typeof systemStatsOutput>;

// ---------------------------------------------------------------------------------------------
// Analytics (GET /reports/licenses, /users, /courses)

const period = z.object({ start_date: z.string(), end_date: z.string() });

export const licenseAnalyticsOutput = z.object({
  period,
  expiring_soon: z.number().int(),
  expired: z.number().int(),
  renewed_this_period: z.number().int(),
  top_states: z.array(z.object({ state: z.string(), active: z.number().int(), expired: z.number().int(), total: z.number().int() })),
  by_status: z.array(z.object({ status: z.string(), count: z.number().int() })),
});
export type LicenseAnalytics = z.infer<typeof licenseAnalyticsOutput>;

export const userAnalyticsOutput = z.object({
  period,
  new_users_this_period: z.number().int(),
  active_users: z.number().int(),
  inactive_users: z.number().int(),
  /** Average sign-ins per week since each user was created. */
  avg_login_frequency: z.number(),
  brokerage_stats: z.array(
    z.object({
      brokerage_id: z.number().int(),
      name: z.string(),
      brokers: z.number().int(),
      agents: z.number().int(),
      total: z.number().int(),
    }),
  ),
});
export type UserAnalytics = z.infer<typeof userAnalyticsOutput>;

export const courseAnalyticsOutput = z.object({
  period,
  total_courses: z.number().int(),
  completions_this_period: z.number().int(),
  pending_approvals: z.number().int(),
  /** Average days from a completion's submission to its approval. */
  avg_completion_time: z.number(),
  top_courses: z.array(
    z.object({
      course_id: z.number().int(),
      title: z.string(),
      completions: z.number().int(),
      avg_rating: z.number().nullable(),
      ce_hours: z.number(),
    }),
  ),
  /** Completions per completion date in the period, for the chart. */
  completions_by_date: z.array(z.object({ date: z.string(), completions: z.number().int() })),
});
export type CourseAnalytics = z.infer<typeof courseAnalyticsOutput>;

// ---------------------------------------------------------------------------------------------
// Presentation helpers

/** Percentage of a part, with 1 decimal ('0.0' when the whole is 0). */
export function percentOf(count: number, total: number): string {
  return total > 0 ? ((count / total) * 100).toFixed(1) : '0.0';
}

/** Role colours of the reports (docs/product.md section 2): Admin red, Broker blue, Agent green, other yellow. */
export function reportRoleColor(role: string): 'red' | 'blue' | 'green' | 'yellow' {
  if (role === 'Admin') return 'red';
  if (role === 'Broker') return 'blue';
  if (role === 'Agent') return 'green';
  return 'yellow';
}

/** A CSV cell a spreadsheet would run as a formula gets a leading single quote. */
export function neutraliseCsvCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const REPORT_STRINGS = {
  title: 'Reports and Analytics',
  exportAll: 'Export All Reports',
  export: 'Export',
  exported: 'Report exported successfully!',
  exportFailed: 'Failed to export report',
  fetchStatsFailed: 'Failed to fetch system statistics',
  fetchLicensesFailed: 'Failed to fetch license analytics',
  fetchUsersFailed: 'Failed to fetch user analytics',
  fetchCoursesFailed: 'Failed to fetch course analytics',
  usersByRole: 'Users by Role',
  licensesByStatus: 'Licenses by Status',
  tabs: { overview: 'Overview', licenses: 'License Analytics', users: 'User Analytics', courses: 'Course Analytics' },
  dateOrder: 'Start date must be on or before end date',
} as const;
