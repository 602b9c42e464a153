/**
 * The one way to tell a person something in the notification centre (docs/decisions.md "Notification centre").
 * Called inside the transaction of the change it reports, so both commit together (and a retried transaction
 * on PostgreSQL writes it once: the rows are in the same transaction). Honours the user's in-app preference,
 * skips a dedup_key already used (an insert that ignores the unique conflict) and records the in-app delivery
 * in notification_deliveries (channel in_app), so the Admin's delivery history lists it beside the e-mails.
 */
import { eq } from 'drizzle-orm';
import { NOTIFICATION_EVENT_LABELS, type NotificationEvent } from '@lm/shared';
import type { Tx } from '../../db/client.ts';
import { notifications, notificationDeliveries, users } from '../../db/schema/index.ts';
import { preferenceFor } from './preferences.ts';

export interface NotificationMessage {
  user_id: number;
  event: NotificationEvent;
  title: string;
  body?: string;
  /** Client path of the object, e.g. /documents?open=12 */
  link?: string | null;
  object_type?: string | null;
  object_id?: number | null;
  /** At most one notification per key (the daily pass uses it). */
  dedup_key?: string | null;
}

/** Inside the transaction of the change it reports, so both commit together. */
export async function notifyUser(tx: Tx, message: NotificationMessage): Promise<void> {
  const [user] = await tx
    .select({ email: users.email, first_name: users.first_name, last_name: users.last_name, deleted_at: users.deleted_at })
    .from(users)
    .where(eq(users.user_id, message.user_id));
  if (!user || user.deleted_at) return;
  if (!(await preferenceFor(tx, message.user_id, message.event)).in_app) return;
  const now = new Date().toISOString();
  const [inserted] = await tx
    .insert(notifications)
    .values({
      user_id: message.user_id,
      event: message.event,
      title: message.title.slice(0, 300),
      body: (message.body ?? '').slice(0, 2000),
      link: message.link ?? null,
      object_type: message.object_type ?? null,
      object_id: message.object_id ?? null,
      dedup_key: message.dedup_key ?? null,
      created_at: now,
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id });
  if (!inserted) return; // this dedup key was used before
  await tx.insert(notificationDeliveries).values({
    template_id: null,
    template_name: `In-app: ${NOTIFICATION_EVENT_LABELS[message.event]}`,
    channel: 'in_app',
    recipient: user.email || `${user.first_name} ${user.last_name}`,
    user_id: message.user_id,
    license_id: message.object_type === 'license' ? (message.object_id ?? null) : null,
    subject: message.title.slice(0, 300),
    body: message.body ?? '',
    status: 'sent',
    transport: null,
    created_at: now,
    sent_at: now,
  });
}

/** password_changed: told to the user after a change or a reset, so a change they did not make stands out. */
export function passwordChangedNotice(userId: number): NotificationMessage {
  return {
    user_id: userId,
    event: 'password_changed',
    title: 'Your password was changed',
    body: 'Your password was changed and your other sessions were signed out. If this was not you, reset your password or contact your administrator.',
    link: '/profile',
    object_type: 'user',
    object_id: userId,
  };
}
