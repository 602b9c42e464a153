/**
 * "Forgot password?" and the single-use links to choose a password (welcome and reset e-mails).
 * The strings are those the login, forgot-password and reset-password screens show.
 */
import { z } from 'zod';
import { idParam } from './common.ts';
import { emailSchema } from './email.ts';

import { PASSWORD_RESET_STRINGS } from './password-reset-strings.ts';

export { PASSWORD_RESET_STRINGS };

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
