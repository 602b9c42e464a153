/**
 * The auth feature's server calls: sign-in, forgot and reset password. The public settings the signed-out screens
 * show are lib/public-settings.ts (the signed-in layout shows them too).
 */
// A subpath without zod: this module is part of the sign-in page (docs/performance.md "First page").
import { PASSWORD_RESET_STRINGS } from '@lm/shared/password-reset-strings';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { mutationOutcome } from '../../lib/notify.ts';

export const LOGIN_STRINGS = {
  title: 'Welcome Back',
  subtitle: 'Sign in to your account',
  submit: 'Sign In',
  busy: 'Signing In...',
  success: 'Login successful!',
  fallback: 'Login failed',
  unexpected: 'An unexpected error occurred. Please try again.',
  /** While the browser solves a sign-in challenge (docs/security.md "Sign-in"). */
  checking: 'Checking this device...',
  linkOffer: 'Email me a sign-in link',
  linkTitle: 'Sign in with a link',
  linkSubtitle: 'We email you a link that signs you in once, within 15 minutes.',
  linkSubmit: 'Email me a sign-in link',
  linkSigningIn: 'Signing you in...',
  linkFailed: 'Could not send the sign-in link. Please try again.',
  backToLogin: 'Back to sign in',
} as const;

/** Signs in: the session starts and 'Login successful!' shows; the screen says where to go next. */
export function useLogin() {
  const { signedIn } = useAuth();
  // A failure shows in the form (null: no toast).
  return trpc.auth.login.useMutation(mutationOutcome(LOGIN_STRINGS.success, null, (result) => signedIn(result.token, result.user)));
}

/** A new device's challenge, solved by login-challenge.ts when a sign-in is refused 429. */
export const useLoginChallenge = () => trpc.auth.loginChallenge.useMutation();
export const useSignInLink = () => trpc.auth.signInLink.useMutation();
/** Signs in with an e-mailed link's token, as useLogin does with a password. */
export function useConsumeSignInLink() {
  const { signedIn } = useAuth();
  return trpc.auth.consumeSignInLink.useMutation(
    mutationOutcome(LOGIN_STRINGS.success, null, (result) => signedIn(result.token, result.user)),
  );
}

export const useForgotPassword = () => trpc.auth.forgotPassword.useMutation();
export const useResetPassword = () => trpc.auth.resetPassword.useMutation(mutationOutcome(PASSWORD_RESET_STRINGS.resetDone, null));
