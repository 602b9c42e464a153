/**
 * The users domain: list query, create/edit/bulk inputs, the profile update, and the strings of the
 * User Management and Profile screens (docs/product.md sections 2, 5 and 8, word for word).
 */
import { z } from 'zod';
import { queryBoolean, singleLine } from './text.ts';
import { idParam, optionalText, paginationSchema, updatedSinceParam, requiredText, DEFAULT_PAGE_SIZE, cursorParam } from './common.ts';
import { NEW_PASSWORDS_MISMATCH, userSchema } from './auth.ts';
import { emailSchema } from './email.ts';
import { DEFAULT_NEW_USER_ROLE, ROLE, ROLE_NAMES, type RoleName } from './roles.ts';
import { MAX_ID } from './common.ts';

export const USER_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  passwordRequired: 'Password is required',
  roleInvalid: 'Role must be 1 (Admin), 2 (Broker), 3 (Agent) or 4 (School)',
  selectFirst: 'Please select users first',
  unknownAction: 'Unknown bulk action: use activate, deactivate, change_role, change_brokerage or delete',
} as const;

/** Strings the User Management screen shows (docs/product.md sections 2 and 8). */
export const USER_STRINGS = {
  title: 'User Management',
  addUser: 'Add User',
  addTitle: 'Add New User',
  editTitle: 'Edit User',
  createSubmit: 'Create User',
  updateSubmit: 'Update User',
  deleteConfirm: 'Are you sure you want to delete this user?',
  bulkDeleteWarning: 'This action cannot be undone. All selected users will be permanently deactivated.',
  selectFirst: USER_MESSAGES.selectFirst,
  created: 'User created successfully!',
  updated: 'User updated successfully!',
  deleted: 'User deleted successfully!',
  bulkDone: 'Bulk operation completed successfully!',
  createFailed: 'Failed to create user',
  updateFailed: 'Failed to update user',
  deleteFailed: 'Failed to delete user',
  bulkFailed: 'Failed to perform bulk operation',
  things: 'users',
  empty: 'No users found',
  passwordEditHint: 'Leave blank to keep the current password',
  noLicenses: 'No licenses held',
} as const;

/** Strings of the Profile screen (docs/product.md sections 2, 5 and 8). */
export const PROFILE_STRINGS = {
  title: 'Profile',
  infoTab: 'Profile Information',
  passwordTab: 'Change Password',
  accountCard: 'Account Information',
  notAvailable: 'N/A',
  updateSubmit: 'Update Profile',
  updated: 'Profile updated successfully!',
  updateFailed: 'Failed to update profile. Please try again.',
  changeSubmit: 'Change Password',
  changed: 'Password changed successfully!',
  changeFailed: 'Failed to change password. Please try again.',
  mismatch: NEW_PASSWORDS_MISMATCH,
  hint: 'At least 8 characters, with uppercase, lowercase and numbers.',
  // Re-authentication and the e-mail change (docs/security.md "Re-authentication and stolen tokens").
  currentPasswordLabel: 'Current Password',
  emailNeedsPassword: 'Enter your current password to change your sign-in email.',
  emailPasswordHint: 'Needed to change the email you sign in with.',
  emailPending: (email: string) =>
    `We sent a confirmation link to ${email}. Your sign-in email changes when you open it (within 24 hours).`,
  otherSessionsEnded: (n: number) =>
    n === 0 ? 'No other session was signed in.' : `${n} other session${n === 1 ? ' was' : 's were'} signed out.`,
  calendarOffer: 'Anyone who had your calendar link can still read it. Get a new link to stop the old one.',
  calendarRotate: 'Get a new calendar link',
  calendarRotated: 'New calendar link created: the old one no longer works.',
  confirmTitle: 'Confirm your new email',
  undoTitle: 'Undo the email change',
  linkWorking: 'Checking the link...',
  linkMissing: 'This link is incomplete. Open it again from the email.',
} as const;

/** Role badge colours (docs/product.md: Admin danger, Broker primary, Agent success, School warning). */
export const ROLE_COLORS: Record<RoleName, string> = { Admin: 'red', Broker: 'blue', Agent: 'green', School: 'orange' };

export const BULK_ACTIONS = ['activate', 'deactivate', 'change_role', 'change_brokerage', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const USER_SORTS = ['name', 'email', 'role', 'brokerage', 'status', 'last_login', 'created_at'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** Normalised and checked for look-alikes (email.ts). */
const email = emailSchema;
const firstName = requiredText(USER_MESSAGES.firstNameRequired, 100);
const lastName = requiredText(USER_MESSAGES.lastNameRequired, 100);
/** A canonical role id (docs/decisions.md): 1 Admin, 2 Broker, 3 Agent, 4 School. */
export const roleIdSchema = z
  .number({ error: USER_MESSAGES.roleInvalid })
  .int(USER_MESSAGES.roleInvalid)
  .min(1, USER_MESSAGES.roleInvalid)
  .max(4, USER_MESSAGES.roleInvalid);
const brokerageRef = z.number({ error: 'Brokerage must be an id or null' }).int().positive().max(MAX_ID).nullable();

/** Contact fields shared by the user form and the profile; absent means unchanged on edit. */
const contactFields = {
  phone_number: optionalText(40).optional(),
  address: optionalText(300).optional(),
  city: optionalText(100).optional(),
  state: optionalText(50).optional(),
  zip_code: optionalText(20).optional(),
};

export const userCreateInput = z.object({
  email,
  password: z.string({ error: USER_MESSAGES.passwordRequired }).min(1, USER_MESSAGES.passwordRequired).max(1024),
  first_name: firstName,
  last_name: lastName,
  role_id: roleIdSchema.default(DEFAULT_NEW_USER_ROLE),
  brokerage_id: brokerageRef.optional(),
  is_active: z.boolean().optional(),
  ...contactFields,
});
export type UserCreateInput = z.input<typeof userCreateInput>;

/** Edit: every field optional (absent = unchanged); a blank or null password keeps the current one. */
export const userUpdateInput = z.object({
  id: idParam,
  email: email.optional(),
  password: z
    .string()
    .max(1024)
    .nullish()
    .transform((v) => (v ? v : undefined)),
  first_name: firstName.optional(),
  last_name: lastName.optional(),
  role_id: roleIdSchema.optional(),
  brokerage_id: brokerageRef.optional(),
  is_active: z.boolean().optional(),
  ...contactFields,
});
export type UserUpdateInput = z.input<typeof userUpdateInput>;

/** The signed-in user's own details (PUT /users/me/profile). */
export const profileUpdateInput = z.object({
  first_name: firstName,
  last_name: lastName,
  email,
  ...contactFields,
  /** Required when `email` differs from the current sign-in e-mail (docs/security.md "Re-authentication and stolen tokens"). */
  currentPassword: z.string().max(1024).optional(),
});
export type ProfileUpdateInput = z.input<typeof profileUpdateInput>;

/** The token of an e-mail change link: the confirmation sent to the new address, the undo sent to the old one. */
export const emailLinkInput = z.object({
  token: z.string({ error: 'The link is incomplete' }).trim().min(1, 'The link is incomplete').max(200),
});
export const emailLinkOutput = z.object({ success: z.boolean(), message: z.string() });
export type EmailLinkOutput = z.infer<typeof emailLinkOutput>;

/** `role` accepts a name ('Broker', any case) or a canonical id ('2'). */
const roleFilter = singleLine(20).transform((v, ctx) => {
  const byName = ROLE_NAMES.find((n) => n.toLowerCase() === v.toLowerCase());
  if (byName) return ROLE[byName];
  if (/^[1-4]$/.test(v)) return Number(v);
  ctx.addIssue({ code: 'custom', message: `Unknown role "${v}": use Admin, Broker, Agent, School or 1-4` });
  return z.NEVER;
});

export const usersListQuery = z.object({
  role: roleFilter.optional(),
  brokerage_id: idParam.optional(),
  search: singleLine(200).optional(),
  is_active: queryBoolean.optional(),
  page: z.coerce.number().int().min(1).default(1),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
  sort: z.enum(USER_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  /** Only rows changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});
export type UsersListQuery = z.input<typeof usersListQuery>;

export const usersListOutput = z.object({ users: z.array(userSchema), pagination: paginationSchema });
export type UsersListOutput = z.infer<typeof usersListOutput>;

export const userIdInput = z.object({ id: idParam });

export const bulkUsersInput = z.object({
  action: z.enum(BULK_ACTIONS, { error: USER_MESSAGES.unknownAction }),
  user_ids: z
    .array(z.number().int().positive().max(MAX_ID), { error: USER_MESSAGES.selectFirst })
    .min(1, USER_MESSAGES.selectFirst)
    .max(1000, 'At most 1000 users at once'),
  data: z
    .object({
      role_id: roleIdSchema.optional(),
      brokerage_id: brokerageRef.optional(),
    })
    .optional(),
});
export type BulkUsersInput = z.input<typeof bulkUsersInput>;

export const bulkUsersOutput = z.object({ success: z.literal(true), affected: z.number().int() });
export type BulkUsersOutput = z.infer<typeof bulkUsersOutput>;
