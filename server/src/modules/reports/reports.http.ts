/**
 * CSV exports: GET /api/reports/{licenses|users|courses|comprehensive}/export?format=csv&...filters.
 * Plain Fastify routes (the REST adapter cannot return files) behind the same session and Admin
 * check as the procedures; the file streams through http/csv.ts (backpressure, formula-safe cells).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REPORT_NAMES, ROLE_NAMES, reportExportQuery, reportFileName, type ReportName } from '@lm/shared';
import type { FileRoutes, RouteDeps } from '../../http/file-routes.ts';
import { authenticate } from '../../http/authenticate.ts';
import { sendCsv } from '../../http/csv.ts';
import { systemStats } from '../admin/stats.service.ts';
import { resolvePeriod } from './period.ts';
import { comprehensiveExport, coursesExport, licensesExport, usersExport, type ExportSource } from './reports.service.ts';

async function sourceFor(name: ReportName, db: RouteDeps['db'], filters: Parameters<typeof licensesExport>[1]): Promise<ExportSource> {
  const ctx = { db };
  switch (name) {
    case 'licenses':
      return licensesExport(ctx, filters);
    case 'users':
      return usersExport(ctx, filters);
    case 'courses':
      return coursesExport(ctx, filters);
    case 'comprehensive': {
      const period = resolvePeriod(filters);
      return comprehensiveExport(ctx, filters, await systemStats(ctx, { start_date: period.start_date, end_date: period.end_date }));
    }
  }
}

async function exportReport(deps: RouteDeps, name: ReportName, req: FastifyRequest, reply: FastifyReply) {
  await authenticate(deps, req, 'reports.read');
  // A ZodError or AppError thrown here goes through the app's error handler (400 with a message).
  const { format: _format, ...filters } = reportExportQuery.parse(req.query ?? {});
  const period = resolvePeriod(filters);
  const source = await sourceFor(name, deps.db, filters);
  return sendCsv(reply, source, reportFileName(name, period.start_date, period.end_date));
}

const FILTER_PARAMS = [
  { name: 'format', description: 'Only csv', schema: { type: 'string', enum: ['csv'] } },
  { name: 'start_date', description: 'YYYY-MM-DD; default 30 days ago', schema: { type: 'string', format: 'date' } },
  { name: 'end_date', description: 'YYYY-MM-DD; default today', schema: { type: 'string', format: 'date' } },
  { name: 'state', description: 'Two-letter state code', schema: { type: 'string' } },
  { name: 'license_status', schema: { type: 'string' } },
  { name: 'brokerage_id', schema: { type: 'integer' } },
  { name: 'user_role', schema: { type: 'string', enum: [...ROLE_NAMES] } },
].map((p) => ({ in: 'query', required: false, ...p }));

const DESCRIPTIONS: Record<ReportName, string> = {
  licenses: 'Every license matching the filters, with its holder, brokerage, dates and CE hours',
  users: 'Every user (not deleted) matching brokerage_id and user_role',
  courses: 'Every course with its completions, pending approvals and average rating in the period',
  comprehensive: 'Every figure of the four reports as Section, Metric, Value rows',
};

export const reportsFileRoutes: FileRoutes = {
  register(api, deps) {
    for (const name of REPORT_NAMES) {
      api.get(`/reports/${name}/export`, (req, reply) => exportReport(deps, name, req, reply));
    }
  },
  access: Object.fromEntries(REPORT_NAMES.map((name) => [`GET /reports/${name}/export`, 'reports.read' as const])),
  paths: Object.fromEntries(
    REPORT_NAMES.map((name) => [
      `/reports/${name}/export`,
      {
        get: {
          tags: ['reports'],
          summary: `Download the ${name} report as CSV (Admin only)`,
          description: `${DESCRIPTIONS[name]}. Saved as ${name}_report_{start}_to_{end}.csv. Cells that a spreadsheet would run as a formula are prefixed with a single quote.`,
          security: [{ Authorization: [] }],
          parameters: FILTER_PARAMS,
          responses: {
            '200': {
              description: `text/csv attachment ${name}_report_{start}_to_{end}.csv`,
              content: { 'text/csv': { schema: { type: 'string' } } },
            },
            '400': { description: 'Invalid filter: {error, code, issues}' },
            '401': { description: 'Not signed in' },
            '403': { description: 'Not an Admin' },
          },
        },
      },
    ]),
  ),
};
