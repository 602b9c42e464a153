/**
 * Webhooks (issue 29, docs/api.md "Webhooks"): the endpoints an Admin registers, the events they subscribe to
 * and the delivery log. Deliveries follow the Standard Webhooks specification (webhook-id, webhook-timestamp,
 * webhook-signature), body `{type, timestamp, data}`.
 */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, idParam, paginationSchema } from './common.ts';
import { optionalLine, singleLine } from './text.ts';

/** Every event an endpoint may subscribe to; `data` is the REST API's answer for the object. */
export const WEBHOOK_EVENTS = [
  'license.created',
  'license.updated',
  'license.renewed',
  'license.expired',
  'license.expiring',
  'completion.approved',
  'payment.recorded',
  'user.created',
  'import.committed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event of POST /webhooks/{id}/test: sent to that one endpoint, never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'license.created': 'License created',
  'license.updated': 'License updated',
  'license.renewed': 'License renewed',
  'license.expired': 'License expired',
  'license.expiring': 'License expiring (enters the reminder window)',
  'completion.approved': 'Completion approved',
  'payment.recorded': 'Payment recorded',
  'user.created': 'User created',
  'import.committed': 'Import committed',
};

/**
 * The wait before each retry after a failed attempt (ms): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. Seven attempts in
 * all over about 18 hours; after the last the delivery is given up (a manual redelivery sends it again).
 */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** An endpoint whose deliveries have failed without a success for this long is disabled and the Admins told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 3;
/** The most endpoints there may be (every event reads them all): bounded work per change. */
export const WEBHOOK_MAX_ENDPOINTS = 50;

export const WEBHOOK_MESSAGES = {
  urlScheme: 'The URL must start with http:// or https://',
  urlInvalid: 'Enter a valid URL, e.g. https://example.com/hooks',
  urlCredentials: 'The URL must not contain a user name or password',
  urlPrivate: 'This URL points to a private, loopback or link-local address; webhooks go only to public addresses',
  urlUnresolvable: 'The URL’s host name could not be resolved',
  eventsRequired: 'Choose at least one event',
  disabledEndpoint: 'This endpoint is disabled; enable it before redelivering',
  tooMany: `There can be at most ${WEBHOOK_MAX_ENDPOINTS} webhook endpoints; delete one first`,
} as const;

/** The strings of the Integrations screen's Webhooks section (docs/product.md "Webhooks"). */
export const WEBHOOK_STRINGS = {
  title: 'Webhooks',
  intro: 'Webhooks send a signed HTTP POST to your URL when something changes. Each delivery is retried with backoff on failure.',
  add: 'Add endpoint',
  createTitle: 'Add webhook endpoint',
  editTitle: 'Edit webhook endpoint',
  secretTitle: 'Signing secret',
  secretOnce: 'Copy this signing secret now: it is shown only once. Use it to verify the webhook-signature header.',
  empty: 'No webhook endpoints yet',
  deliveriesTitle: (url: string) => `Deliveries to ${url}`,
  noDeliveries: 'No deliveries yet',
  redeliver: 'Redeliver',
  sendTest: 'Send test event',
  deleteConfirm: (url: string) => `Delete the webhook endpoint ${url}? Its pending deliveries are dropped.`,
  created: 'Webhook endpoint added',
  updated: 'Webhook endpoint saved',
  enabled: 'Webhook endpoint enabled',
  disabled: 'Webhook endpoint disabled',
  deleted: 'Webhook endpoint deleted',
  redelivered: 'Delivery queued again',
  tested: 'Test event queued',
  disabledTitle: (url: string) => `Webhook endpoint disabled: ${url}`,
  disabledBody: (reason: string) =>
    `${reason} Fix the receiver, then enable the endpoint again under Settings › Integrations; its pending deliveries are then sent.`,
  failingReason: (days: number) => `Every delivery failed for ${days} days.`,
  things: 'webhook endpoints',
  deliveryThings: 'deliveries',
  fetchFailed: 'Failed to load webhook endpoints',
  deliveriesFailed: 'Failed to load deliveries',
  createFailed: 'Failed to add the webhook endpoint',
  updateFailed: 'Failed to save the webhook endpoint',
  deleteFailed: 'Failed to delete the webhook endpoint',
  redeliverFailed: 'Failed to queue the delivery again',
  testFailed: 'Failed to queue the test event',
  url: 'Endpoint URL',
  urlPlaceholder: 'https://example.com/hooks/license-manager',
  description: 'Description',
  events: 'Events',
  eventsHelp: 'The events sent to this endpoint',
  submitCreate: 'Add endpoint',
  submitEdit: 'Save',
  copy: 'Copy secret',
  copied: 'Copied',
  done: 'Done',
  enable: 'Enable',
  disable: 'Disable',
  edit: 'Edit',
  delete: 'Delete',
  deleteTitle: 'Delete webhook endpoint',
  deliveries: 'Deliveries',
  statusEnabled: 'Enabled',
  statusDisabled: 'Disabled',
  statusFailing: 'Failing',
  failingSince: (when: string) => `Failing since ${when}`,
  columns: { url: 'URL', events: 'Events', status: 'Status', created: 'Created' },
  deliveryColumns: {
    event: 'Event',
    id: 'Webhook ID',
    state: 'Status',
    attempts: 'Attempts',
    lastStatus: 'Last response',
    duration: 'Duration',
    next: 'Next attempt',
    delivered: 'Delivered',
  },
  deliveryStates: { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' },
  noResponse: 'No response',
  attemptsTitle: 'Attempts',
} as const;

const webhookEvents = z.array(z.enum(WEBHOOK_EVENTS)).min(1, WEBHOOK_MESSAGES.eventsRequired).max(WEBHOOK_EVENTS.length);

const URL_SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** scheme://[user@]host[:port][/path?query#hash], host a name or a [bracketed] IPv6 address. */
const HTTP_URL =
  /^https?:\/\/(?<user>[^/?#@\s]*@)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** http(s) only, no credentials; the server also refuses hosts that resolve to private addresses. */
export const webhookUrl = singleLine({ max: 2000, required: WEBHOOK_MESSAGES.urlInvalid }).superRefine((value, ctx) => {
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlScheme });
    return;
  }
  const match = HTTP_URL.exec(value);
  if (!match) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlInvalid });
  else if (match.groups?.user) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlCredentials });
});

export const createWebhookInput = z.object({
  url: webhookUrl,
  events: webhookEvents,
  description: optionalLine(200),
});
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

export const updateWebhookInput = z.object({
  id: idParam,
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  description: optionalLine(200),
  /** true re-enables a disabled endpoint and clears its failing state. */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookInput = z.input<typeof updateWebhookInput>;

export const webhookIdInput = z.object({ id: idParam });

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  /** When the first of the current run of failures happened; null when the last attempt succeeded. */
  failing_since: z.string().nullable(),
  /** The first characters of the secret (whsec_ and 4 more), to tell endpoints apart. */
  secret_prefix: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** POST /webhooks: the endpoint and its signing secret, shown this once. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookListOutput = z.object({ webhooks: z.array(webhookSchema) });

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const webhookAttemptSchema = z.object({
  attempted_at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const webhookDeliverySchema = z.object({
  /** The webhook-id header: the same on every attempt. */
  id: z.string(),
  webhook_id: z.number().int(),
  event: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  created_at: z.string(),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_duration_ms: z.number().int().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** Every attempt, oldest first. */
  attempt_log: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuery = z.object({
  id: idParam,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
export type WebhookDeliveriesQuery = z.output<typeof webhookDeliveriesQuery>;

export const webhookDeliveriesOutput = z.object({ deliveries: z.array(webhookDeliverySchema), pagination: paginationSchema });

export const redeliverInput = z.object({
  id: idParam,
  delivery_id: singleLine(80).regex(/^msg_[A-Za-z0-9]{1,64}$/, 'Not a delivery id'),
});
