/**
 * CE due reminders and the Broker digest's CE at risk (docs/decisions.md "CE due reminders and the digest"), with a
 * fixed today on a real database: the holder hears at 90, 60 and 30 days before expiry while the cycle's CE is not
 * complete (the smallest threshold reached, each once per license and cycle, e-mail and in-app, the user's
 * preferences applying); the Broker's digest lists the team's licenses at risk with their missing topics.
 */
import { writeCalendarDate } from '@lm/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, eq, ne } from 'drizzle-orm';
import { addDays, type LicenseStatus, type Settings } from '@lm/shared';
import { notifications, licenses, notificationDeliveries, users } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { ensureDefaultTemplates } from '../src/modules/notification-management/default-templates.ts';
import { ceDueThreshold, DIGEST_SECTION_LIMIT, runReminders } from '../src/modules/notification-management/reminders.ts';
import { api, createTestEnv, seedRoles, seedUser, tokenFor, type TestEnv } from './helpers.ts';
import { outboxEmail } from './outbox.ts';

/** A date as the e-mails write it (the office's default format, Settings › General). */
const office = (date: string) => writeCalendarDate(date, 'MM/DD/YYYY');

// Tests run with TZ=UTC (vitest.config.ts), so the office's "today" of NOW is 2026-03-10.
const TODAY = '2026-03-10';
const NOW = new Date(`${TODAY}T12:00:00Z`);
const at = (date: string) => new Date(`${date}T12:00:00Z`);

let env: TestEnv;
let roles: Awaited<ReturnType<typeof seedRoles>>;
beforeEach(async () => {
  env = await createTestEnv();
  roles = await seedRoles(env);
  await ensureDefaultTemplates(env.db);
  // The TX Sales rule requires 3 hours of Ethics in every cycle (its topics count toward the current cycle at once).
  const rule = await api(env, 'POST', '/api/ce-rules', {
    token: roles.admin.token,
    body: { state: 'TX', license_type: 'Sales', hours_required: 10, cycle_years: 2, topics: [{ topic: 'Ethics', hours: 3 }] },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(200);
});
afterEach(async () => {
  await env?.close();
});

let seq = 0;
/** A license created over REST (the CE ledger computes its figures); TX Sales carries the rule's Ethics topic. */
async function createLicense(
  userId: number,
  expiration_date: string,
  ce: { required: number; completed: number; state?: string; status?: LicenseStatus },
) {
  const res = await api(env, 'POST', '/api/licenses', {
    token: roles.admin.token,
    body: {
      user_id: userId,
      license_number: `CE-${++seq}`,
      state: ce.state ?? 'TX',
      license_type: 'Sales',
      issue_date: '2024-01-01',
      expiration_date,
      status: ce.status ?? 'Active',
      ce_hours_required: ce.required,
      ce_hours_completed: ce.completed,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { license_id: number; license_number: string; expiration_date: string };
}

async function setSettings(values: Partial<Settings>) {
  await env.db.transaction((tx) => writeSettings(tx, values, null));
  invalidateSettings();
}

const read = (file: string) => outboxEmail(env.dir, file);
const deliveries = () =>
  env.db.select().from(notificationDeliveries).where(ne(notificationDeliveries.channel, 'in_app')).orderBy(asc(notificationDeliveries.id));
const ceDueMails = async (email: string) =>
  (await deliveries()).filter((d) => d.recipient === email && d.template_name === 'CE Due Reminder');
const ceDueInApp = (userId: number) =>
  env.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), eq(notifications.event, 'ce_due')))
    .orderBy(asc(notifications.id));

describe('thresholds', () => {
  it('the smallest of 90, 60 and 30 days reached; nothing further away or past the date', () => {
    expect([91, 90, 61, 60, 59, 31, 30, 29, 0, -1].map(ceDueThreshold)).toEqual([null, 90, 90, 60, 60, 60, 30, 30, 30, null]);
  });
});

describe('CE due: the holder', () => {
  it('not complete at 59 days: one e-mail and one in-app notice (the 60-day one), nothing on the next passes, the 30-day one at 29 days', async () => {
    const lic = await createLicense(roles.agent.user_id, addDays(TODAY, 59), { required: 10, completed: 2 });
    await runReminders(env.db, env.config, NOW);

    const mails = await ceDueMails(roles.agent.email);
    expect(mails.map((d) => [d.reminder_key, d.license_id, d.status, d.transport])).toEqual([
      [`ce_due:${lic.license_id}:${lic.expiration_date}:60:email`, lic.license_id, 'sent', 'outbox'],
    ]);
    const mail = await read(mails[0]!.outbox_file!);
    expect(mail.subject).toBe(`CE due for license ${lic.license_number}: 8 hours by ${office(lic.expiration_date)}`);
    expect(mail.body).toContain(`expires on ${office(lic.expiration_date)}, in 59 days`);
    expect(mail.body).toContain('8 hours remain');
    expect(mail.body).toContain('Required topics still missing: Ethics (3 hours).');
    expect(mail.body).toContain('plan on about 4 hours a month'); // 8 hours over 2 months
    expect(mail.body).not.toContain('{{');

    const inApp = await ceDueInApp(roles.agent.user_id);
    expect(inApp).toHaveLength(1);
    expect(inApp[0]).toMatchObject({
      title: `CE due for license ${lic.license_number}: 8 hours by ${lic.expiration_date}`,
      object_type: 'license',
      object_id: lic.license_id,
      dedup_key: `ce_due:${roles.agent.user_id}:${lic.license_id}:${lic.expiration_date}:60`,
    });
    expect(inApp[0]!.body).toContain('topics missing: Ethics (3 hours)');
    // Its in-app delivery row, beside the e-mail in the Admin's history.
    const inAppRows = await env.db
      .select()
      .from(notificationDeliveries)
      .where(and(eq(notificationDeliveries.channel, 'in_app'), eq(notificationDeliveries.template_name, 'In-app: CE due')));
    expect(inAppRows).toHaveLength(1);

    // The same day again, and the next day (still 60 reached): nothing new; the 90-day one is never sent.
    await runReminders(env.db, env.config, NOW);
    await runReminders(env.db, env.config, at(addDays(TODAY, 1)));
    expect(await ceDueMails(roles.agent.email)).toHaveLength(1);
    expect(await ceDueInApp(roles.agent.user_id)).toHaveLength(1);

    // 29 days left: the 30-day reminder, once.
    await runReminders(env.db, env.config, at(addDays(TODAY, 30)));
    await runReminders(env.db, env.config, at(addDays(TODAY, 31)));
    expect((await ceDueMails(roles.agent.email)).map((d) => d.reminder_key)).toEqual([
      `ce_due:${lic.license_id}:${lic.expiration_date}:60:email`,
      `ce_due:${lic.license_id}:${lic.expiration_date}:30:email`,
    ]);
    expect((await ceDueInApp(roles.agent.user_id)).map((n) => n.dedup_key)).toEqual([
      `ce_due:${roles.agent.user_id}:${lic.license_id}:${lic.expiration_date}:60`,
      `ce_due:${roles.agent.user_id}:${lic.license_id}:${lic.expiration_date}:30`,
    ]);
    // Past its date the license is expired, not CE due.
    await runReminders(env.db, env.config, at(addDays(TODAY, 60)));
    expect(await ceDueMails(roles.agent.email)).toHaveLength(2);
  });

  it('a renewal is a new cycle: its thresholds are reminded again', async () => {
    const holder = await seedUser(env, 'Broker');
    const lic = await createLicense(holder.user_id, addDays(TODAY, 85), { required: 10, completed: 0, state: 'FL' });
    await runReminders(env.db, env.config, NOW);
    const renewed = addDays(lic.expiration_date, 730);
    await env.db.transaction((tx) => tx.update(licenses).set({ expiration_date: renewed }).where(eq(licenses.license_id, lic.license_id)));
    await runReminders(env.db, env.config, at(addDays(renewed, -80)));
    expect((await ceDueMails(holder.email)).map((d) => d.reminder_key)).toEqual([
      `ce_due:${lic.license_id}:${lic.expiration_date}:90:email`,
      `ce_due:${lic.license_id}:${renewed}:90:email`,
    ]);
  });

  it('a complete license, one further than 90 days and an expired one get none', async () => {
    const holder = await seedUser(env, 'Agent');
    await createLicense(holder.user_id, addDays(TODAY, 29), { required: 6, completed: 6, state: 'FL' });
    await createLicense(holder.user_id, addDays(TODAY, 91), { required: 6, completed: 0, state: 'FL' });
    await createLicense(holder.user_id, addDays(TODAY, -1), { required: 6, completed: 0, state: 'FL' });
    await runReminders(env.db, env.config, NOW);
    expect(await ceDueMails(holder.email)).toEqual([]);
    expect(await ceDueInApp(holder.user_id)).toEqual([]);
  });

  it('a holder who switched ce_due e-mail off gets the in-app notice only', async () => {
    const holder = await seedUser(env, 'Agent');
    const token = await tokenFor(env, holder.user_id);
    const saved = await api(env, 'PUT', '/api/notifications/preferences', {
      token,
      body: { events: [{ event: 'ce_due', in_app: true, email: false, sms: false }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.events.find((e: { event: string }) => e.event === 'ce_due')).toMatchObject({
      label: 'CE due',
      external: true,
      in_app: true,
      email: false,
    });
    await createLicense(holder.user_id, addDays(TODAY, 45), { required: 10, completed: 0, state: 'FL' });
    const summary = await runReminders(env.db, env.config, NOW);
    expect(summary.disabled).toBeGreaterThanOrEqual(1);
    expect(await ceDueMails(holder.email)).toEqual([]);
    expect(await ceDueInApp(holder.user_id)).toHaveLength(1);
  });

  it('the default preference sends both; e-mail switched off by the Admin sends in-app only', async () => {
    const prefs = await api(env, 'GET', '/api/notifications/preferences', { token: roles.agent.token });
    expect(prefs.body.events.find((e: { event: string }) => e.event === 'ce_due')).toMatchObject({ in_app: true, email: true });
    await setSettings({ email_notifications_enabled: false });
    const holder = await seedUser(env, 'Agent');
    await createLicense(holder.user_id, addDays(TODAY, 10), { required: 10, completed: 0, state: 'FL' });
    await runReminders(env.db, env.config, NOW);
    expect(await ceDueMails(holder.email)).toEqual([]);
    expect(await ceDueInApp(holder.user_id)).toHaveLength(1);
    // Switched back on: the reminder still due goes out on the next pass.
    await setSettings({ email_notifications_enabled: true });
    await runReminders(env.db, env.config, at(addDays(TODAY, 1)));
    expect(await ceDueMails(holder.email)).toHaveLength(1);
  });
});

describe('expired notices: which statuses', () => {
  it('past its date: Active, Expired and Pending Renewal get license_expired; Suspended and Inactive do not', async () => {
    const holder = await seedUser(env, 'Agent');
    const day = addDays(TODAY, -3);
    const byStatus: Record<string, number> = {};
    for (const status of ['Active', 'Expired', 'Pending Renewal', 'Suspended', 'Inactive'] as const) {
      byStatus[status] = (await createLicense(holder.user_id, day, { required: 0, completed: 0, state: 'FL', status })).license_id;
    }
    await runReminders(env.db, env.config, NOW);
    const expired = (await deliveries()).filter((d) => d.reminder_key?.startsWith('license_expired:'));
    expect(expired.map((d) => d.license_id).sort()).toEqual(
      [byStatus.Active, byStatus.Expired, byStatus['Pending Renewal']].sort((a, b) => a! - b!),
    );
  });
});

describe('the Broker digest: CE at risk', () => {
  it('lists the team’s at-risk licenses with hours remaining and missing topics, beside expiring ones', async () => {
    const other = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId, first_name: 'Otto' });
    const risky = await createLicense(roles.agent.user_id, addDays(TODAY, 75), { required: 10, completed: 2 });
    const soon = await createLicense(other.user_id, addDays(TODAY, 7), { required: 4, completed: 4, state: 'FL' });
    const fine = await createLicense(other.user_id, addDays(TODAY, 60), { required: 4, completed: 4, state: 'FL' });
    const stranger = await seedUser(env, 'Agent');
    const elsewhere = await createLicense(stranger.user_id, addDays(TODAY, 40), { required: 10, completed: 0 });
    // A deactivated Agent's license is still the brokerage's business: listed for the Broker, the Agent not told.
    const gone = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId, first_name: 'Gina' });
    const left = await createLicense(gone.user_id, addDays(TODAY, 20), { required: 5, completed: 0, state: 'FL' });
    await env.db.transaction((tx) => tx.update(users).set({ is_active: false }).where(eq(users.user_id, gone.user_id)));

    await runReminders(env.db, env.config, NOW);
    const digests = (await deliveries()).filter((d) => d.recipient === roles.broker.email);
    expect(digests.map((d) => [d.template_name, d.reminder_key])).toEqual([
      ['Broker digest: expiring licenses', `broker_digest:${roles.broker.user_id}:${TODAY}`],
    ]);
    const { subject, body: text } = await read(digests[0]!.outbox_file!);
    expect(subject).toBe('3 agent licenses need attention');
    expect(text).toContain(`${soon.license_number} (FL), expires ${office(soon.expiration_date)} (in 7 days)`);
    expect(text).toContain(`${left.license_number} (FL), expires ${office(left.expiration_date)} (in 20 days)`); // expiring
    expect(text).toContain(`${left.license_number} (FL), expires ${office(left.expiration_date)} (in 20 days): 5 hours remaining`);
    expect((await deliveries()).filter((d) => d.recipient === gone.email)).toEqual([]);
    expect(await ceDueInApp(gone.user_id)).toEqual([]);
    expect(text).toContain('CE at risk (not complete, expiring within 90 days):');
    expect(text).toContain(
      `${risky.license_number} (TX), expires ${office(risky.expiration_date)} (in 75 days): 8 hours remaining; missing topics: Ethics (3 hours)`,
    );
    // Each section ends with the link to the list it is drawn from, filtered as the section is.
    expect(text).toContain(`Open the list: ${env.config.publicUrl}/licenses?expiring_within=30`);
    expect(text).toContain(`Open the list: ${env.config.publicUrl}/licenses?compliance=at_risk`);
    expect(text).not.toContain(fine.license_number);
    expect(text).not.toContain(elsewhere.license_number);
  });

  it('a digest of only CE at risk goes out; each section is capped with "and N more"', async () => {
    const count = DIGEST_SECTION_LIMIT + 2;
    for (let i = 0; i < count; i++)
      await createLicense(roles.agent.user_id, addDays(TODAY, 80), { required: 2, completed: 0, state: 'FL' });
    await runReminders(env.db, env.config, NOW);
    const digest = (await deliveries()).find((d) => d.recipient === roles.broker.email)!;
    const { subject, body: text } = await read(digest.outbox_file!);
    expect(subject).toBe(`${count} agent licenses need attention`);
    expect(text.match(/: 2 hours remaining/g)).toHaveLength(DIGEST_SECTION_LIMIT);
    expect(text).toContain('- and 2 more');
    expect(text).not.toContain('Expiring within');
  });

  it('immediate: one at-risk notice per license and cycle', async () => {
    await setSettings({ notification_frequency: 'immediate' });
    const lic = await createLicense(roles.agent.user_id, addDays(TODAY, 65), { required: 10, completed: 2 });
    await runReminders(env.db, env.config, NOW);
    // The holder's 60-day threshold: the holder hears again, the Broker is not told again.
    await runReminders(env.db, env.config, at(addDays(TODAY, 10)));
    expect(await ceDueMails(roles.agent.email)).toHaveLength(2);
    const notices = (await deliveries()).filter((d) => d.recipient === roles.broker.email);
    expect(notices.map((d) => [d.template_name, d.license_id, d.reminder_key])).toEqual([
      [
        'Broker notice: agent license',
        lic.license_id,
        `broker_notice:${roles.broker.user_id}:ce_at_risk:${lic.license_id}:${lic.expiration_date}`,
      ],
    ]);
    const { subject, body: text } = await read(notices[0]!.outbox_file!);
    expect(subject).toMatch(new RegExp(`^CE at risk: Agent .+ \\(${lic.license_number}\\)$`));
    expect(text).toContain('8 hours remaining; missing topics: Ethics (3 hours)');
  });
});
