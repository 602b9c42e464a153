import { z } from 'zod';
import { dashboardStatsSchema, expiringLicensesInput, expiringLicensesOutput, recentActivityOutput } from '@lm/shared';
import { authedProcedure, router } from '../../core/trpc.ts';
import * as dashboard from './dashboard.service.ts';

const tags = ['dashboard'];

/** GET /dashboard/*: every signed-in role, each answered within its own scope. */
export const dashboardRouter = router({
  stats: authedProcedure('dashboard.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/dashboard/stats',
        tags,
        summary: "The caller's role-specific stat object (Admin, Broker, Agent or School fields; `role` tells which)",
        protect: true,
      },
    })
    .input(z.object({}).optional())
    .output(dashboardStatsSchema)
    .query(({ ctx }) => dashboard.stats(ctx)),

  recentActivity: authedProcedure('dashboard.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/dashboard/recent-activity',
        tags,
        summary: "At most 10 recent events in the caller's scope, newest first: {type, timestamp, data}",
        protect: true,
      },
    })
    .input(z.object({}).optional())
    .output(recentActivityOutput)
    .query(({ ctx }) => dashboard.recentActivity(ctx)),

  expiringLicenses: authedProcedure('dashboard.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/dashboard/expiring-licenses',
        tags,
        summary: "Licenses in the caller's scope expiring between today and today + days (default 90), soonest first",
        protect: true,
      },
    })
    .input(expiringLicensesInput)
    .output(expiringLicensesOutput)
    .query(({ ctx, input }) => dashboard.expiringLicenses(ctx, input)),
});
