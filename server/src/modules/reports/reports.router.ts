import { courseAnalyticsOutput, licenseAnalyticsOutput, reportFiltersInput, userAnalyticsOutput } from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as reports from './reports.service.ts';

const tags = ['reports'];
const filters =
  'Filters (all optional): start_date and end_date (YYYY-MM-DD, default the last 30 days), state, license_status, brokerage_id, user_role.';

/** GET /reports/*: Admin only. CSV exports are plain routes in reports.http.ts. */
export const reportsRouter = router({
  licenses: policyProcedure('reports.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/licenses',
        tags,
        summary: `License analytics: expiring_soon (30 days), expired, renewed_this_period, top_states, by_status. ${filters}`,
        protect: true,
      },
    })
    .input(reportFiltersInput)
    .output(licenseAnalyticsOutput)
    .query(({ ctx, input }) => reports.licenseAnalytics(ctx, input)),

  users: policyProcedure('reports.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/users',
        tags,
        summary: `User analytics: new_users_this_period, active_users, inactive_users, avg_login_frequency (per week), brokerage_stats. ${filters}`,
        protect: true,
      },
    })
    .input(reportFiltersInput)
    .output(userAnalyticsOutput)
    .query(({ ctx, input }) => reports.userAnalytics(ctx, input)),

  courses: policyProcedure('reports.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/courses',
        tags,
        summary: `Course analytics: total_courses, completions_this_period, pending_approvals, avg_completion_time (days), top_courses, completions_by_date. ${filters}`,
        protect: true,
      },
    })
    .input(reportFiltersInput)
    .output(courseAnalyticsOutput)
    .query(({ ctx, input }) => reports.courseAnalytics(ctx, input)),
});
