/** The auth feature's server calls: public settings for signed-out screens, forgot and reset password. */
import { DEFAULT_SETTINGS, type PublicSettings } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';

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

export const useForgotPassword = () => trpc.auth.forgotPassword.useMutation();
export const useResetPassword = () => trpc.auth.resetPassword.useMutation();
