/**
 * Automatic license reminders (run by reminders.job.ts on start and daily; tests call runReminders).
 *
 * Holders: each license with status Active or Pending Renewal whose expiration_date is within
 * settings.license_expiry_warning_days from today gets the active license_expiring template; a license
 * that has expired (status Active, Pending Renewal or Expired, expired at most EXPIRED_LOOKBACK_DAYS ago)
 * gets license_expired. The reminder key `{trigger}:{license_id}:{expiration_date}:{channel}` makes each
 * one go out at most once per threshold and cycle (a renewal moves expiration_date: a new cycle), across
 * restarts, because the key is a unique column of notification_deliveries.
 *
 * Brokers: a digest of their agents' expiring and expired licenses at settings.notification_frequency:
 * daily, weekly (the week starting Monday) or monthly, key `broker_digest:{broker_id}:{period}`; with
 * immediate, one notice per license instead, key `broker_notice:{broker_id}:{trigger}:{license_id}:{expiration_date}`.
 *
 * Payments (reminders.payments.ts): Pending payments whose date has come, once to the payer; the digests (or
 * immediate notices, key `broker_notice:{broker_id}:payment_due:{payment_id}`) list them for the payer's Broker.
 */
import { and, asc, eq, gte, inArray, isNull, lte, lt, or } from 'drizzle-orm';
import { addDays, daysBetween, renderTemplate, ROLE, type Settings, type TriggerEvent } from '@lm/shared';
import { brokerages, licenses, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { getSettings } from '../../core/settings.ts';
import { today as officeToday } from '../../core/dates.ts';
import { deliver, type DeliveryOutcome } from './delivery.ts';
import { describePayment, duePayments, remindPayers, type DuePayment } from './reminders.payments.ts';
import { activeTemplates, recipientFor } from './events.ts';
import { notifyUser, type InboxMessage } from '../inbox/notify.ts';

/** An expiry older than this when first seen is not announced (no flood after importing old records). */
export const EXPIRED_LOOKBACK_DAYS = 30;
export const DIGEST_TEMPLATE_NAME = 'Broker digest: expiring licenses';
export const NOTICE_TEMPLATE_NAME = 'Broker notice: agent license';

export interface ReminderSummary {
  sent: number;
  failed: number;
  /** Already sent before (reminder key taken). */
  duplicates: number;
  /** Channel switched off in System Settings, or by the recipient for this event (notification preferences). */
  disabled: number;
  /** No address for the channel (an SMS template and no phone number). */
  no_address: number;
}

interface DueLicense {
  license_id: number;
  license_number: string;
  state: string;
  license_type: string;
  expiration_date: string;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  role_id: number;
  brokerage_id: number | null;
  brokerage_name: string | null;
  trigger: Extract<TriggerEvent, 'license_expiring' | 'license_expired'>;
  days_left: number;
}

async function dueLicenses(db: Db, today: string, settings: Settings): Promise<DueLicense[]> {
  const windowEnd = addDays(today, settings.license_expiry_warning_days);
  const lookback = addDays(today, -EXPIRED_LOOKBACK_DAYS);
  const rows = await db
    .select({
      license_id: licenses.license_id,
      license_number: licenses.license_number,
      state: licenses.state,
      license_type: licenses.license_type,
      expiration_date: licenses.expiration_date,
      status: licenses.status,
      user_id: users.user_id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      phone_number: users.phone_number,
      role_id: users.role_id,
      brokerage_id: users.brokerage_id,
      brokerage_name: brokerages.name,
    })
    .from(licenses)
    .innerJoin(users, eq(users.user_id, licenses.user_id))
    .leftJoin(brokerages, eq(brokerages.brokerage_id, users.brokerage_id))
    .where(
      and(
        eq(users.is_active, true),
        isNull(users.deleted_at),
        or(
          and(
            inArray(licenses.status, ['Active', 'Pending Renewal']),
            gte(licenses.expiration_date, today),
            lte(licenses.expiration_date, windowEnd),
          ),
          and(
            inArray(licenses.status, ['Active', 'Pending Renewal', 'Expired']),
            lt(licenses.expiration_date, today),
            gte(licenses.expiration_date, lookback),
          ),
        ),
      ),
    )
    .orderBy(asc(licenses.expiration_date), asc(licenses.license_id));
  return rows.map((r) => ({
    ...r,
    trigger: r.expiration_date < today ? 'license_expired' : 'license_expiring',
    days_left: daysBetween(today, r.expiration_date),
  }));
}

function licenseValues(l: DueLicense, settings: Settings): Record<string, string> {
  return {
    user_name: `${l.first_name} ${l.last_name}`,
    first_name: l.first_name,
    last_name: l.last_name,
    email: l.email,
    license_number: l.license_number,
    license_state: l.state,
    license_type: l.license_type,
    expiration_date: l.expiration_date,
    days_until_expiration: String(Math.max(0, l.days_left)),
    days_since_expiration: String(Math.max(0, -l.days_left)),
    brokerage_name: l.brokerage_name ?? '',
    app_name: settings.app_name,
    support_email: settings.support_email,
  };
}

/** "License CA-123 expires in 30 days" / "License CA-123 expired": the holder's in-app notification. */
function licenseNotice(l: DueLicense): InboxMessage {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const title =
    l.trigger === 'license_expired'
      ? `License ${l.license_number} expired`
      : l.days_left === 0
        ? `License ${l.license_number} expires today`
        : `License ${l.license_number} expires in ${days(l.days_left)}`;
  return {
    user_id: l.user_id,
    event: l.trigger,
    title,
    body: `Your ${l.license_type} license ${l.license_number} (${l.state}) ${l.trigger === 'license_expired' ? 'expired' : 'expires'} on ${l.expiration_date}.`,
    link: `/licenses?search=${encodeURIComponent(l.license_number)}`,
    object_type: 'license',
    object_id: l.license_id,
    dedup_key: `${l.trigger}:${l.user_id}:${l.license_id}:${l.expiration_date}`,
  };
}

/** The period a digest belongs to at the given frequency, or null for immediate. */
export function digestPeriod(frequency: Settings['notification_frequency'], today: string): string | null {
  if (frequency === 'immediate') return null;
  if (frequency === 'daily') return today;
  if (frequency === 'monthly') return today.slice(0, 7);
  const [y, m, d] = today.split('-').map(Number);
  const dow = new Date(Date.UTC(y!, m! - 1, d!)).getUTCDay();
  return `week-${addDays(today, -((dow + 6) % 7))}`;
}

function describe(l: DueLicense): string {
  const when =
    l.trigger === 'license_expired'
      ? `expired ${l.expiration_date} (${-l.days_left} day${l.days_left === -1 ? '' : 's'} ago)`
      : `expires ${l.expiration_date} (in ${l.days_left} day${l.days_left === 1 ? '' : 's'})`;
  return `- ${l.first_name} ${l.last_name}: ${l.license_type} license ${l.license_number} (${l.state}), ${when}`;
}

function brokerMessage(
  broker: { first_name: string; last_name: string },
  items: DueLicense[],
  settings: Settings,
  heading: string,
  pays: DuePayment[] = [],
) {
  const expiring = items.filter((i) => i.trigger === 'license_expiring');
  const expired = items.filter((i) => i.trigger === 'license_expired');
  const lines = [`Hello ${broker.first_name} ${broker.last_name},`, '', heading, ''];
  if (expiring.length > 0) {
    lines.push(`Expiring within ${settings.license_expiry_warning_days} days:`, ...expiring.map(describe), '');
  }
  if (expired.length > 0) lines.push('Expired:', ...expired.map(describe), '');
  if (pays.length > 0) lines.push('Payments due:', ...pays.map(describePayment), '');
  lines.push(settings.app_name);
  return lines.join('\n');
}

function digestSubject(licenseCount: number, paymentCount: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (paymentCount === 0) return `${plural(licenseCount, 'agent license')} need${licenseCount === 1 ? 's' : ''} attention`;
  if (licenseCount === 0) return `${plural(paymentCount, 'agent payment')} due`;
  return `${plural(licenseCount, 'agent license')} and ${plural(paymentCount, 'payment')} need attention`;
}

const running = new WeakMap<Db, Promise<ReminderSummary>>();

/** The lock every instance on the database honours while a pass runs (db.exclusive). */
export const REMINDER_PASS_LOCK = 'notifications:reminder-pass';

const emptySummary = (): ReminderSummary => ({ sent: 0, failed: 0, duplicates: 0, disabled: 0, no_address: 0 });

/**
 * One pass of the scheduler. Safe to call at any time and any number of times: what went out before is
 * not sent again (reminder keys). Overlapping calls on the same Db share one pass; while another instance
 * on the same database runs one, this one does nothing (its reminders are that pass's to send) and
 * returns an empty summary.
 */
export function runReminders(db: Db, config: Config, now: Date = new Date()): Promise<ReminderSummary> {
  const inFlight = running.get(db);
  if (inFlight) return inFlight;
  const pass = db
    .exclusive(REMINDER_PASS_LOCK, () => runPass(db, config, now))
    .then((r) => (r.acquired ? r.value : emptySummary()))
    .finally(() => running.delete(db));
  running.set(db, pass);
  return pass;
}

/** The pass under way on this Db, if any (lets tests wait for the scheduler's pass). */
export function reminderPassInFlight(db: Db): Promise<ReminderSummary> | undefined {
  return running.get(db);
}

async function runPass(db: Db, config: Config, now: Date): Promise<ReminderSummary> {
  const summary = emptySummary();
  const count = (o: DeliveryOutcome) => {
    if (o.status === 'skipped') {
      if (o.reason === 'duplicate') summary.duplicates++;
      else summary.disabled++;
    } else if (o.status === 'sent') summary.sent++;
    else summary.failed++;
  };
  const settings = await getSettings(db);
  const today = officeToday(now);
  const due = await dueLicenses(db, today, settings);

  // 1. Holders.
  const templates = {
    license_expiring: await activeTemplates(db, 'license_expiring'),
    license_expired: await activeTemplates(db, 'license_expired'),
  };
  for (const l of due) {
    // The holder's notification centre: once per license, threshold and cycle (docs/decisions.md "Notification centre").
    await db.transaction((tx) => notifyUser(tx, licenseNotice(l)));
    const values = licenseValues(l, settings);
    for (const t of templates[l.trigger]) {
      const recipient = recipientFor(t.type, l);
      if (!recipient) {
        summary.no_address++;
        continue;
      }
      count(
        await deliver(db, config, {
          channel: t.type,
          recipient,
          subject: renderTemplate(t.subject, values),
          body: renderTemplate(t.body, values),
          template: { id: t.id, name: t.name },
          user_id: l.user_id,
          license_id: l.license_id,
          reminder_key: `${l.trigger}:${l.license_id}:${l.expiration_date}:${t.type}`,
          inbox_event: l.trigger,
          now,
        }),
      );
    }
  }

  // 1b. Payers of Pending payments whose date has come (reminders.payments.ts).
  const duePays = await duePayments(db, today, EXPIRED_LOOKBACK_DAYS);
  await remindPayers(db, config, duePays, settings, now, (o) => (o === 'no_address' ? summary.no_address++ : count(o)));

  // 2. Brokers: their agents' licenses and due payments, batched at the notification frequency.
  const agentItems = due.filter((l) => l.role_id === ROLE.Agent && l.brokerage_id !== null);
  const agentPays = duePays.filter((p) => p.role_id === ROLE.Agent && p.brokerage_id !== null);
  if (agentItems.length === 0 && agentPays.length === 0) return summary;
  const brokers = await db
    .select({
      user_id: users.user_id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      brokerage_id: users.brokerage_id,
    })
    .from(users)
    .where(
      and(
        eq(users.role_id, ROLE.Broker),
        eq(users.is_active, true),
        isNull(users.deleted_at),
        inArray(users.brokerage_id, [...new Set([...agentItems, ...agentPays].map((a) => a.brokerage_id!))]),
      ),
    )
    .orderBy(asc(users.user_id));
  const period = digestPeriod(settings.notification_frequency, today);
  for (const b of brokers) {
    const items = agentItems.filter((a) => a.brokerage_id === b.brokerage_id);
    const pays = agentPays.filter((p) => p.brokerage_id === b.brokerage_id);
    if (period === null) {
      for (const p of pays) {
        count(
          await deliver(db, config, {
            channel: 'email',
            recipient: b.email,
            subject: `Payment due: ${p.first_name} ${p.last_name} (${p.payment_type})`,
            body: brokerMessage(b, [], settings, 'A payment of one of your agents is due:', [p]),
            template: { id: null, name: NOTICE_TEMPLATE_NAME },
            user_id: b.user_id,
            reminder_key: `broker_notice:${b.user_id}:payment_due:${p.payment_id}`,
            now,
          }),
        );
      }
      for (const item of items) {
        const what = item.trigger === 'license_expired' ? 'expired' : 'is expiring';
        count(
          await deliver(db, config, {
            channel: 'email',
            recipient: b.email,
            subject: `License ${what}: ${item.first_name} ${item.last_name} (${item.license_number})`,
            body: brokerMessage(b, [item], settings, `A license of one of your agents ${what}:`),
            template: { id: null, name: NOTICE_TEMPLATE_NAME },
            user_id: b.user_id,
            license_id: item.license_id,
            reminder_key: `broker_notice:${b.user_id}:${item.trigger}:${item.license_id}:${item.expiration_date}`,
            now,
          }),
        );
      }
      continue;
    }
    count(
      await deliver(db, config, {
        channel: 'email',
        recipient: b.email,
        subject: digestSubject(items.length, pays.length),
        body: brokerMessage(
          b,
          items,
          settings,
          `Your ${settings.notification_frequency} digest of your agents' licenses that need attention:`,
          pays,
        ),
        template: { id: null, name: DIGEST_TEMPLATE_NAME },
        user_id: b.user_id,
        reminder_key: `broker_digest:${b.user_id}:${period}`,
        now,
      }),
    );
  }
  return summary;
}
