import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from '../lib/auth.tsx';
import { AppLayout } from '../components/app-layout.tsx';
import { AdminOnly } from '../components/require-role.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { UsersPage } from '../features/users/users-page.tsx';
import { BrokeragesPage } from '../features/brokerages/brokerages-page.tsx';
import { LicensesPage } from '../features/licenses/licenses-page.tsx';
import { CoursesPage } from '../features/courses/courses-page.tsx';
import { PaymentsPage } from '../features/payments/payments-page.tsx';
import { DocumentsPage } from '../features/documents/documents-page.tsx';
import { NotificationsPage } from '../features/notifications/notifications-page.tsx';
import { AuditPage } from '../features/audit/audit-page.tsx';
import { ReportsPage } from '../features/reports/reports-page.tsx';
import { NotificationManagementPage } from '../features/notification-management/notification-management-page.tsx';
import { BackupRestorePage } from '../features/backups/backup-restore-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { ProfilePage } from '../features/profile/profile-page.tsx';

function LoadingView() {
  return (
    <Center mih="100vh">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">Loading...</Text>
      </Stack>
    </Center>
  );
}

/** Signed-out visitors reach only /login (SPEC.md section 2). */
function RequireSignIn({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

export function AppRoutes() {
  const { loading } = useAuth();
  if (loading) return <LoadingView />;
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route
        element={
          <RequireSignIn>
            <AppLayout />
          </RequireSignIn>
        }
      >
        <Route index element={<DashboardPage />} />
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/users" element={<UsersPage />} />
        <Route
          path="/brokerages"
          element={
            <AdminOnly>
              <BrokeragesPage />
            </AdminOnly>
          }
        />
        <Route path="/licenses" element={<LicensesPage />} />
        <Route path="/courses" element={<CoursesPage />} />
        <Route path="/payments" element={<PaymentsPage />} />
        <Route path="/documents" element={<DocumentsPage />} />
        <Route path="/notifications" element={<NotificationsPage />} />
        <Route
          path="/audit"
          element={
            <AdminOnly>
              <AuditPage />
            </AdminOnly>
          }
        />
        <Route
          path="/reports"
          element={
            <AdminOnly>
              <ReportsPage />
            </AdminOnly>
          }
        />
        <Route
          path="/notification-management"
          element={
            <AdminOnly>
              <NotificationManagementPage />
            </AdminOnly>
          }
        />
        <Route
          path="/backup-restore"
          element={
            <AdminOnly>
              <BackupRestorePage />
            </AdminOnly>
          }
        />
        <Route
          path="/settings"
          element={
            <AdminOnly>
              <SettingsPage />
            </AdminOnly>
          }
        />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
      <Route path="*" element={<Navigate to="/login" replace />} />
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
