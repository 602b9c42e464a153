/**
 * Everything behind sign-in, loaded as its own chunk after the sign-in page (docs/performance.md "First page"):
 * the layout, the dialogs provider, every screen and the stylesheets of Mantine's components, dates, charts and
 * tables (layered, so the app's own CSS always wins whatever order the chunks arrive in).
 */
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.layer.css';
import '@mantine/charts/styles.layer.css';
import 'mantine-datatable/styles.layer.css';
import { Skeleton, Stack } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { TopProgress } from '../components/top-progress.tsx';
import { ServerTroubleBanner } from '../components/server-trouble.tsx';
import { LeaveGuard } from '../lib/dirty-guard.tsx';
import { AppLayout } from '../components/app-layout.tsx';
import { OfficeCalendar } from '../components/office-calendar.tsx';
import { NotificationBell } from '../components/notification-bell.tsx';
import { RequireAccess } from '../components/require-role.tsx';
import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { useUnreadCount } from '../features/notifications/api.ts';

// Screens load on demand, so signing in downloads only the shell, the login and the dashboard.
const UsersPage = lazy(() => import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage })));
const BrokeragesPage = lazy(() => import('../features/brokerages/brokerages-page.tsx').then((m) => ({ default: m.BrokeragesPage })));
const LicensesPage = lazy(() => import('../features/licenses/licenses-page.tsx').then((m) => ({ default: m.LicensesPage })));
const CoursesPage = lazy(() => import('../features/courses/courses-page.tsx').then((m) => ({ default: m.CoursesPage })));
const CeRulesPage = lazy(() => import('../features/ce-rules/ce-rules-page.tsx').then((m) => ({ default: m.CeRulesPage })));
const PaymentsPage = lazy(() => import('../features/payments/payments-page.tsx').then((m) => ({ default: m.PaymentsPage })));
const DocumentsPage = lazy(() => import('../features/documents/documents-page.tsx').then((m) => ({ default: m.DocumentsPage })));
const NotificationsPage = lazy(() =>
  import('../features/notifications/notifications-page.tsx').then((m) => ({ default: m.NotificationsPage })),
);
const AuditPage = lazy(() => import('../features/audit/audit-page.tsx').then((m) => ({ default: m.AuditPage })));
const ReportsPage = lazy(() => import('../features/reports/reports-page.tsx').then((m) => ({ default: m.ReportsPage })));
const NotificationManagementPage = lazy(() =>
  import('../features/notification-management/notification-management-page.tsx').then((m) => ({ default: m.NotificationManagementPage })),
);
const BackupRestorePage = lazy(() => import('../features/backups/backup-restore-page.tsx').then((m) => ({ default: m.BackupRestorePage })));
const SettingsPage = lazy(() => import('../features/settings/settings-page.tsx').then((m) => ({ default: m.SettingsPage })));
const IntegrationsPage = lazy(() =>
  import('../features/integrations/integrations-page.tsx').then((m) => ({ default: m.IntegrationsPage })),
);
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx').then((m) => ({ default: m.ProfilePage })));
const ImportsPage = lazy(() => import('../features/imports/imports-page.tsx').then((m) => ({ default: m.ImportsPage })));

/** While a screen's code downloads: the bar at the top and a skeleton where the page will be. */
function RouteLoading() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading the page">
      <TopProgress />
      <Skeleton h={34} w="40%" />
      <Skeleton h={60} />
      <Skeleton h={260} />
    </Stack>
  );
}

/**
 * Each screen inside the layout: the header and sidebar stay while its code loads, and a crash or a failed
 * download is contained here with a way back; moving to another page clears it (docs/architecture.md "Client").
 * Above it, the banner that says the server cannot be reached while the page keeps its data.
 */
function RouteFrame() {
  const { pathname } = useLocation();
  return (
    <>
      <ServerTroubleBanner />
      <ErrorBoundary resetKey={pathname}>
        {/* Dates as the office writes and counts them (components/office-calendar.tsx). */}
        <OfficeCalendar fallback={<RouteLoading />}>
          <Suspense fallback={<RouteLoading />}>
            <Outlet />
          </Suspense>
        </OfficeCalendar>
      </ErrorBoundary>
    </>
  );
}

/** The top bar's bell with my unread count, polled every minute by the notifications feature. */
function UnreadBell() {
  return <NotificationBell unread={useUnreadCount().data?.unread ?? 0} />;
}

export function SignedInApp() {
  return (
    <ModalsProvider>
      {/* Unsaved changes ask before the page is left or the tab closed (docs/decisions.md "Nothing lost"). */}
      <LeaveGuard />
      <Routes>
        <Route element={<AppLayout headerActions={<UnreadBell />} />}>
          <Route element={<RouteFrame />}>
            <Route index element={<DashboardPage />} />
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route
              path="/brokerages"
              element={
                <RequireAccess action="brokerages.read">
                  <BrokeragesPage />
                </RequireAccess>
              }
            />
            <Route path="/licenses" element={<LicensesPage />} />
            <Route path="/courses" element={<CoursesPage />} />
            <Route path="/ce-rules" element={<CeRulesPage />} />
            <Route path="/payments" element={<PaymentsPage />} />
            <Route path="/documents" element={<DocumentsPage />} />
            <Route path="/notifications" element={<NotificationsPage />} />
            <Route
              path="/audit"
              element={
                <RequireAccess action="audit.read">
                  <AuditPage />
                </RequireAccess>
              }
            />
            <Route
              path="/reports"
              element={
                <RequireAccess action="reports.read">
                  <ReportsPage />
                </RequireAccess>
              }
            />
            <Route
              path="/notification-management"
              element={
                <RequireAccess action="notificationTemplates.read">
                  <NotificationManagementPage />
                </RequireAccess>
              }
            />
            <Route
              path="/backup-restore"
              element={
                <RequireAccess action="backups.read">
                  <BackupRestorePage />
                </RequireAccess>
              }
            />
            <Route
              path="/settings"
              element={
                <RequireAccess action="settings.read">
                  <SettingsPage />
                </RequireAccess>
              }
            />
            <Route
              path="/settings/integrations"
              element={
                <RequireAccess action="apiKeys.read">
                  <IntegrationsPage />
                </RequireAccess>
              }
            />
            <Route path="/imports" element={<ImportsPage />} />
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Route>
        </Route>
      </Routes>
    </ModalsProvider>
  );
}
