/**
 * API keys (issue #29, docs/api.md "API keys", docs/decisions.md "API keys"): the key object, the create input and
 * answer (the secret once), the list query and answer, and the strings of Settings › Integrations' keys section.
 */
import { z } from 'zod';
import { idParam, paginationSchema, requiredText, cursorParam } from './common.ts';

/** What a key may do: `read` (GET only) or `write` (every method; write implies read). */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key as sent: `lmk_<prefix>_<secret>` (prefix 12 characters, secret 43, both base64url). */
export const API_KEY_PATTERN = /^lmk_([A-Za-z0-9_-]{12})_([A-Za-z0-9_-]{43})$/;
export const API_KEY_MARK = 'lmk_';

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  scopesRequired: 'Choose at least one scope',
} as const;

/** Strings of the API keys section (docs/product.md "Settings › Integrations"). */
export const API_KEY_STRINGS = {
  pageTitle: 'Integrations',
  pageIntro: 'Keys and webhooks that let other systems use License Manager.',
  title: 'API keys',
  intro: 'A key lets another system call the REST API (Authorization: Bearer <key>) without signing in.',
  create: 'Create API key',
  createTitle: 'Create API key',
  createSubmit: 'Create key',
  name: 'Name',
  namePlaceholder: 'Back-office sync',
  scopes: 'Scopes',
  scopeRead: 'Read',
  scopeWrite: 'Write',
  scopeHelp: 'Write includes read. A read key is refused (403) on every change.',
  brokerage: 'Brokerage',
  brokerageAll: 'All brokerages (Admin reach)',
  brokerageHelp: 'A brokerage key sees and changes only that brokerage, as its Broker would.',
  secretTitle: 'Your new API key',
  secretWarning: 'Copy this key now. It will not be shown again.',
  copy: 'Copy key',
  copied: 'Copied',
  done: 'Done',
  revoke: 'Revoke',
  revokeConfirmTitle: 'Revoke API key',
  revokeConfirm: (name: string) => `Revoke "${name}"? Systems using it are refused at once. This cannot be undone.`,
  columns: {
    name: 'Name',
    prefix: 'Key',
    scopes: 'Scopes',
    brokerage: 'Brokerage',
    createdBy: 'Created by',
    lastUsed: 'Last used',
    created: 'Created',
    status: 'Status',
  },
  never: 'Never',
  active: 'Active',
  revoked: 'Revoked',
  allBrokerages: 'All',
  empty: 'No API keys yet',
  created: 'API key created',
  revokedToast: 'API key revoked',
  createFailed: 'Failed to create API key',
  revokeFailed: 'Failed to revoke API key',
  fetchFailed: 'Failed to fetch API keys',
  things: 'API keys',
} as const;

export const apiKeySchema = z.object({
  api_key_id: z.number().int(),
  name: z.string(),
  /** The key's public part: `lmk_<prefix>_…` */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  brokerage_id: z.number().int().nullable(),
  brokerage_name: z.string().nullable(),
  created_by: z.number().int(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyCreateInput = z.object({
  name: requiredText(API_KEY_MESSAGES.nameRequired, 100),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1, API_KEY_MESSAGES.scopesRequired)
    .max(2)
    .transform((s) => [...new Set(s)]),
  /** Omitted or null: every brokerage (an Admin's key). A Broker's key is always for its own brokerage. */
  brokerage_id: idParam.nullable().optional(),
});
export type ApiKeyCreateInput = z.input<typeof apiKeyCreateInput>;

/** The create answer: the key and, this once, its secret. */
export const apiKeyCreatedSchema = apiKeySchema.extend({
  /** The whole key, `lmk_<prefix>_<secret>`: shown once, never again. */
  secret: z.string(),
});
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeysListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const apiKeysListOutput = z.object({ api_keys: z.array(apiKeySchema), pagination: paginationSchema });
export type ApiKeysListOutput = z.infer<typeof apiKeysListOutput>;

export const apiKeyIdInput = z.object({ id: idParam });

/** The scopes a stored scope stands for (write implies read). */
export const scopesOf = (scope: ApiKeyScope): ApiKeyScope[] => (scope === 'write' ? ['read', 'write'] : ['read']);
/** The stored scope of a list of scopes: the widest. */
export const scopeOf = (scopes: readonly ApiKeyScope[]): ApiKeyScope => (scopes.includes('write') ? 'write' : 'read');
