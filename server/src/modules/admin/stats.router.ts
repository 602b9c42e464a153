import { adminStatsInput, systemStatsOutput } from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as stats from './stats.service.ts';

/** GET /admin/stats: Admin only. */
export const statsRouter = router({
  get: policyProcedure('admin.stats')
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/stats',
        tags: ['reports'],
        summary:
          'System totals: users {total, by_role}, licenses {total, by_status}, courses {total}, payments {total_amount} (dollars of Completed payments, in the period when start_date/end_date are given)',
        protect: true,
      },
    })
    .input(adminStatsInput)
    .output(systemStatsOutput)
    .query(({ ctx, input }) => stats.systemStats(ctx, input)),
});
