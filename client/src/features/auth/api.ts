/** The auth feature's server calls: public settings for signed-out screens, sign-in, forgot and reset password. */
import type { PublicSettings } from '@lm/shared';
// Subpaths without zod: this module is part of the sign-in page (docs/performance.md "First page").
import { DEFAULT_SETTINGS } from '@lm/shared/settings-defaults';
import { PASSWORD_RESET_STRINGS } from '@lm/shared/password-reset-strings';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';

export const LOGIN_STRINGS = {
  title: 'Welcome Back',
  subtitle: 'Sign in to your account',
  submit: 'Sign In',
  busy: 'Signing In...',
  success: 'Login successful!',
  fallback: 'Login failed',
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;

const FALLBACK: PublicSettings = {
  app_name: DEFAULT_SETTINGS.app_name,
  app_description: DEFAULT_SETTINGS.app_description,
  support_email: DEFAULT_SETTINGS.support_email,
  support_phone: DEFAULT_SETTINGS.support_phone,
};

/** App name, description and support contacts (no sign-in needed); the defaults while loading. */
export function usePublicSettings(): PublicSettings & { loaded: boolean } {
  const q = trpc.settings.public.useQuery(undefined, { staleTime: 60_000 });
  return { ...(q.data ?? FALLBACK), loaded: q.isSuccess };
}

/** Signs in: the session starts and 'Login successful!' shows; the screen says where to go next. */
export function useLogin() {
  const { signedIn } = useAuth();
  return trpc.auth.login.useMutation({
    onSuccess: (result) => {
      signedIn(result.token, result.user);
      notify.success(LOGIN_STRINGS.success);
    },
  });
}

export const useForgotPassword = () => trpc.auth.forgotPassword.useMutation();
export const useResetPassword = () =>
  trpc.auth.resetPassword.useMutation({ onSuccess: () => notify.success(PASSWORD_RESET_STRINGS.resetDone) });
