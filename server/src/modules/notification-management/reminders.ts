/**
 * Automatic license reminders (run by reminders.job.ts on start and daily; tests call runReminders).
 *
 * Every "expiring", "expired", "at risk" and "CE complete" below is the one compliance judgement
 * (server/src/modules/licenses/compliance.sql.ts in the queries, shared/src/compliance.ts on the rows), never
 * a comparison of its own (docs/decisions.md "Compliance", "CE due reminders and the digest").
 *
 * Holders: each license expiring within settings.license_expiry_warning_days (expiringSql: status Active or
 * Pending Renewal, expiration date from today to the window's end) gets the active license_expiring template;
 * a license past its date (expiredSql, at most EXPIRED_LOOKBACK_DAYS ago) that reads as Expired or is
 * Pending Renewal gets license_expired. The reminder key `{trigger}:{license_id}:{expiration_date}:{channel}`
 * makes each one go out at most once per threshold and cycle (a renewal moves expiration_date: a new cycle),
 * across restarts, because the key is a unique column of notification_deliveries.
 *
 * CE due: each license at risk (not complete, expiring within AT_RISK_DAYS) gets the active ce_due template and
 * an in-app notice at 90, 60 and 30 days before expiry, the smallest threshold reached only, each once per
 * license and cycle (key `ce_due:{license_id}:{expiration_date}:{threshold}:{channel}`).
 *
 * Brokers: a digest of their agents' expiring and expired licenses and of their CE at risk at
 * settings.notification_frequency: daily, weekly (the week starting Monday) or monthly, key
 * `broker_digest:{broker_id}:{period}`; with immediate, one notice per license instead, key
 * `broker_notice:{broker_id}:{trigger}:{license_id}:{expiration_date}` (trigger ce_at_risk for CE at risk).
 *
 * Payments (reminders.payments.ts): Pending payments whose date has come, once to the payer; the digests (or
 * immediate notices, key `broker_notice:{broker_id}:payment_due:{payment_id}`) list them for the payer's Broker.
 */
import { and, asc, eq, gte, inArray, isNull, or, type SQL } from 'drizzle-orm';
import {
  addDays,
  AT_RISK_DAYS,
  complianceOf,
  hoursPerMonth,
  renderTemplate,
  ROLE,
  writeCalendarDate,
  type Compliance,
  type DateFormat,
  type Settings,
  type TopicMissing,
  type TriggerEvent,
} from '@lm/shared';
import { brokerages, licenses, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { LIST_LINKS } from '@lm/shared/list-links';
import { getSettings } from '../../core/settings.ts';
import { today as officeToday } from '../../core/dates.ts';
import { atRiskEdge, complianceIs, expiredSql, expiringSql, LICENSE_COLUMNS, statusIs } from '../licenses/compliance.sql.ts';
import { deliver, type DeliveryOutcome } from './delivery.ts';
import { describePayment, duePayments, remindPayers, type DuePayment } from './reminders.payments.ts';
import { activeTemplates, recipientFor } from './events.ts';
import { notifyUser, type NotificationMessage } from '../notifications/notify.ts';
import { licenseWithHolder } from '../licenses/licenses.service.ts';
import { emitEventOnce } from '../webhooks/events.ts';

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

/** A license and its holder, with its compliance judgement as of the pass's today. */
interface HolderLicense {
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
  compliance: Compliance;
  days_left: number;
  /** The holder can be told (active, not deleted); the Broker's digest lists the others' licenses too. */
  live: boolean;
}

interface DueLicense extends HolderLicense {
  trigger: Extract<TriggerEvent, 'license_expiring' | 'license_expired'>;
}

/**
 * The holder's CE-due reminders go out this many days before expiry, each once per license and cycle; the
 * first one is the at-risk edge (AT_RISK_DAYS), so every license at risk has reached one of them.
 */
export const CE_DUE_THRESHOLDS = [AT_RISK_DAYS, 60, 30] as const;
/** At most this many lines per section of a Broker's digest; the rest are counted ("and N more"). */
export const DIGEST_SECTION_LIMIT = 50;

/**
 * The smallest threshold a license `daysLeft` from expiry has reached (59 days: 60; 29: 30), or null when it is
 * further away than the first one or already past its date. Only that one is sent: a license first seen at 59
 * days is not also told it has 90 days.
 */
export function ceDueThreshold(daysLeft: number): number | null {
  if (daysLeft < 0) return null;
  let reached: number | null = null;
  for (const t of CE_DUE_THRESHOLDS) if (daysLeft <= t) reached = t;
  return reached;
}

/**
 * The licenses that satisfy `where`, of every holder (a deactivated or deleted Agent's license is still the
 * brokerage's business), oldest expiry first, each with complianceOf(...) as of `today` and whether its holder
 * can be told (`live`: reminders go only to active, not deleted people).
 */
async function holderLicenses(db: Db, today: string, where: SQL | undefined): Promise<HolderLicense[]> {
  const rows = await db
    .select({
      license_id: licenses.license_id,
      license_number: licenses.license_number,
      state: licenses.state,
      license_type: licenses.license_type,
      expiration_date: licenses.expiration_date,
      ce_hours_required: licenses.ce_hours_required,
      ce_hours_completed: licenses.ce_hours_completed,
      ce_topics_missing: licenses.ce_topics_missing,
      user_id: users.user_id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      phone_number: users.phone_number,
      role_id: users.role_id,
      brokerage_id: users.brokerage_id,
      brokerage_name: brokerages.name,
      is_active: users.is_active,
      deleted_at: users.deleted_at,
    })
    .from(licenses)
    .innerJoin(users, eq(users.user_id, licenses.user_id))
    .leftJoin(brokerages, eq(brokerages.brokerage_id, users.brokerage_id))
    .where(where)
    .orderBy(asc(licenses.expiration_date), asc(licenses.license_id));
  return rows.map(({ ce_hours_required, ce_hours_completed, ce_topics_missing, is_active, deleted_at, ...r }) => {
    const compliance = complianceOf(
      { expiration_date: r.expiration_date, ce_hours_required, ce_hours_completed, ce_topics_missing },
      today,
    );
    return { ...r, compliance, days_left: compliance.days_left, live: is_active && deleted_at === null };
  });
}

/**
 * Expiring: expiringSql, the one definition (status Active or Pending Renewal, from today to the window's end).
 * Expired: past its date (expiredSql) and at most EXPIRED_LOOKBACK_DAYS ago, for a license that reads as Expired
 * (statusIs: written Expired, or Active past its date) or is Pending Renewal (its renewal did not come through in
 * time: it has lapsed, though the status an Admin set stays). Suspended and Inactive licenses are not in practice
 * and get no notice (docs/decisions.md "Compliance": which statuses read as Expired; "CE due reminders and the digest").
 */
async function dueLicenses(db: Db, today: string, settings: Settings): Promise<DueLicense[]> {
  const windowEnd = addDays(today, settings.license_expiry_warning_days);
  const lookback = addDays(today, -EXPIRED_LOOKBACK_DAYS);
  const rows = await holderLicenses(
    db,
    today,
    or(
      expiringSql(LICENSE_COLUMNS, today, windowEnd),
      and(
        expiredSql(LICENSE_COLUMNS, today),
        gte(licenses.expiration_date, lookback),
        or(statusIs(LICENSE_COLUMNS, 'Expired', today), statusIs(LICENSE_COLUMNS, 'Pending Renewal', today)),
      ),
    ),
  );
  return rows.map((r) => ({ ...r, trigger: r.compliance.state === 'expired' ? 'license_expired' : 'license_expiring' }));
}

/**
 * CE at risk: complianceIs 'at_risk' (not complete, expiration date from today to AT_RISK_DAYS ahead), the
 * judgement the licenses list, the dashboards and the compliance summary show, whatever the status.
 */
function atRiskLicenses(db: Db, today: string): Promise<HolderLicense[]> {
  return holderLicenses(db, today, complianceIs(LICENSE_COLUMNS, 'at_risk', today, atRiskEdge(today)));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Ethics (3 hours), Fair Housing (2 hours)"; empty when no required topic is missing. */
function topicsText(topics: readonly TopicMissing[]): string {
  return topics.map((t) => `${t.topic} (${plural(t.hours, 'hour')})`).join(', ');
}

function licenseValues(l: HolderLicense, settings: Settings): Record<string, string> {
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
    hours_remaining: String(l.compliance.hours_remaining),
    topics_missing: topicsText(l.compliance.topics_missing) || 'none',
    hours_per_month: String(hoursPerMonth(l.compliance)),
    app_name: settings.app_name,
    support_email: settings.support_email,
  };
}

/** "License CA-123 expires in 30 days" / "License CA-123 expired": the holder's in-app notification. */
function licenseNotice(l: DueLicense): NotificationMessage {
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

/** "CE due for license CA-123: 6 hours by 2026-05-08": the holder's in-app CE-due notice, once per threshold and cycle. */
function ceDueNotice(l: HolderLicense, threshold: number): NotificationMessage {
  const c = l.compliance;
  const topics = topicsText(c.topics_missing);
  return {
    user_id: l.user_id,
    event: 'ce_due',
    title: `CE due for license ${l.license_number}: ${plural(c.hours_remaining, 'hour')} by ${l.expiration_date}`,
    body:
      `Your ${l.license_type} license ${l.license_number} (${l.state}) expires on ${l.expiration_date}, in ` +
      `${plural(c.days_left, 'day')}, with ${plural(c.hours_remaining, 'hour')} of CE still to complete` +
      `${topics ? ` (topics missing: ${topics})` : ''}. About ${plural(hoursPerMonth(c), 'hour')} a month finishes in time.`,
    link: `/licenses?search=${encodeURIComponent(l.license_number)}`,
    object_type: 'license',
    object_id: l.license_id,
    dedup_key: `ce_due:${l.user_id}:${l.license_id}:${l.expiration_date}:${threshold}`,
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

/** A line of a digest section, its date in the office's format. */
const describe =
  (dateFormat: DateFormat) =>
  (l: DueLicense): string => {
    const date = writeCalendarDate(l.expiration_date, dateFormat);
    const when =
      l.trigger === 'license_expired'
        ? `expired ${date} (${-l.days_left} day${l.days_left === -1 ? '' : 's'} ago)`
        : `expires ${date} (in ${l.days_left} day${l.days_left === 1 ? '' : 's'})`;
    return `- ${l.first_name} ${l.last_name}: ${l.license_type} license ${l.license_number} (${l.state}), ${when}`;
  };

/** A line of the CE-at-risk section: what is still missing, and which required topics where the rule names them. */
const describeAtRisk =
  (dateFormat: DateFormat) =>
  (l: HolderLicense): string => {
    const c = l.compliance;
    const topics = topicsText(c.topics_missing);
    return (
      `- ${l.first_name} ${l.last_name}: ${l.license_type} license ${l.license_number} (${l.state}), ` +
      `expires ${writeCalendarDate(l.expiration_date, dateFormat)} (in ${plural(c.days_left, 'day')}): ${plural(c.hours_remaining, 'hour')} remaining` +
      (topics ? `; missing topics: ${topics}` : '')
    );
  };

/**
 * A digest section: its heading, at most DIGEST_SECTION_LIMIT lines, how many more there are, and the link to the
 * list the section is drawn from (shared/src/list-links.ts), so every line of the e-mail is a way in.
 */
function section(heading: string, lines: string[], link: string): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, DIGEST_SECTION_LIMIT);
  const more = lines.length - shown.length;
  return [heading, ...shown, ...(more > 0 ? [`- and ${more} more`] : []), `Open the list: ${link}`, ''];
}

function brokerMessage(
  config: Pick<Config, 'publicUrl'>,
  broker: { first_name: string; last_name: string },
  items: DueLicense[],
  settings: Settings,
  heading: string,
  pays: DuePayment[] = [],
  atRisk: HolderLicense[] = [],
) {
  const expiring = items.filter((i) => i.trigger === 'license_expiring');
  const expired = items.filter((i) => i.trigger === 'license_expired');
  const days = settings.license_expiry_warning_days;
  const at = (path: string) => `${config.publicUrl}${path}`;
  const f = settings.date_format;
  return [
    `Hello ${broker.first_name} ${broker.last_name},`,
    '',
    heading,
    '',
    ...section(`Expiring within ${days} days:`, expiring.map(describe(f)), at(LIST_LINKS.expiring(days))),
    ...section('Expired:', expired.map(describe(f)), at(LIST_LINKS.expired)),
    ...section(`CE at risk (not complete, expiring within ${AT_RISK_DAYS} days):`, atRisk.map(describeAtRisk(f)), at(LIST_LINKS.atRisk)),
    ...section('Payments due:', pays.map(describePayment(f)), at(LIST_LINKS.pendingPayments)),
    settings.app_name,
  ].join('\n');
}

function digestSubject(licenseCount: number, paymentCount: number): string {
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

  /** Each active template of a license's event, to the holder, at most once per reminder key (channel appended). */
  const sendTemplates = async (
    templates: Awaited<ReturnType<typeof activeTemplates>>,
    l: HolderLicense,
    event: Extract<TriggerEvent, 'license_expiring' | 'license_expired' | 'ce_due'>,
    key: string,
  ) => {
    const values = licenseValues(l, settings);
    for (const t of templates) {
      const recipient = recipientFor(t.type, l);
      if (!recipient) {
        summary.no_address++;
        continue;
      }
      count(
        await deliver(db, config, {
          channel: t.type,
          recipient,
          subject: renderTemplate(t.subject, values, settings.date_format),
          body: renderTemplate(t.body, values, settings.date_format),
          template: { id: t.id, name: t.name },
          user_id: l.user_id,
          license_id: l.license_id,
          reminder_key: `${key}:${t.type}`,
          notification_event: event,
          now,
        }),
      );
    }
  };

  // 1. Holders.
  const templates = {
    license_expiring: await activeTemplates(db, 'license_expiring'),
    license_expired: await activeTemplates(db, 'license_expired'),
  };
  for (const l of due) {
    if (!l.live) continue;
    // The holder's notification centre: once per license, threshold and cycle (docs/decisions.md "Notification centre").
    // Entering the window is also the webhooks' license.expiring, once per license and cycle.
    await db.transaction(async (tx) => {
      await notifyUser(tx, licenseNotice(l));
      if (l.trigger === 'license_expiring') {
        await emitEventOnce(tx, 'license.expiring', `license.expiring:${l.license_id}:${l.expiration_date}`, () =>
          licenseWithHolder(tx, l.license_id),
        );
      }
    });
    await sendTemplates(templates[l.trigger], l, l.trigger, `${l.trigger}:${l.license_id}:${l.expiration_date}`);
  }

  // 1a. CE due: each license at risk, at the smallest of 90, 60 and 30 days before expiry it has reached, once per
  // threshold and cycle, in-app and through the ce_due templates (the holder's preferences apply as for license_expiring).
  const atRisk = await atRiskLicenses(db, today);
  const ceDueTemplates = await activeTemplates(db, 'ce_due');
  for (const l of atRisk) {
    if (!l.live) continue;
    const threshold = ceDueThreshold(l.days_left);
    if (threshold === null) continue;
    await db.transaction((tx) => notifyUser(tx, ceDueNotice(l, threshold)));
    await sendTemplates(ceDueTemplates, l, 'ce_due', `ce_due:${l.license_id}:${l.expiration_date}:${threshold}`);
  }

  // 1b. Payers of Pending payments whose date has come (reminders.payments.ts).
  const duePays = await duePayments(db, today, EXPIRED_LOOKBACK_DAYS);
  await remindPayers(db, config, duePays, settings, now, (o) => (o === 'no_address' ? summary.no_address++ : count(o)));

  // 2. Brokers: their agents' licenses, CE at risk and due payments, batched at the notification frequency.
  const ofAgent = (x: { role_id: number; brokerage_id: number | null }) => x.role_id === ROLE.Agent && x.brokerage_id !== null;
  const agentItems = due.filter(ofAgent);
  const agentPays = duePays.filter(ofAgent);
  const agentAtRisk = atRisk.filter(ofAgent);
  if (agentItems.length === 0 && agentPays.length === 0 && agentAtRisk.length === 0) return summary;
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
        inArray(users.brokerage_id, [...new Set([...agentItems, ...agentPays, ...agentAtRisk].map((a) => a.brokerage_id!))]),
      ),
    )
    .orderBy(asc(users.user_id));
  const period = digestPeriod(settings.notification_frequency, today);
  for (const b of brokers) {
    const items = agentItems.filter((a) => a.brokerage_id === b.brokerage_id);
    const pays = agentPays.filter((p) => p.brokerage_id === b.brokerage_id);
    const risks = agentAtRisk.filter((a) => a.brokerage_id === b.brokerage_id);
    if (period === null) {
      for (const p of pays) {
        count(
          await deliver(db, config, {
            channel: 'email',
            recipient: b.email,
            subject: `Payment due: ${p.first_name} ${p.last_name} (${p.payment_type})`,
            body: brokerMessage(config, b, [], settings, 'A payment of one of your agents is due:', [p]),
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
            body: brokerMessage(config, b, [item], settings, `A license of one of your agents ${what}:`),
            template: { id: null, name: NOTICE_TEMPLATE_NAME },
            user_id: b.user_id,
            license_id: item.license_id,
            reminder_key: `broker_notice:${b.user_id}:${item.trigger}:${item.license_id}:${item.expiration_date}`,
            now,
          }),
        );
      }
      // CE at risk: one notice per license and cycle (not per threshold: the Broker hears of it once).
      for (const item of risks) {
        count(
          await deliver(db, config, {
            channel: 'email',
            recipient: b.email,
            subject: `CE at risk: ${item.first_name} ${item.last_name} (${item.license_number})`,
            body: brokerMessage(config, b, [], settings, 'The CE of a license of one of your agents is not complete:', [], [item]),
            template: { id: null, name: NOTICE_TEMPLATE_NAME },
            user_id: b.user_id,
            license_id: item.license_id,
            reminder_key: `broker_notice:${b.user_id}:ce_at_risk:${item.license_id}:${item.expiration_date}`,
            now,
          }),
        );
      }
      continue;
    }
    const licenseCount = new Set([...items, ...risks].map((l) => l.license_id)).size;
    count(
      await deliver(db, config, {
        channel: 'email',
        recipient: b.email,
        subject: digestSubject(licenseCount, pays.length),
        body: brokerMessage(
          config,
          b,
          items,
          settings,
          `Your ${settings.notification_frequency} digest of your agents' licenses that need attention:`,
          pays,
          risks,
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
