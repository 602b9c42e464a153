import { Center, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { TopProgress } from '../components/top-progress.tsx';
import { useAuth } from '../lib/auth.tsx';
import { tokenStore } from '../lib/token.ts';
import { usePublicSettings } from '../lib/public-settings.ts';
import { LoginPage } from '../features/auth/login-page.tsx';

/**
 * The sign-in page is in the first chunk; everything behind sign-in is one more chunk (signed-in.tsx) whose
 * screens load on demand inside it (docs/performance.md "First page"). A visitor with a stored session starts
 * downloading it at once, while the session is being checked.
 */
const loadSignedIn = () => import('./signed-in.tsx').then((m) => ({ default: m.SignedInApp }));
if (tokenStore.get()) void loadSignedIn().catch(() => undefined);
const SignedInApp = lazy(loadSignedIn);
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page.tsx').then((m) => ({ default: m.ForgotPasswordPage })));
const SignInLinkPage = lazy(() => import('../features/auth/sign-in-link-page.tsx').then((m) => ({ default: m.SignInLinkPage })));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page.tsx').then((m) => ({ default: m.ResetPasswordPage })));
const EmailChangePage = lazy(() => import('../features/profile/email-change-page.tsx').then((m) => ({ default: m.EmailChangePage })));

function LoadingView() {
  return (
    <Center mih="100vh">
      <TopProgress />
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">Loading...</Text>
      </Stack>
    </Center>
  );
}

/** Signed-out visitors reach only /login, /forgot-password, /reset-password and /sign-in-link. */
function RequireSignIn({ children }: { children: ReactNode }) {
  const { user, loggedOut } = useAuth();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={loggedOut ? null : { from: location.pathname + location.search }} />;
  return <>{children}</>;
}

/** A page of its own chunk: a failed download or a crash ends in a message with a way back, never a blank page. */
function Chunk({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary fullPage>
      <Suspense fallback={<LoadingView />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

export function AppRoutes() {
  const { loading } = useAuth();
  // The office's settings load beside the session check, not after it: the signed-in screens wait for its calendar
  // (components/office-calendar.tsx), and the sign-in page shows its name.
  usePublicSettings();
  if (loading) return <LoadingView />;
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route
        path="/forgot-password"
        element={
          <Chunk>
            <ForgotPasswordPage />
          </Chunk>
        }
      />
      <Route
        path="/reset-password"
        element={
          <Chunk>
            <ResetPasswordPage />
          </Chunk>
        }
      />
      <Route
        path="/sign-in-link"
        element={
          <Chunk>
            <SignInLinkPage />
          </Chunk>
        }
      />
      {/* The e-mail change links (docs/security.md "Re-authentication and stolen tokens"): signed in or not. */}
      <Route
        path="/email-change/confirm"
        element={
          <Chunk>
            <EmailChangePage kind="confirm" />
          </Chunk>
        }
      />
      <Route
        path="/email-change/undo"
        element={
          <Chunk>
            <EmailChangePage kind="undo" />
          </Chunk>
        }
      />
      <Route
        path="/*"
        element={
          <RequireSignIn>
            <Chunk>
              <SignedInApp />
            </Chunk>
          </RequireSignIn>
        }
      />
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
