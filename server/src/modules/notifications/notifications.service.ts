/**
 * The notification centre of the signed-in user (docs/decisions.md "Notification centre"): their own
 * notifications only (another user's id answers 404), read state, and their channel preferences per event.
 */
import { and, eq, getTableColumns, isNull } from 'drizzle-orm';
import {
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENT_TRIGGERS,
  receivesEvent,
  NOTIFICATION_STRINGS,
  type NotificationList,
  type Preferences,
  type PreferencesInput,
} from '@lm/shared';
import type { z } from 'zod';
import type { notificationListQuery } from '@lm/shared';
import { notifications, notificationPreferences } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countOf } from '../../db/sql.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, notFound } from '../../base/errors.ts';
import { getSettings } from '../../core/settings.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { deliveryStatus } from '../notification-management/delivery.ts';
import { preferencesOf } from './preferences.ts';
import { cappedCountOf, keyColumns, orderOf, pageWhere, readPage, type ListOrder } from '../../db/list.ts';

type Row = typeof notifications.$inferSelect;

const toApi = (r: Row) => ({
  id: r.id,
  event: r.event,
  title: r.title,
  body: r.body,
  link: r.link,
  object_type: r.object_type,
  object_id: r.object_id,
  read_at: r.read_at,
  created_at: r.created_at,
});

async function unreadOf(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: countOf() })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)));
  return Number(row?.n ?? 0);
}

/** GET /notifications: mine, newest first, one page; optionally the unread ones only. */
export async function listNotifications(ctx: AuthedContext, q: z.output<typeof notificationListQuery>): Promise<NotificationList> {
  const mine = eq(notifications.user_id, ctx.user.user_id);
  const where = q.unread_only ? and(mine, isNull(notifications.read_at)) : mine;
  const order: ListOrder = { sort: [notifications.created_at], order: 'desc', id: notifications.id };
  const { rows, pagination } = await readPage(q, {
    order,
    count: () => cappedCountOf(ctx.db, notifications, where),
    rows: (window) =>
      ctx.db
        .select({ ...getTableColumns(notifications), ...keyColumns(order) })
        .from(notifications)
        .where(pageWhere(where, order, window))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(window.limit)
        .offset(window.offset),
  });
  return { notifications: rows.map(toApi), unread: await unreadOf(ctx.db, ctx.user.user_id), pagination };
}

export async function unreadCount(ctx: AuthedContext): Promise<{ unread: number }> {
  return { unread: await unreadOf(ctx.db, ctx.user.user_id) };
}

/** Reading is not audited (it changes nothing but the reader's own view). */
export async function markRead(ctx: AuthedContext, id: number): Promise<{ success: true; unread: number }> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ read_at: notifications.read_at })
      .from(notifications)
      .where(and(eq(notifications.id, id), eq(notifications.user_id, ctx.user.user_id)));
    if (!row) throw notFound('Notification');
    if (!row.read_at) await tx.update(notifications).set({ read_at: new Date().toISOString() }).where(eq(notifications.id, id));
    return { success: true as const, unread: await unreadOf(tx, ctx.user.user_id) };
  });
}

export async function markAllRead(ctx: AuthedContext): Promise<{ success: true; unread: 0; updated: number }> {
  const updated = await ctx.db.transaction((tx) =>
    tx
      .update(notifications)
      .set({ read_at: new Date().toISOString() })
      .where(and(eq(notifications.user_id, ctx.user.user_id), isNull(notifications.read_at)))
      .returning({ id: notifications.id }),
  );
  return { success: true, unread: 0, updated: updated.length };
}

/**
 * Which channels a user may switch on: e-mail if the Admin allows it; SMS if allowed and a gateway exists. A reason
 * says why not and how the channel comes back (docs/decisions.md "Honest screens"); without a gateway no switch of
 * the Admin's helps, so that reason comes first. E-mail without a mail server may be switched on but is kept in the
 * outbox: the note says so.
 */
async function channelsAllowed(ctx: AuthedContext): Promise<Preferences['channels']> {
  const settings = await getSettings(ctx.db);
  const delivery = deliveryStatus(ctx.config);
  const gateway = delivery.sms_gateway;
  return {
    in_app: true,
    email: settings.email_notifications_enabled,
    sms: settings.sms_notifications_enabled && gateway,
    email_reason: settings.email_notifications_enabled
      ? null
      : `${NOTIFICATION_STRINGS.emailDisabled}. ${NOTIFICATION_STRINGS.channelOffHowTo}`,
    sms_reason: !gateway
      ? NOTIFICATION_STRINGS.smsNoGateway
      : settings.sms_notifications_enabled
        ? null
        : `${NOTIFICATION_STRINGS.smsDisabled}. ${NOTIFICATION_STRINGS.channelOffHowTo}`,
    email_note: settings.email_notifications_enabled && delivery.email === 'outbox' ? NOTIFICATION_STRINGS.emailOutbox : null,
  };
}

/**
 * GET /notifications/preferences: what reaches the user now. A channel the Admin disabled shows off (whatever
 * was stored: the stored choice comes back when the Admin enables it again), as do e-mail and SMS of the
 * events that only exist in the notification centre.
 */
export async function getPreferences(ctx: AuthedContext): Promise<Preferences> {
  const channels = await channelsAllowed(ctx);
  const prefs = await preferencesOf(ctx.db, ctx.user.user_id);
  return {
    events: prefs
      .filter((p) => receivesEvent(ctx.user, p.event))
      .map((p) => {
        const external = NOTIFICATION_EVENT_TRIGGERS[p.event] !== null;
        return {
          event: p.event,
          label: NOTIFICATION_EVENT_LABELS[p.event],
          external,
          in_app: p.in_app,
          email: external && channels.email && p.email,
          sms: external && channels.sms && p.sms,
        };
      }),
    channels,
  };
}

/**
 * PUT /notifications/preferences: saves the listed events (upsert), audited. Switching on a channel the Admin
 * disabled (or SMS without a gateway) is refused (400, nothing saved); for such a channel the stored choice is
 * kept. E-mail and SMS of in-app-only events are stored off.
 */
export async function savePreferences(ctx: AuthedContext, input: PreferencesInput): Promise<Preferences> {
  const channels = await channelsAllowed(ctx);
  if (!channels.email && input.events.some((e) => e.email && NOTIFICATION_EVENT_TRIGGERS[e.event] !== null)) {
    throw badRequest(channels.email_reason ?? NOTIFICATION_STRINGS.emailDisabled);
  }
  if (!channels.sms && input.events.some((e) => e.sms && NOTIFICATION_EVENT_TRIGGERS[e.event] !== null)) {
    throw badRequest(`SMS notifications cannot be switched on. ${channels.sms_reason ?? NOTIFICATION_STRINGS.smsNoGateway}`);
  }
  const userId = ctx.user.user_id;
  await ctx.db.transaction(async (tx) => {
    const before = await preferencesOf(tx, userId);
    const now = new Date().toISOString();
    const changed = [];
    for (const e of input.events) {
      const old = before.find((b) => b.event === e.event)!;
      const external = NOTIFICATION_EVENT_TRIGGERS[e.event] !== null;
      const next = {
        in_app: e.in_app,
        email: external && (channels.email ? e.email : old.email),
        sms: external && (channels.sms ? e.sms : old.sms),
      };
      await tx
        .insert(notificationPreferences)
        .values({ user_id: userId, event: e.event, ...next, updated_at: now })
        .onConflictDoUpdate({
          target: [notificationPreferences.user_id, notificationPreferences.event],
          set: { ...next, updated_at: now },
        });
      if (next.in_app !== old.in_app || next.email !== old.email || next.sms !== old.sms) changed.push({ event: e.event, old, new: next });
    }
    if (changed.length > 0) {
      await audit(tx, ctx.actor, {
        action: 'update_notification_preferences',
        table: 'notification_preferences',
        id: userId,
        // A list, not an object keyed by event: audit() drops keys that look like secrets (password_changed).
        old: { events: changed.map((c) => ({ event: c.event, in_app: c.old.in_app, email: c.old.email, sms: c.old.sms })) },
        new: { events: changed.map((c) => ({ event: c.event, ...c.new })) },
      });
    }
  });
  return getPreferences(ctx);
}
