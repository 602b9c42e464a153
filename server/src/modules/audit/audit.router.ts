import { auditLogsInput, auditLogsOutput, auditSummaryInput, auditSummaryOutput } from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as audit from './audit.service.ts';

const tags = ['audit'];

/** GET /audit/*: Admin only. The log is append-only, so there is no write procedure. */
export const auditRouter = router({
  logs: policyProcedure('audit.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit/logs',
        tags,
        summary:
          "Audit entries with who acted as written with each entry (actor_name, actor_email: the name and e-mail then, 'System' for the system); filters user_id, action (substring), target_table, start_date, end_date; sort timestamp (default, newest first), user, action, target_table, target_id, ip_address with order; page, limit 25/50/100 (default 50)",
        protect: true,
      },
    })
    .input(auditLogsInput)
    .output(auditLogsOutput)
    .query(({ ctx, input }) => audit.listLogs(ctx, input)),

  summary: policyProcedure('audit.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit/summary',
        tags,
        summary: 'Totals for a date range: total_logs, unique_users, top_actions, top_tables',
        protect: true,
      },
    })
    .input(auditSummaryInput)
    .output(auditSummaryOutput)
    .query(({ ctx, input }) => audit.summary(ctx, input)),
});
