import { z } from 'zod';
import { ROLE_NAMES } from './roles.ts';
import { emailSchema } from './email.ts';

/**
 * A solved sign-in challenge (docs/security.md "Sign-in"): the challenge of POST /auth/login-challenge with its
 * solution, as base64url JSON `{challenge, solution}` (altcha-lib). It lets a new device sign in while strangers have
 * locked the account.
 */
export const loginSolutionSchema = z.string().max(4096, 'The solution is too long');
export const loginInput = z.object({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
  solution: loginSolutionSchema.optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

/** POST /auth/login-challenge: a proof-of-work challenge for signing in to this e-mail's account from a new device. */
export const loginChallengeInput = z.object({ email: emailSchema });
export type LoginChallengeInput = z.infer<typeof loginChallengeInput>;
/** The challenge as base64url JSON (altcha-lib's `Challenge`); it expires after a few minutes and works once. */
export const loginChallengeOutput = z.object({ challenge: z.string() });
export type LoginChallengeOutput = z.infer<typeof loginChallengeOutput>;

/** POST /auth/sign-in-link: e-mail a one-time sign-in link (15 minutes); always the same answer. */
export const signInLinkInput = z.object({ email: emailSchema });
export type SignInLinkInput = z.infer<typeof signInLinkInput>;
/** POST /auth/sign-in-link/consume: the link's token signs in once (the answer of a sign-in). */
export const consumeSignInLinkInput = z.object({
  token: z.string({ error: 'The link is not valid' }).min(1, 'The link is not valid').max(200, 'The link is not valid'),
});
export type ConsumeSignInLinkInput = z.infer<typeof consumeSignInLinkInput>;
export const SIGN_IN_LINK_SENT = 'If an active account uses this address, a sign-in link is on its way. It works once, within 15 minutes.';
export const SIGN_IN_LINK_INVALID = 'This sign-in link is not valid: it was used already, expired, or a newer one was sent.';

/** Password strength rule (docs/product.md section 5); the minimum length comes from settings. */
export const PASSWORD_RULE_MESSAGE = 'Password must contain uppercase, lowercase and numbers';
export function passwordProblems(password: string, minLength: number): string | null {
  if (password.length < minLength) return `Password must be at least ${minLength} characters`;
  if (!/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/\d/.test(password)) return PASSWORD_RULE_MESSAGE;
  return null;
}

export const changePasswordInput = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(1024),
  newPassword: z.string({ error: 'New password is required' }).min(1, 'New password is required').max(1024),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;
/** A password change ends the other sessions and says so; the client offers a new calendar link when there is one. */
export const changePasswordOutput = z.object({
  success: z.boolean(),
  other_sessions_ended: z.number().int(),
  calendar_feed_active: z.boolean(),
});
export type ChangePasswordOutput = z.infer<typeof changePasswordOutput>;

export const NEW_PASSWORDS_MISMATCH = 'New passwords do not match';
/**
 * The Change Password form: the request plus the confirmation (checked on the client). The length and strength
 * rule is the server's alone (its settings' password_min_length): its message is shown as it answers.
 */
export const changePasswordForm = changePasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: NEW_PASSWORDS_MISMATCH });

/** A user as every API answer shows it: never a password or its hash. */
export const userSchema = z.object({
  user_id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role_id: z.number().int(),
  role_name: z.enum(ROLE_NAMES),
  brokerage_id: z.number().int().nullable(),
  brokerage_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip_code: z.string().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  last_login: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const loginOutput = z.object({ token: z.string(), user: userSchema });
export type LoginOutput = z.infer<typeof loginOutput>;
