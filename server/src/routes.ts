/**
 * Plain Fastify routes under /api, beside the REST adapter: what it cannot serve (files, health).
 * Each entry registers its routes and lists its paths for the OpenAPI document. Domains append here.
 */
import type { FileRoutes } from './http/file-routes.ts';
import { diskFullSince } from './db/errors.ts';
import { reportsFileRoutes } from './modules/reports/reports.http.ts';
import { backupsExport, backupsFileRoutes } from './modules/backups/backups.http.ts';
import { auditExport } from './modules/audit/audit.http.ts';
import { notificationManagementExports } from './modules/notification-management/notification-management.http.ts';
import { licensesExport, licensesFileRoutes } from './modules/licenses/licenses.http.ts';
import { paymentsExport } from './modules/payments/payments.http.ts';
import { usersExport } from './modules/users/users.http.ts';
import { brokeragesExport } from './modules/brokerages/brokerages.http.ts';
import { coursesExport } from './modules/courses/courses.http.ts';
import { completionsExport } from './modules/completions/completions.http.ts';
import { ceRulesExport } from './modules/ce-rules/ce-rules.http.ts';
import { documentsExport, documentsFileRoutes } from './modules/documents/documents.http.ts';
import { calendarFileRoutes } from './modules/notifications/calendar.http.ts';
import { importsFileRoutes } from './modules/imports/imports.http.ts';

export type { FileRoutes, RouteDeps } from './http/file-routes.ts';

const healthRoutes: FileRoutes = {
  register(api, deps) {
    // docs/api.md: {status: 'ok', time} when healthy; 503 {status: 'degraded', disk: 'full', since, time} while
    // writes fail for a full disk (docs/security.md "Faults"); a database that cannot be reached is a 503 error body.
    api.get('/health', async (_req, reply) => {
      await deps.db.ping();
      const time = new Date().toISOString();
      const since = diskFullSince();
      if (since === null) return { status: 'ok', time };
      return reply
        .code(503)
        .header('retry-after', '30')
        .send({ status: 'degraded', disk: 'full', since: new Date(since).toISOString(), time });
    });
  },
  access: { 'GET /health': 'system.health' },
  paths: {
    '/health': {
      get: {
        tags: ['system'],
        summary: 'Liveness, database and disk check',
        responses: {
          '200': { description: '{status: "ok", time}' },
          '503': {
            description:
              'The database cannot be reached ({error, code}), or writes fail because the disk is full ({status: "degraded", disk: "full", since, time})',
          },
        },
      },
    },
  },
};

export const fileRoutes: FileRoutes[] = [
  healthRoutes,
  reportsFileRoutes,
  backupsFileRoutes,
  licensesFileRoutes,
  licensesExport,
  auditExport,
  notificationManagementExports,
  backupsExport,
  paymentsExport,
  usersExport,
  brokeragesExport,
  coursesExport,
  completionsExport,
  ceRulesExport,
  documentsFileRoutes,
  documentsExport,
  calendarFileRoutes,
  importsFileRoutes,
];

export const fileRoutePaths: Record<string, unknown> = Object.assign({}, ...fileRoutes.map((r) => r.paths));
