/**
 * Each user's choice of channels per notification-centre event (docs/decisions.md "Notification centre").
 * A missing row means the defaults: in-app on for every event; e-mail and SMS on for the events that send them
 * (today's behaviour), off for the events that only exist in the notification centre. The Admin's System
 * Settings stay the outer bound: deliver() skips a channel they switched off whatever the user chose.
 */
import { and, eq } from 'drizzle-orm';
import {
  NOTIFICATION_EVENT_TRIGGERS,
  NOTIFICATION_EVENTS,
  type EventPreference,
  type NotificationEvent,
  type NotificationType,
  type TriggerEvent,
} from '@lm/shared';
import { notificationPreferences } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';

export function defaultPreference(event: NotificationEvent): EventPreference {
  const external = NOTIFICATION_EVENT_TRIGGERS[event] !== null;
  return { event, in_app: true, email: external, sms: external };
}

/** The user's stored preferences merged over the defaults, in NOTIFICATION_EVENTS order. */
export async function preferencesOf(db: DbOrTx, userId: number): Promise<EventPreference[]> {
  const rows = await db.select().from(notificationPreferences).where(eq(notificationPreferences.user_id, userId));
  return NOTIFICATION_EVENTS.map((event) => {
    const row = rows.find((r) => r.event === event);
    return row ? { event, in_app: row.in_app, email: row.email, sms: row.sms } : defaultPreference(event);
  });
}

export async function preferenceFor(db: DbOrTx, userId: number, event: NotificationEvent): Promise<EventPreference> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.user_id, userId), eq(notificationPreferences.event, event)));
  return row ? { event, in_app: row.in_app, email: row.email, sms: row.sms } : defaultPreference(event);
}

/** The notification-centre event whose preference governs a template trigger's messages, if any. */
export function notificationEventOf(trigger: TriggerEvent): NotificationEvent | null {
  return NOTIFICATION_EVENTS.find((e) => NOTIFICATION_EVENT_TRIGGERS[e] === trigger) ?? null;
}

/** Whether the user let this event reach them through an e-mail or SMS channel (push follows e-mail's address, no switch). */
export async function userAllowsChannel(db: DbOrTx, userId: number, event: NotificationEvent, channel: NotificationType): Promise<boolean> {
  if (channel === 'push') return true;
  const pref = await preferenceFor(db, userId, event);
  return channel === 'email' ? pref.email : pref.sms;
}
