/**
 * The brokerages domain: the brokerage object, its form input with the messages of docs/product.md section 5,
 * the paginated list query, and the strings of the Brokerage Management screen.
 */
import { z } from 'zod';
import { singleLine } from './text.ts';
import {
  cursorParam,
  DEFAULT_PAGE_SIZE,
  EMAIL_RE,
  idParam,
  optionalText,
  paginationSchema,
  requiredText,
  updatedSinceParam,
} from './common.ts';
import { userSchema } from './auth.ts';

export const BROKERAGE_MESSAGES = {
  nameRequired: 'Name is required',
  emailInvalid: 'Invalid email address',
  websiteInvalid: 'Website must start with http:// or https://',
} as const;

/** Strings the Brokerage Management screen shows (docs/product.md sections 2 and 8). */
export const BROKERAGE_STRINGS = {
  title: 'Brokerage Management',
  add: 'Add Brokerage',
  addTitle: 'Add New Brokerage',
  editTitle: 'Edit Brokerage',
  createSubmit: 'Create Brokerage',
  updateSubmit: 'Update Brokerage',
  searchPlaceholder: 'Search brokerages...',
  deleteConfirm: 'Are you sure you want to delete this brokerage? This action cannot be undone.',
  usersTitle: (name: string) => `Users in ${name}`,
  usersEmpty: 'No users found for this brokerage.',
  empty: 'No brokerages found',
  created: 'Brokerage created successfully!',
  updated: 'Brokerage updated successfully!',
  deleted: 'Brokerage deleted successfully!',
  createFailed: 'Failed to create brokerage',
  updateFailed: 'Failed to update brokerage',
  deleteFailed: 'Failed to delete brokerage',
  fetchFailed: 'Failed to fetch brokerages',
  fetchUsersFailed: 'Failed to fetch brokerage users',
  things: 'brokerages',
} as const;

/** docs/product.md section 9: page size 10, 20 or 50 (default 20), offered by the list bar (ListTable). */
export const BROKERAGE_PAGE_SIZES = [10, 20, 50] as const;

/** Every column of the Brokerage Management list sorts on the server; an empty value sorts last either way. */
export const BROKERAGE_SORTS = ['name', 'address', 'phone', 'email', 'website', 'agent_count', 'created_at'] as const;
export type BrokerageSort = (typeof BROKERAGE_SORTS)[number];

export const brokerageSchema = z.object({
  brokerage_id: z.number().int(),
  name: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  /** Agents (not deleted) assigned to the brokerage. */
  agent_count: z.number().int(),
  created_at: z.string(),
});
export type Brokerage = z.infer<typeof brokerageSchema>;

const name = requiredText(BROKERAGE_MESSAGES.nameRequired, 200);
const email = optionalText(254).refine((v) => v === null || EMAIL_RE.test(v), BROKERAGE_MESSAGES.emailInvalid);
const website = optionalText(300).refine((v) => v === null || /^https?:\/\/\S+$/i.test(v), BROKERAGE_MESSAGES.websiteInvalid);

export const brokerageCreateInput = z.object({
  name,
  address: optionalText(300),
  phone: optionalText(40),
  email,
  website,
});
export type BrokerageCreateInput = z.input<typeof brokerageCreateInput>;

/** Edit: absent fields stay as they are; "" or null clears an optional field. */
export const brokerageUpdateInput = z.object({
  id: idParam,
  name: name.optional(),
  address: optionalText(300).optional(),
  phone: optionalText(40).optional(),
  email: email.optional(),
  website: website.optional(),
});
export type BrokerageUpdateInput = z.input<typeof brokerageUpdateInput>;

export const brokeragesListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
  search: singleLine(200).optional(),
  sort: z.enum(BROKERAGE_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  /** Only rows changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});
export type BrokeragesListQuery = z.input<typeof brokeragesListQuery>;

export const brokeragesListOutput = z.object({ brokerages: z.array(brokerageSchema), pagination: paginationSchema });
export type BrokeragesListOutput = z.infer<typeof brokeragesListOutput>;

export const brokerageIdInput = z.object({ id: idParam });
export const brokerageUsersOutput = z.object({ users: z.array(userSchema) });
export const brokerageOptionsOutput = z.array(z.object({ brokerage_id: z.number().int(), name: z.string() }));
