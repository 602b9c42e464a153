/** The root router: one router per domain, served at /trpc and published as REST under /api. */
import { router } from './core/trpc.ts';
import { applyOutputPolicy } from './core/output.ts';
import { authRouter } from './modules/auth/auth.router.ts';
import { usersRouter } from './modules/users/users.router.ts';
import { brokeragesRouter } from './modules/brokerages/brokerages.router.ts';
import { licensesRouter } from './modules/licenses/licenses.router.ts';
import { coursesRouter } from './modules/courses/courses.router.ts';
import { completionsRouter } from './modules/completions/completions.router.ts';
import { ceRulesRouter } from './modules/ce-rules/ce-rules.router.ts';
import { paymentsRouter } from './modules/payments/payments.router.ts';
import { dashboardRouter } from './modules/dashboard/dashboard.router.ts';
import { auditRouter } from './modules/audit/audit.router.ts';
import { reportsRouter } from './modules/reports/reports.router.ts';
import { adminRouter } from './modules/admin/admin.router.ts';
import { publicSettingsRouter } from './modules/settings/public-settings.router.ts';
import { documentsRouter } from './modules/documents/documents.router.ts';
import { notificationsRouter } from './modules/notifications/notifications.router.ts';
import { certificatesRouter } from './modules/certificates/certificates.router.ts';
import { importsRouter } from './modules/imports/imports.router.ts';
import { webhooksRouter } from './modules/webhooks/webhooks.router.ts';
import { apiKeysRouter } from './modules/api-keys/api-keys.router.ts';
import { deletionsRouter } from './modules/deletions/deletions.router.ts';

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  brokerages: brokeragesRouter,
  licenses: licensesRouter,
  courses: coursesRouter,
  completions: completionsRouter,
  ceRules: ceRulesRouter,
  payments: paymentsRouter,
  dashboard: dashboardRouter,
  audit: auditRouter,
  reports: reportsRouter,
  admin: adminRouter,
  settings: publicSettingsRouter,
  documents: documentsRouter,
  notifications: notificationsRouter,
  certificates: certificatesRouter,
  deletions: deletionsRouter,
  imports: importsRouter,
  webhooks: webhooksRouter,
  apiKeys: apiKeysRouter,
});

// Answers are checked against their declared shapes outside production (core/output.ts).
applyOutputPolicy(appRouter);

export type AppRouter = typeof appRouter;
