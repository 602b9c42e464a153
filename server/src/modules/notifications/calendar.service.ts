/**
 * The calendar (.ics) feed of each user (docs/decisions.md "Calendar feed"). The URL's secret is 32 random
 * bytes (base64url); only its SHA-256 is stored (calendar_feeds.token_hash, one feed per user), so the URL
 * is shown once and a rotation or a stop makes the old URL answer 404. The feed holds, per license in the
 * owner's calendar scope: the expiration (all-day), the renewal deadline (expiration minus the System
 * Settings' license_expiry_warning_days) and, when CE hours are required, the CE due date (the cycle's end,
 * the expiration date) with the hours remaining from the license's CE cache (the CE ledger keeps it exact).
 * Scope: Agent its own licenses; Broker its own and its brokerage's; Admin its own only (an office-wide
 * feed of every license helps nobody); School none (an empty calendar).
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import ical, { type ICalCalendar } from 'ical-generator';
import { addDays, can, roundHours, ROLE } from '@lm/shared';
import { calendarFeeds, users } from '../../db/schema/index.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { audit } from '../../core/audit.ts';
import { assertNotInMaintenance } from '../../core/access.ts';
import { notFound } from '../../base/errors.ts';
import { getSettings } from '../../core/settings.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { listLicenses } from '../licenses/licenses.service.ts';

/** Licenses whose dates a feed shows (not Inactive or Suspended ones). */
const FEED_STATUSES = ['Active', 'Pending Renewal', 'Expired'] as const;
/** A bound on one feed (a Broker of a very large brokerage): the soonest expirations first. */
export const FEED_MAX_LICENSES = 5000;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The URL of a feed: `${PUBLIC_URL}/api/calendar/<token>.ics`. */
export const feedUrl = (config: Config, token: string) => `${config.publicUrl}/api/calendar/${token}.ics`;

/** POST /calendar/token: a new secret (the old URL stops working); the URL is answered once. */
export async function createCalendarToken(ctx: AuthedContext): Promise<{ url: string; created_at: string }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const createdAt = new Date().toISOString();
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(calendarFeeds)
      .where(eq(calendarFeeds.user_id, ctx.user.user_id))
      .returning({ user_id: calendarFeeds.user_id });
    await tx.insert(calendarFeeds).values({ token_hash: hashOf(token), user_id: ctx.user.user_id, created_at: createdAt });
    await audit(tx, ctx.actor, {
      action: removed.length > 0 ? 'rotate_calendar_feed' : 'create_calendar_feed',
      table: 'calendar_feeds',
      id: ctx.user.user_id,
      new: { created_at: createdAt },
    });
  });
  return { url: feedUrl(ctx.config, token), created_at: createdAt };
}

/** DELETE /calendar/token: stops the feed (its URL answers 404). Stopping no feed is a no-op. */
export async function deleteCalendarToken(ctx: AuthedContext): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(calendarFeeds)
      .where(eq(calendarFeeds.user_id, ctx.user.user_id))
      .returning({ created_at: calendarFeeds.created_at });
    if (removed.length > 0) {
      await audit(tx, ctx.actor, { action: 'delete_calendar_feed', table: 'calendar_feeds', id: ctx.user.user_id, old: removed[0] });
    }
  });
  return { success: true };
}

/** Whether the user has a calendar link (a password change offers to rotate it). */
export async function hasCalendarFeed(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db.select({ user_id: calendarFeeds.user_id }).from(calendarFeeds).where(eq(calendarFeeds.user_id, userId));
  return Boolean(row);
}

/**
 * Stops a user's feed inside the caller's transaction (an undone e-mail change: whoever took the account may hold
 * the link); the caller audits. Returns whether there was one.
 */
export async function stopCalendarFeed(tx: Tx, userId: number): Promise<boolean> {
  const removed = await tx.delete(calendarFeeds).where(eq(calendarFeeds.user_id, userId)).returning({ user_id: calendarFeeds.user_id });
  return removed.length > 0;
}

export async function calendarStatus(ctx: AuthedContext): Promise<{ active: boolean; created_at: string | null }> {
  const [row] = await ctx.db
    .select({ created_at: calendarFeeds.created_at })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.user_id, ctx.user.user_id));
  return { active: Boolean(row), created_at: row?.created_at ?? null };
}

/**
 * The feed of a token, or 404 for an unknown one (or one of a deactivated or deleted user). The lookup is by
 * the token's SHA-256 (an index lookup of a hash reveals nothing about the secret through its timing).
 * Maintenance mode answers 503 to everyone but Admins, as the API does.
 */
export async function calendarFeed(db: Db, config: Config, token: string): Promise<ICalCalendar> {
  const [owner] = await db
    .select({
      user_id: users.user_id,
      role_id: users.role_id,
      brokerage_id: users.brokerage_id,
      is_active: users.is_active,
      deleted_at: users.deleted_at,
    })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.user_id, calendarFeeds.user_id))
    .where(eq(calendarFeeds.token_hash, hashOf(token)));
  if (!owner || !owner.is_active || owner.deleted_at) throw notFound('Calendar feed');
  await assertNotInMaintenance({ db }, owner);
  const settings = await getSettings(db);
  const cal = ical({
    name: `${settings.app_name}: license dates`,
    prodId: { company: settings.app_name, product: 'License Manager', language: 'EN' },
  });
  // A role that may not read licenses (a School) has an empty calendar.
  if (!can(owner, 'licenses.read')) return cal;

  // The licenses list answers the feed (its scope, its status and compliance): an Admin's feed holds its own only.
  const ctx = { db, user: { ...owner, email: '', first_name: '', last_name: '' } };
  const listed = await listLicenses(ctx, {
    user_id: owner.role_id === ROLE.Admin ? owner.user_id : undefined,
    sort: 'expiration_date',
    limit: FEED_MAX_LICENSES,
  });
  const rows = listed.filter((l) => (FEED_STATUSES as readonly string[]).includes(l.status));

  const host = new URL(config.publicUrl).hostname || 'license-manager';
  const link = (l: (typeof rows)[number]) => `${config.publicUrl}/licenses?search=${encodeURIComponent(l.license_number)}`;
  for (const l of rows) {
    const whose = l.user_id === owner.user_id ? '' : ` (${l.first_name} ${l.last_name})`;
    const what = `${l.license_type} license ${l.license_number}, ${l.state}`;
    cal.createEvent({
      id: `license-${l.license_id}-expiration@${host}`,
      start: l.expiration_date,
      allDay: true,
      summary: `License ${l.license_number} expires${whose}`,
      description: `${what}${whose} expires on ${l.expiration_date}.`,
      url: link(l),
    });
    const renewBy = addDays(l.expiration_date, -settings.license_expiry_warning_days);
    cal.createEvent({
      id: `license-${l.license_id}-renewal@${host}`,
      start: renewBy,
      allDay: true,
      summary: `Renew license ${l.license_number}${whose}`,
      description: `${what}${whose} expires on ${l.expiration_date}: start the renewal (${settings.license_expiry_warning_days} days ahead).`,
      url: link(l),
    });
    const { hours_remaining: remaining, topics_missing: topics } = l.compliance;
    if (l.ce_hours_required > 0 || topics.length > 0) {
      const missing = topics.length > 0 ? ` Topics still missing: ${topics.map((t) => `${t.topic} (${t.hours} h)`).join(', ')}.` : '';
      cal.createEvent({
        id: `license-${l.license_id}-ce@${host}`,
        start: l.expiration_date,
        allDay: true,
        summary:
          remaining > 0
            ? `CE due for ${l.license_number}: ${remaining} hour${remaining === 1 ? '' : 's'} remaining${whose}`
            : `CE complete for ${l.license_number}${whose}`,
        description: `Continuing education of ${what}${whose}: ${roundHours(l.ce_hours_completed)} of ${l.ce_hours_required} hours completed in the current cycle, due ${l.expiration_date}.${missing}`,
        url: link(l),
      });
    }
  }
  return cal;
}
