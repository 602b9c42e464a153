/**
 * Notification Management, the Admin's side: templates, test sends and the delivery history (docs/api/notifications.md).
 * The user's own notification centre is notifications.ts.
 */
import { z } from 'zod';
import { multiLine, singleLine } from './text.ts';
import { writeCalendarDate, type DateFormat } from './dates.ts';
import { EMAIL_RE, idParam, MAX_ID, paginationSchema, requiredText, cursorParam } from './common.ts';
import {
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  NOTIFICATION_TYPES,
  TRIGGER_EVENTS,
  type DeliveryChannel,
  type NotificationType,
  type TriggerEvent,
} from './domain-constants.ts';

/** UI strings of the Notification Management screen (docs/product.md sections 2, 5 and 8). */
export const NOTIFICATION_MANAGEMENT_STRINGS = {
  title: 'Notification Management',
  addTemplate: 'Add Template',
  addTitle: 'Add Notification Template',
  editTitle: 'Edit Notification Template',
  deleteConfirm: 'Are you sure you want to delete this notification template?',
  saved: 'Template saved successfully!',
  deleted: 'Template deleted successfully!',
  testSent: 'Test notification sent successfully!',
  noMailServer: 'No mail server is configured',
  noSmsGateway: 'No SMS gateway is configured',
  noPushGateway: 'No push gateway is configured',
  saveFailed: 'Failed to save template',
  deleteFailed: 'Failed to delete template',
  testFailed: 'Failed to send test notification',
  fetchTemplatesFailed: 'Failed to fetch notification templates',
  fetchHistoryFailed: 'Failed to fetch notification history',
  invalidTestEmail: 'Please enter a valid email address',
  statistics: 'Notification Statistics',
  recent: 'Recent Notifications',
  noRecent: 'No recent notifications',
  noTemplates: 'No notification templates',
  noDeliveries: 'No notifications sent yet',
  templatesThings: 'templates',
  deliveriesThings: 'notifications',
  history: 'Delivery History',
  templates: 'Templates',
} as const;

export const TEMPLATE_MESSAGES = {
  name: 'Template name is required',
  subject: 'Subject is required',
  body: 'Body is required',
  trigger: 'Trigger event is required',
} as const;

export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = { email: 'Email', sms: 'SMS', push: 'Push' };
/** Channels of the delivery history: the template types and the in-app notification centre. */
export const DELIVERY_CHANNEL_LABELS: Record<DeliveryChannel, string> = { ...NOTIFICATION_TYPE_LABELS, in_app: 'In-app' };

export const TRIGGER_EVENT_LABELS: Record<TriggerEvent, string> = {
  license_expiring: 'License Expiring',
  license_expired: 'License Expired',
  course_completed: 'Course Completed',
  payment_due: 'Payment Due',
  user_registered: 'User Registered',
  password_reset: 'Password Reset',
  ce_due: 'CE Due',
};

/**
 * The {{variables}} a template may use, with the sample value the preview and the test send show.
 * Automatic sends fill them from the real user, license, course or payment.
 */
export const TEMPLATE_VARIABLES = {
  user_name: { description: "Recipient's full name", sample: 'Jane Smith' },
  first_name: { description: "Recipient's first name", sample: 'Jane' },
  last_name: { description: "Recipient's last name", sample: 'Smith' },
  email: { description: "Recipient's email address", sample: 'jane.smith@example.com' },
  license_number: { description: 'License number', sample: 'SA-1234567' },
  license_state: { description: 'License state', sample: 'CA' },
  license_type: { description: 'License type', sample: 'Sales' },
  expiration_date: { description: "License expiration date (in the office's date format)", sample: '2026-12-31', date: true },
  days_until_expiration: { description: 'Days left before the license expires', sample: '30' },
  hours_remaining: { description: 'CE hours still to complete this cycle (CE due)', sample: '6' },
  topics_missing: {
    description: 'Required CE topics still missing, with their hours (CE due)',
    sample: 'Ethics (3 hours), Fair Housing (2 hours)',
  },
  hours_per_month: { description: 'CE hours a month needed to finish before the expiration date (CE due)', sample: '6' },
  brokerage_name: { description: "Recipient's brokerage", sample: 'Main Street Realty' },
  course_name: { description: 'Course title', sample: 'Ethics in Real Estate' },
  ce_hours: { description: 'CE hours of the course', sample: '3' },
  amount: { description: 'Payment amount in dollars', sample: '$150.00' },
  due_date: { description: "Payment due date (in the office's date format)", sample: '2026-12-01', date: true },
  completion_date: { description: "Date the course was completed (in the office's date format)", sample: '2026-11-02', date: true },
  payment_type: { description: 'Payment type', sample: 'Renewal Fee' },
  password_link: {
    description: 'Single-use link to choose a password (welcome and password reset e-mails)',
    sample: 'http://127.0.0.1:3000/reset-password?token=sample',
  },
  link_valid_for: { description: 'How long the password link works', sample: '60 minutes' },
  sign_in_url: { description: 'Address of the sign-in page', sample: 'http://127.0.0.1:3000/login' },
  app_name: { description: 'Application name (System Settings)', sample: 'Real Estate License Manager' },
  support_email: { description: 'Support email (System Settings)', sample: 'support@example.com' },
  support_phone: { description: 'Support phone (System Settings)', sample: '+1 555 0100' },
} as const;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;
export const TEMPLATE_VARIABLE_NAMES = Object.keys(TEMPLATE_VARIABLES) as TemplateVariable[];

export const SAMPLE_VALUES: Record<string, string> = Object.fromEntries(Object.entries(TEMPLATE_VARIABLES).map(([k, v]) => [k, v.sample]));

const PLACEHOLDER = /\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g;

/**
 * Replaces each {{name}} with its value; an unknown name stays as written, so a typo is visible. Only the
 * documented variables (TEMPLATE_VARIABLES) are resolved, and only from the values' own properties:
 * {{constructor}}, {{__proto__}} or {{toString}} are unknown names, not Object.prototype's members. Calendar dates
 * (expiration_date, due_date, completion_date) are written in the office's date format (Settings › General), as the
 * screens write them.
 */
export function renderTemplate(text: string, values: Record<string, string | number | null | undefined>, dateFormat: DateFormat): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!Object.hasOwn(TEMPLATE_VARIABLES, name) || !Object.hasOwn(values, name)) return whole;
    const v = values[name];
    if (v === undefined || v === null) return whole;
    return 'date' in TEMPLATE_VARIABLES[name as TemplateVariable] ? writeCalendarDate(String(v), dateFormat) : String(v);
  });
}

/** The distinct {{names}} used in the given texts, in order of first use. */
export function extractVariables(...texts: string[]): string[] {
  const seen = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(PLACEHOLDER)) seen.add(m[1]!);
  return [...seen];
}

const triggerEvent = z.enum(TRIGGER_EVENTS, {
  error: (iss) =>
    iss.input === undefined || iss.input === null || (typeof iss.input === 'string' && iss.input.trim() === '')
      ? TEMPLATE_MESSAGES.trigger
      : `Trigger event must be one of: ${TRIGGER_EVENTS.join(', ')}`,
});
const notificationType = z.enum(NOTIFICATION_TYPES, { error: `Type must be one of: ${NOTIFICATION_TYPES.join(', ')}` });
const variableName = singleLine(100).regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'Variable names use letters, digits and underscores');

/** The fields of a template as a form or an integrator sends them (all four required texts trimmed). */
const templateFields = {
  name: requiredText(TEMPLATE_MESSAGES.name, 120),
  subject: requiredText(TEMPLATE_MESSAGES.subject, 255),
  body: multiLine({ max: 10_000, required: TEMPLATE_MESSAGES.body }),
  type: notificationType,
  trigger_event: triggerEvent,
  is_active: z.boolean({ error: 'is_active must be true or false' }),
  variables: z.array(variableName).max(50, 'At most 50 variables'),
};

export const templateCreateInput = z.object({
  ...templateFields,
  type: templateFields.type.default('email'),
  is_active: templateFields.is_active.default(true),
  variables: templateFields.variables.default([]),
});
export type TemplateCreateInput = z.input<typeof templateCreateInput>;
export type TemplateCreateData = z.output<typeof templateCreateInput>;

/** PUT: the fields given are changed, the others kept. */
export const templateUpdateInput = z.object({
  id: idParam,
  name: templateFields.name.optional(),
  subject: templateFields.subject.optional(),
  body: templateFields.body.optional(),
  type: templateFields.type.optional(),
  trigger_event: templateFields.trigger_event.optional(),
  is_active: templateFields.is_active.optional(),
  variables: templateFields.variables.optional(),
});
export type TemplateUpdateInput = z.input<typeof templateUpdateInput>;
export type TemplateUpdateData = z.output<typeof templateUpdateInput>;

export const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.string(),
  body: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  trigger_event: z.enum(TRIGGER_EVENTS),
  is_active: z.boolean(),
  variables: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type NotificationTemplate = z.infer<typeof templateSchema>;

export const templateListOutput = z.object({ templates: z.array(templateSchema) });

export const testEmailSchema = singleLine({
  max: 254,
  required: NOTIFICATION_MANAGEMENT_STRINGS.invalidTestEmail,
  tooLong: NOTIFICATION_MANAGEMENT_STRINGS.invalidTestEmail,
}).regex(EMAIL_RE, NOTIFICATION_MANAGEMENT_STRINGS.invalidTestEmail);

export const templateTestInput = z.object({ id: idParam, test_email: testEmailSchema });
export type TemplateTestData = z.output<typeof templateTestInput>;

/**
 * How a delivery left (or did not): smtp = handed to the mail server; outbox = written as a file to
 * $DATA_DIR/outbox because no mail server is configured (not delivered to anyone); none = no gateway
 * exists for the channel (SMS, push), so it was not delivered.
 */
export const DELIVERY_TRANSPORTS = ['smtp', 'outbox', 'none'] as const;
export type DeliveryTransport = (typeof DELIVERY_TRANSPORTS)[number];

/** One delivery attempt (a row of the history). */
export const deliverySchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  template_id: z.number().int().nullable(),
  template_name: z.string(),
  channel: z.enum(DELIVERY_CHANNELS),
  status: z.enum(DELIVERY_STATUSES),
  /** smtp, outbox or none (see DELIVERY_TRANSPORTS); null while pending. */
  transport: z.enum(DELIVERY_TRANSPORTS).nullable(),
  subject: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** success: the message left (to the mail server or the outbox); message says where, for the toast. */
export const templateTestOutput = z.object({ success: z.boolean(), message: z.string(), delivery: deliverySchema });

export const historyInput = z
  .object({ limit: z.coerce.number().int().min(1, 'Limit must be at least 1').max(100, 'Limit must be at most 100').optional() })
  .optional();

/**
 * total_sent counts every attempt; successful only those delivered: handed to a mail server, or shown in
 * the notification centre (channel in_app, transport null);
 * in_outbox those written to the outbox (not delivered: no mail server); failed includes the
 * ones that could not go (no SMS or push gateway).
 */
export const historyOutput = z.object({
  total_sent: z.number().int(),
  successful: z.number().int(),
  in_outbox: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  recent: z.array(deliverySchema),
});
export type NotificationHistory = z.infer<typeof historyOutput>;

/** What this server can deliver through: the Notification Management and Settings screens say it plainly. */
export const deliveryStatusOutput = z.object({
  email: z.enum(['smtp', 'outbox']),
  /** Where e-mails are written when no mail server is configured. */
  outbox_dir: z.string(),
  sms_gateway: z.boolean(),
  push_gateway: z.boolean(),
});
export type DeliveryStatusInfo = z.infer<typeof deliveryStatusOutput>;

/** The label a delivery shows: an outbox file is never "delivered". */
export function deliveryLabel(
  d: Pick<Delivery, 'status' | 'transport'>,
): 'Delivered' | 'In outbox' | 'Not delivered' | 'Failed' | 'Pending' {
  if (d.status === 'pending') return 'Pending';
  if (d.status === 'failed') return d.transport === 'none' ? 'Not delivered' : 'Failed';
  return d.transport === 'outbox' ? 'In outbox' : 'Delivered';
}

/** The templates list's sort keys (its columns); ties by id. */
export const TEMPLATE_SORT_COLUMNS = ['name', 'type', 'trigger_event', 'is_active', 'updated_at'] as const;
export type TemplateSortColumn = (typeof TEMPLATE_SORT_COLUMNS)[number];

const pageFields = {
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
};

/** GET /admin/notification-templates/page and its CSV export (clients omit empty values). */
export const templatePageQuery = z.object({
  /** Name or subject, case-insensitive substring. */
  search: singleLine(200).optional(),
  type: z.enum(NOTIFICATION_TYPES).optional(),
  trigger_event: z.enum(TRIGGER_EVENTS).optional(),
  /** Default name, A to Z. */
  sort: z.enum(TEMPLATE_SORT_COLUMNS).optional(),
  ...pageFields,
});
export type TemplatePageQuery = z.infer<typeof templatePageQuery>;

/** The delivery history's sort keys (its columns); ties by id. */
export const DELIVERY_SORT_COLUMNS = ['created_at', 'recipient', 'template_name', 'channel', 'status', 'sent_at'] as const;
export type DeliverySortColumn = (typeof DELIVERY_SORT_COLUMNS)[number];

/** GET /admin/notification-history/page and its CSV export: every delivery attempt, filtered. */
export const deliveryPageQuery = z.object({
  /** Recipient, template name or subject, case-insensitive substring. */
  search: singleLine(200).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  channel: z.enum(DELIVERY_CHANNELS).optional(),
  template_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  /** Default created_at, newest first. */
  sort: z.enum(DELIVERY_SORT_COLUMNS).optional(),
  ...pageFields,
});
export type DeliveryPageQuery = z.infer<typeof deliveryPageQuery>;

export const templatePageOutput = z.object({ templates: z.array(templateSchema), pagination: paginationSchema });
export type TemplatePage = z.infer<typeof templatePageOutput>;
export const deliveryPageOutput = z.object({ deliveries: z.array(deliverySchema), pagination: paginationSchema });
export type DeliveryPage = z.infer<typeof deliveryPageOutput>;
