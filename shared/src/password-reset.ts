/**
 * "Forgot password?" and the single-use links to choose a password (welcome and reset e-mails).
 * The strings are those the login, forgot-password and reset-password screens show.
 */
import { z } from 'zod';
import { idParam } from './common.ts';
import { emailSchema } from './email.ts';

export const PASSWORD_RESET_STRINGS = {
  forgotLink: 'Forgot password?',
  forgotTitle: 'Forgot your password?',
  forgotSubtitle: 'Enter the email address of your account and we will send you a link to choose a new password.',
  forgotSubmit: 'Send reset link',
  forgotBusy: 'Sending...',
  /** The same answer whether or not the address has an account. */
  forgotDone: 'If an account exists for that address, we have sent it a link to reset the password. The link works once, for 60 minutes.',
  backToLogin: 'Back to sign in',
  resetTitle: 'Choose a new password',
  resetSubtitle: 'Your new password signs you out everywhere else.',
  resetSubmit: 'Set new password',
  resetDone: 'Your password has been changed. Please sign in.',
  resetFailed: 'Could not reset the password',
  missingToken: 'This link is incomplete. Ask for a new one.',
  invalidToken: 'This password link is invalid, expired or already used. Ask for a new one.',
  mismatch: 'Passwords do not match',
  sendLink: 'Send password reset link',
  sendLinkConfirm: 'E-mail this user a link to choose a new password? Their current password keeps working until they use it.',
  linkSent: 'Password reset link sent',
  linkFailed: 'Failed to send the password reset link',
} as const;

/** The same normalised e-mail as sign-in (email.ts), so a look-alike address never matches an account. */
export const forgotPasswordInput = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const resetPasswordInput = z.object({
  token: z.string({ error: PASSWORD_RESET_STRINGS.missingToken }).trim().min(1, PASSWORD_RESET_STRINGS.missingToken).max(200),
  newPassword: z.string({ error: 'New password is required' }).min(1, 'New password is required').max(1024),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** The reset-password form: the request plus the confirmation (checked on the client). */
export const resetPasswordForm = resetPasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: PASSWORD_RESET_STRINGS.mismatch });
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;

export const sendResetLinkInput = z.object({ id: idParam });
/** success: the link left (mail server or outbox); message says where, for the toast. */
export const sendResetLinkOutput = z.object({ success: z.boolean(), message: z.string() });
