import { z } from 'zod';
import { ROLE_NAMES } from './roles.ts';
import { emailSchema } from './email.ts';

export const loginInput = z.object({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type LoginInput = z.infer<typeof loginInput>;

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
