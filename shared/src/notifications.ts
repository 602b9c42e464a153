/** The notification centre and the calendar feed (docs/decisions.md "Notification centre", "Calendar feed"). */
import { z } from 'zod';
import { idParam, paginationSchema, DEFAULT_PAGE_SIZE, cursorParam } from './common.ts';
import { queryBoolean } from './text.ts';
import { NOTIFICATION_EVENTS, type NotificationEvent, type TriggerEvent } from './domain-constants.ts';
import { can, type PolicyAction, type PolicyUser } from './policy.ts';

export const NOTIFICATION_EVENT_LABELS: Record<NotificationEvent, string> = {
  license_expiring: 'License expiring',
  license_expired: 'License expired',
  completion_approved: 'Completion approved',
  completion_rejected: 'Completion rejected',
  payment_recorded: 'Payment recorded',
  payment_due: 'Payment due',
  password_changed: 'Password changed',
  document_added: 'Document added',
  webhook_disabled: 'Webhook endpoint disabled',
  ce_due: 'CE due',
};

/**
 * The template trigger whose e-mails and text messages an event's e-mail/SMS preference governs; null for the
 * events that only exist in the notification centre (their e-mail and SMS switches are always off).
 */
export const NOTIFICATION_EVENT_TRIGGERS: Record<NotificationEvent, TriggerEvent | null> = {
  license_expiring: 'license_expiring',
  license_expired: 'license_expired',
  completion_approved: 'course_completed',
  completion_rejected: null,
  payment_recorded: null,
  payment_due: 'payment_due',
  password_changed: null,
  document_added: null,
  webhook_disabled: null,
  ce_due: 'ce_due',
};

/** Events only some people receive, by the action that makes one a recipient; the others' preferences leave them out. */
const NOTIFICATION_EVENT_ACTIONS: Partial<Record<NotificationEvent, PolicyAction>> = { webhook_disabled: 'webhooks.manage' };

/** Whether this user can receive the event at all (its preference is listed). */
export function receivesEvent(user: Pick<PolicyUser, 'role_id'>, event: NotificationEvent): boolean {
  const action = NOTIFICATION_EVENT_ACTIONS[event];
  return action === undefined || can(user, action);
}

export const NOTIFICATION_STRINGS = {
  title: 'Notifications',
  tabNotifications: 'Notifications',
  tabPreferences: 'Preferences',
  tabCalendar: 'Calendar',
  markAllRead: 'Mark all read',
  unreadOnly: 'Unread only',
  empty: 'No notifications',
  emptyUnread: 'No unread notifications',
  things: 'notifications',
  preferencesSaved: 'Preferences saved',
  emailDisabled: 'E-mail notifications are switched off by the administrator',
  smsDisabled: 'SMS notifications are switched off by the administrator',
  inAppOnly: 'Only in the notification centre',
  /** How a channel the Admin switched off comes back (the preferences say it beside the reason). */
  channelOffHowTo: 'An Admin can switch them on in Settings › Notifications.',
  smsNoGateway: 'No SMS gateway is configured, so text messages cannot be sent from this server.',
  emailOutbox:
    'E-mail delivery is not set up on this server yet: e-mails are kept in its outbox and not sent. ' +
    'Whoever runs the server sets up the mail server; an Admin sees its state in Notification Management.',
  calendarCreated: 'Calendar link created',
  calendarStopped: 'Calendar feed stopped',
} as const;

export const notificationSchema = z.object({
  id: z.number().int(),
  event: z.enum(NOTIFICATION_EVENTS),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  object_type: z.string().nullable(),
  object_id: z.number().int().nullable(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type UserNotification = z.infer<typeof notificationSchema>;

export const notificationListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
  unread_only: queryBoolean.optional(),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

export const notificationListOutput = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int(),
  pagination: paginationSchema,
});
export type NotificationList = z.infer<typeof notificationListOutput>;

export const unreadCountOutput = z.object({ unread: z.number().int() });
export const notificationIdInput = z.object({ id: idParam });
export const markReadOutput = z.object({ success: z.literal(true), unread: z.number().int() });
export const markAllReadOutput = z.object({ success: z.literal(true), unread: z.literal(0), updated: z.number().int() });

export const eventPreferenceSchema = z.object({
  event: z.enum(NOTIFICATION_EVENTS),
  in_app: z.boolean(),
  email: z.boolean(),
  sms: z.boolean(),
});
export type EventPreference = z.infer<typeof eventPreferenceSchema>;

export const preferencesOutput = z.object({
  events: z.array(
    eventPreferenceSchema.extend({
      label: z.string(),
      /** False: the event only exists in the notification centre (no e-mail or SMS is ever sent for it). */
      external: z.boolean(),
    }),
  ),
  /** Which channels a user may switch on: the Admin's settings and the gateways decide; the reason says why not. */
  channels: z.object({
    in_app: z.literal(true),
    email: z.boolean(),
    sms: z.boolean(),
    email_reason: z.string().nullable(),
    sms_reason: z.string().nullable(),
    /** E-mail may be switched on but reaches no one yet (no mail server: the outbox), in words; null when it is sent. */
    email_note: z.string().nullable(),
  }),
});
export type Preferences = z.infer<typeof preferencesOutput>;

export const preferencesInput = z.object({
  events: z
    .array(eventPreferenceSchema)
    .min(1)
    .max(NOTIFICATION_EVENTS.length)
    .refine((list) => new Set(list.map((e) => e.event)).size === list.length, 'Each event at most once'),
});
export type PreferencesInput = z.infer<typeof preferencesInput>;

export const calendarTokenOutput = z.object({ url: z.string(), created_at: z.string() });
export const calendarStatusOutput = z.object({ active: z.boolean(), created_at: z.string().nullable() });
export type CalendarStatus = z.infer<typeof calendarStatusOutput>;
