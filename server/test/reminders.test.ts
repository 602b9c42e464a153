import fs from 'node:fs';
import { writeCalendarDate } from '@lm/shared';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { addDays, type LicenseStatus, type Settings } from '@lm/shared';
import { auditLogs, jobRuns, licenses, notificationDeliveries, notificationTemplates, users } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { openDatabase, type Tx } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { ensureDefaultTemplates } from '../src/modules/notification-management/default-templates.ts';
import { digestPeriod, runReminders } from '../src/modules/notification-management/reminders.ts';
import {
  CHECK_INTERVAL_MS,
  claimJobRun,
  DAILY_PASS_JOB,
  dailyPassInFlight,
  FIRST_RUN_DELAY_MS,
  startReminderJob,
} from '../src/modules/notification-management/reminders.job.ts';
import { api, createTestEnv, seedRoles, seedUser, type TestEnv } from './helpers.ts';
import { outboxEmail, outboxEmails } from './outbox.ts';

/** A date as the e-mails write it (the office's default format, Settings › General). */
const office = (date: string) => writeCalendarDate(date, 'MM/DD/YYYY');

// Tests run with TZ=UTC (vitest.config.ts), so the office's "today" of NOW is 2026-03-10 (a Tuesday).
const TODAY = '2026-03-10';
const NOW = new Date(`${TODAY}T12:00:00Z`);
const at = (date: string) => new Date(`${date}T12:00:00Z`);

let env: TestEnv;
let roles: Awaited<ReturnType<typeof seedRoles>>;
beforeEach(async () => {
  env = await createTestEnv();
  roles = await seedRoles(env);
});
afterEach(async () => {
  vi.useRealTimers();
  await env?.close();
});

let seq = 0;
async function seedLicense(userId: number, expiration_date: string, status: LicenseStatus = 'Active', db = env.db) {
  const license_number = `RM-${++seq}${Date.now() % 100000}`;
  const [row] = await db.transaction((tx) =>
    tx
      .insert(licenses)
      .values({ user_id: userId, license_number, state: 'TX', license_type: 'Sales', issue_date: '2020-01-01', expiration_date, status })
      .returning(),
  );
  return row!;
}
/** System Settings changed directly (committed, then the cache dropped). */
async function setSettings(values: Partial<Settings>) {
  await env.db.transaction((tx) => writeSettings(tx, values, null));
  invalidateSettings();
}
/** A write outside the code under test (the Db handle itself cannot write). */
const write = <T>(fn: (tx: Tx) => Promise<T>) => env.db.transaction(fn);

function outbox(e: TestEnv = env): string[] {
  const dir = path.join(e.dir, 'outbox');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort()
    : [];
}
const read = (file: string, e: TestEnv = env) => outboxEmail(e.dir, file);
/** The files of the messages in the outbox addressed to this recipient. */
const outboxTo = async (email: string, e: TestEnv = env) => (await outboxEmails(e.dir, email)).map((m) => m.file);
/** E-mail, SMS and push attempts (the notification centre's in_app rows are tested in notification-centre.test.ts). */
const deliveries = (db = env.db) =>
  db.select().from(notificationDeliveries).where(ne(notificationDeliveries.channel, 'in_app')).orderBy(asc(notificationDeliveries.id));

describe('default templates', () => {
  it('a fresh database gets one template per trigger event once, audited with no actor', async () => {
    expect(await ensureDefaultTemplates(env.db)).toEqual([
      'License Expiring Reminder',
      'License Expired Notice',
      'Course Completion Confirmation',
      'Payment Due Reminder',
      'Welcome New User',
      'Password Reset',
      'CE Due Reminder',
    ]);
    expect(await ensureDefaultTemplates(env.db)).toEqual([]);
    const rows = await env.db.select().from(notificationTemplates).orderBy(asc(notificationTemplates.id));
    expect(rows.map((r) => [r.trigger_event, r.type, r.is_active])).toEqual([
      ['license_expiring', 'email', true],
      ['license_expired', 'email', true],
      ['course_completed', 'email', true],
      ['payment_due', 'email', true],
      ['user_registered', 'email', true],
      ['password_reset', 'email', true],
      ['ce_due', 'email', true],
    ]);
    expect(JSON.parse(rows[0]!.variables)).toEqual(expect.arrayContaining(['user_name', 'license_number', 'expiration_date']));
    // The welcome e-mail names the sign-in address and the password link, never a password.
    expect(JSON.parse(rows[4]!.variables)).toEqual(expect.arrayContaining(['email', 'password_link']));
    const audits = await env.db.select().from(auditLogs).where(eq(auditLogs.target_table, 'notification_templates'));
    expect(audits.map((a) => [a.action, a.user_id])).toEqual(Array.from({ length: 7 }, () => ['create', null]));
    // A deactivated template is the Admin's choice: it is not replaced.
    await write((tx) => tx.update(notificationTemplates).set({ is_active: false }));
    expect(await ensureDefaultTemplates(env.db)).toEqual([]);
  });
});

describe('REST: a license expiring inside the warning window', () => {
  it('is reminded in the outbox once, and not again after a restart', async () => {
    await ensureDefaultTemplates(env.db);
    const lic = await seedLicense(roles.agent.user_id, addDays(TODAY, 10));
    const first = await runReminders(env.db, env.config, NOW);
    expect(first).toMatchObject({ sent: 2, failed: 0 }); // the holder's reminder and the broker's digest

    const mine = await outboxTo(roles.agent.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(/\.eml$/);
    const mail = await read(mine[0]!);
    expect(mail.subject).toBe(`Your license ${lic.license_number} expires on ${office(addDays(TODAY, 10))}`);
    expect(mail.body).toContain(`Your Sales license ${lic.license_number} (TX) expires on ${office(addDays(TODAY, 10))}, in 10 days.`);
    expect(mail.body).toContain('Hello Agent ');
    expect(mail.body).not.toContain('{{');

    const history = await api(env, 'GET', '/api/admin/notification-history', { token: roles.admin.token });
    // The holder's reminder, the broker's digest and the holder's in-app notification.
    expect(history.body.total_sent).toBe(3);
    expect(history.body.recent).toContainEqual(
      expect.objectContaining({ recipient: roles.agent.email, template_name: 'License Expiring Reminder', status: 'sent' }),
    );
    expect(history.body.recent).toContainEqual(
      expect.objectContaining({ recipient: roles.agent.email, channel: 'in_app', status: 'sent' }),
    );

    // The same process again the same day: nothing new (the reminder and the day's digest were sent).
    expect(await runReminders(env.db, env.config, NOW)).toMatchObject({ sent: 0, duplicates: 2 });
    expect(await outboxTo(roles.agent.email)).toHaveLength(1);

    // Restart: a new app over the same database (file or PostgreSQL database).
    const before = env;
    await before.app.close();
    await before.db.close();
    const db2 = await openDatabase(env.config);
    const { app: app2 } = await buildApp({ config: env.config, db: db2, logger: false });
    await app2.ready();
    env = {
      ...before,
      app: app2,
      db: db2,
      close: async () => {
        await app2.close();
        await db2.close();
        await before.close();
      },
    };
    expect(await ensureDefaultTemplates(db2)).toEqual([]);
    const again = await runReminders(db2, env.config, at(addDays(TODAY, 1)));
    expect(again.sent).toBe(1); // only the broker's digest of the new day
    expect(await outboxTo(roles.agent.email)).toHaveLength(1);
    const after = await api(env, 'GET', '/api/admin/notification-history', { token: roles.admin.token });
    // One e-mail and one in-app notification for the holder, each once.
    expect(after.body.recent.filter((d: { recipient: string }) => d.recipient === roles.agent.email)).toHaveLength(2);
  });
});

describe('which licenses are reminded', () => {
  it('expiring (Active, Pending Renewal) inside the window and recently expired ones; nothing else', async () => {
    await ensureDefaultTemplates(env.db);
    const holder = await seedUser(env, 'Agent');
    const expiring = await seedLicense(holder.user_id, TODAY);
    const pending = await seedLicense(holder.user_id, addDays(TODAY, 30), 'Pending Renewal');
    const expired = await seedLicense(holder.user_id, addDays(TODAY, -3), 'Expired');
    await seedLicense(holder.user_id, addDays(TODAY, 31)); // outside the 30-day window
    await seedLicense(holder.user_id, addDays(TODAY, 5), 'Inactive');
    await seedLicense(holder.user_id, addDays(TODAY, 5), 'Suspended');
    await seedLicense(holder.user_id, addDays(TODAY, -31), 'Expired'); // expired long before we looked
    const gone = await seedUser(env, 'Agent', { is_active: false });
    await seedLicense(gone.user_id, addDays(TODAY, 5));
    const deleted = await seedUser(env, 'Broker');
    await write((tx) => tx.update(users).set({ deleted_at: NOW.toISOString() }).where(eq(users.user_id, deleted.user_id)));
    await seedLicense(deleted.user_id, addDays(TODAY, 5));

    await runReminders(env.db, env.config, NOW);
    const rows = await deliveries();
    expect(rows.map((r) => [r.license_id, r.template_name]).sort()).toEqual(
      [
        [expiring.license_id, 'License Expiring Reminder'],
        [pending.license_id, 'License Expiring Reminder'],
        [expired.license_id, 'License Expired Notice'],
      ].sort(),
    );
    expect(rows.every((r) => r.recipient === holder.email && r.status === 'sent' && r.transport === 'outbox')).toBe(true);
    expect(rows.find((r) => r.license_id === expired.license_id)!.reminder_key).toBe(
      `license_expired:${expired.license_id}:${expired.expiration_date}:email`,
    );
    expect((await read(rows.find((r) => r.license_id === expired.license_id)!.outbox_file!)).subject).toBe(
      `Your license ${expired.license_number} expired on ${office(expired.expiration_date)}`,
    );

    // Every send is audited, by the system.
    const audits = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'notification_sent'), eq(auditLogs.target_table, 'notification_deliveries')));
    expect(audits.map((a) => a.target_id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(audits.every((a) => a.user_id === null)).toBe(true);
    expect(JSON.parse(audits[0]!.new_values!)).toMatchObject({ status: 'sent', reminder_key: expect.stringMatching(/^license_/) });

    // A wider window in settings takes effect on the next pass.
    await setSettings({ license_expiry_warning_days: 90 });
    expect((await runReminders(env.db, env.config, NOW)).sent).toBe(1);
  });

  it('a license that expires after its expiring reminder gets the expired notice too, each once', async () => {
    await ensureDefaultTemplates(env.db);
    const lic = await seedLicense(roles.school.user_id, addDays(TODAY, 2));
    expect((await runReminders(env.db, env.config, NOW)).sent).toBe(1);
    expect((await runReminders(env.db, env.config, at(addDays(TODAY, 1)))).sent).toBe(0);
    expect((await runReminders(env.db, env.config, at(addDays(TODAY, 3)))).sent).toBe(1);
    expect((await runReminders(env.db, env.config, at(addDays(TODAY, 4)))).sent).toBe(0);
    expect((await deliveries()).map((r) => r.reminder_key)).toEqual([
      `license_expiring:${lic.license_id}:${lic.expiration_date}:email`,
      `license_expired:${lic.license_id}:${lic.expiration_date}:email`,
    ]);
  });

  it('a renewal starts a new cycle: the next expiry is reminded again', async () => {
    await ensureDefaultTemplates(env.db);
    const lic = await seedLicense(roles.school.user_id, addDays(TODAY, 10));
    await runReminders(env.db, env.config, NOW);
    const renewed = addDays(lic.expiration_date, 730);
    await write((tx) => tx.update(licenses).set({ expiration_date: renewed }).where(eq(licenses.license_id, lic.license_id)));
    expect((await runReminders(env.db, env.config, NOW)).sent).toBe(0);
    expect((await runReminders(env.db, env.config, at(addDays(renewed, -10)))).sent).toBe(1);
    expect((await deliveries()).map((r) => r.reminder_key)).toEqual([
      `license_expiring:${lic.license_id}:${lic.expiration_date}:email`,
      `license_expiring:${lic.license_id}:${renewed}:email`,
    ]);
  });

  it('without an active template for the trigger, nothing is sent', async () => {
    await ensureDefaultTemplates(env.db);
    await write((tx) => tx.update(notificationTemplates).set({ is_active: false }));
    await seedLicense(roles.school.user_id, addDays(TODAY, 5));
    expect(await runReminders(env.db, env.config, NOW)).toMatchObject({ sent: 0, failed: 0 });
    expect(await deliveries()).toEqual([]);
  });
});

describe('settings: channels', () => {
  it('email switched off: nothing sent or recorded; switched back on, the reminder goes out', async () => {
    await ensureDefaultTemplates(env.db);
    await seedLicense(roles.school.user_id, addDays(TODAY, 5));
    await setSettings({ email_notifications_enabled: false });
    expect(await runReminders(env.db, env.config, NOW)).toMatchObject({ sent: 0, disabled: 1 });
    expect(await deliveries()).toEqual([]);
    expect(outbox()).toEqual([]);
    await setSettings({ email_notifications_enabled: true });
    expect(await runReminders(env.db, env.config, at(addDays(TODAY, 1)))).toMatchObject({ sent: 1 });
    expect(await outboxTo(roles.school.email)).toHaveLength(1);
  });

  it('SMS without a gateway: only when SMS is on, recorded once as not delivered with the reason; no file pretends', async () => {
    await ensureDefaultTemplates(env.db);
    await write((tx) =>
      tx.insert(notificationTemplates).values({
        name: 'Expiring SMS',
        subject: 'Expiring',
        body: '{{user_name}}: license {{license_number}} expires {{expiration_date}}',
        type: 'sms',
        trigger_event: 'license_expiring',
        variables: '[]',
      }),
    );
    await write((tx) => tx.update(users).set({ phone_number: '+1 512 555 0100' }).where(eq(users.user_id, roles.school.user_id)));
    await seedLicense(roles.school.user_id, addDays(TODAY, 5));
    const noPhoneUser = await seedUser(env, 'Agent');
    await seedLicense(noPhoneUser.user_id, addDays(TODAY, 5));

    expect(await runReminders(env.db, env.config, NOW)).toMatchObject({ sent: 2, disabled: 1, no_address: 1 });
    expect((await deliveries()).filter((d) => d.channel === 'sms')).toEqual([]);

    await setSettings({ sms_notifications_enabled: true });
    expect(await runReminders(env.db, env.config, NOW)).toMatchObject({ sent: 0, failed: 1, duplicates: 2, no_address: 1 });
    expect(outbox().filter((f) => !f.endsWith('.eml'))).toEqual([]);
    expect((await deliveries()).find((d) => d.channel === 'sms')).toMatchObject({
      status: 'failed',
      transport: 'none',
      error: 'No SMS gateway is configured',
      recipient: '+1 512 555 0100',
      outbox_file: null,
    });
    // Tomorrow's pass could not do better: it is not tried again every day.
    expect(await runReminders(env.db, env.config, at(addDays(TODAY, 1)))).toMatchObject({ failed: 0 });
    expect((await deliveries()).filter((d) => d.channel === 'sms')).toHaveLength(1);
    const history = await api(env, 'GET', '/api/admin/notification-history', { token: roles.admin.token });
    expect(history.body.recent.find((d: { channel: string }) => d.channel === 'sms')).toMatchObject({
      status: 'failed',
      transport: 'none',
    });
  });

  it('a failed SMTP delivery is recorded and released, so the next pass tries again', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const { port } = srv.address() as net.AddressInfo;
    await new Promise<void>((r) => srv.close(() => r()));
    const config = { ...env.config, smtpUrl: `smtp://127.0.0.1:${port}` };
    await ensureDefaultTemplates(env.db);
    await seedLicense(roles.school.user_id, addDays(TODAY, 5));
    expect(await runReminders(env.db, config, NOW)).toMatchObject({ sent: 0, failed: 1 });
    expect(await runReminders(env.db, config, at(addDays(TODAY, 1)))).toMatchObject({ sent: 0, failed: 1 });
    const rows = await deliveries();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.status === 'failed' && r.reminder_key === null && r.transport === 'smtp' && !!r.error)).toBe(true);
    expect(await env.db.select().from(auditLogs).where(eq(auditLogs.action, 'notification_failed'))).toHaveLength(2);
    // Once the mail goes through (here: the outbox), it is sent once.
    expect(await runReminders(env.db, env.config, at(addDays(TODAY, 2)))).toMatchObject({ sent: 1 });
    expect(await runReminders(env.db, env.config, at(addDays(TODAY, 3)))).toMatchObject({ sent: 0, duplicates: 1 });
  });
});

describe('broker digests at notification_frequency', () => {
  async function twoAgents() {
    await ensureDefaultTemplates(env.db);
    const other = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId, first_name: 'Otto' });
    const a = await seedLicense(roles.agent.user_id, addDays(TODAY, 7));
    const b = await seedLicense(other.user_id, addDays(TODAY, -2), 'Expired');
    // An agent of another brokerage is not this broker's business.
    const stranger = await seedUser(env, 'Agent');
    const c = await seedLicense(stranger.user_id, addDays(TODAY, 7));
    return { a, b, c };
  }
  const digests = async () => (await deliveries()).filter((d) => d.recipient === roles.broker.email);

  it('daily (the default): one digest a day listing the agents’ expiring and expired licenses', async () => {
    const { a, b, c } = await twoAgents();
    await runReminders(env.db, env.config, NOW);
    expect(await digests()).toHaveLength(1);
    expect((await digests())[0]).toMatchObject({
      template_name: 'Broker digest: expiring licenses',
      reminder_key: `broker_digest:${roles.broker.user_id}:${TODAY}`,
    });
    const mail = await read((await digests())[0]!.outbox_file!);
    expect(mail.subject).toBe('2 agent licenses need attention');
    expect(mail.body).toContain(`${a.license_number} (TX), expires ${office(a.expiration_date)} (in 7 days)`);
    expect(mail.body).toContain(`${b.license_number} (TX), expired ${office(b.expiration_date)} (2 days ago)`);
    expect(mail.body).not.toContain(c.license_number);
    await runReminders(env.db, env.config, at(TODAY));
    expect(await digests()).toHaveLength(1);
    await runReminders(env.db, env.config, at(addDays(TODAY, 1)));
    expect(await digests()).toHaveLength(2);
  });

  it('weekly: one digest per week (Monday to Sunday); monthly: one per month', async () => {
    await twoAgents();
    await setSettings({ notification_frequency: 'weekly' });
    for (const d of ['2026-03-10', '2026-03-12', '2026-03-15']) await runReminders(env.db, env.config, at(d));
    expect((await digests()).map((d) => d.reminder_key)).toEqual([`broker_digest:${roles.broker.user_id}:week-2026-03-09`]);
    await runReminders(env.db, env.config, at('2026-03-16'));
    expect(await digests()).toHaveLength(2);

    await setSettings({ notification_frequency: 'monthly' });
    await runReminders(env.db, env.config, at('2026-03-17'));
    await runReminders(env.db, env.config, at('2026-03-31'));
    expect((await digests()).map((d) => d.reminder_key)).toContain(`broker_digest:${roles.broker.user_id}:2026-03`);
    expect(await digests()).toHaveLength(3);
    expect(digestPeriod('weekly', '2026-03-09')).toBe('week-2026-03-09');
    expect(digestPeriod('weekly', '2026-03-08')).toBe('week-2026-03-02');
    expect(digestPeriod('immediate', '2026-03-08')).toBeNull();
  });

  it('immediate: one notice per license at once, never repeated', async () => {
    const { a, b } = await twoAgents();
    await setSettings({ notification_frequency: 'immediate' });
    await runReminders(env.db, env.config, NOW);
    expect((await digests()).map((d) => [d.template_name, d.license_id]).sort()).toEqual(
      [
        ['Broker notice: agent license', a.license_id],
        ['Broker notice: agent license', b.license_id],
      ].sort(),
    );
    expect((await read((await digests()).find((d) => d.license_id === a.license_id)!.outbox_file!)).subject).toBe(
      `License is expiring: Agent ${(await env.db.select().from(users).where(eq(users.user_id, roles.agent.user_id)))[0]!.last_name} (${a.license_number})`,
    );
    await runReminders(env.db, env.config, at(addDays(TODAY, 1)));
    expect(await digests()).toHaveLength(2);
  });
});

describe('the scheduler', () => {
  it('creates the templates at start, runs shortly after, then once per office day, and stops', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: new Date('2026-03-10T08:00:00Z'),
    });
    const stop = startReminderJob({ app: env.app, db: env.db, config: env.config, services: env.services });
    try {
      await stop.ready;
      expect(await env.db.select().from(notificationTemplates)).toHaveLength(7);
      const first = await seedLicense(roles.school.user_id, '2026-03-20');

      await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS - 100);
      expect(await deliveries()).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(100);
      await dailyPassInFlight(env.db);
      expect((await deliveries()).map((d) => d.license_id)).toEqual([first.license_id]);

      // Later the same day: the hourly check does not run another pass.
      const second = await seedLicense(roles.school.user_id, '2026-03-21');
      await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 3);
      await dailyPassInFlight(env.db);
      expect(await deliveries()).toHaveLength(1);

      // The next office day: it does.
      await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 14);
      await dailyPassInFlight(env.db);
      expect((await deliveries()).map((d) => d.license_id)).toEqual([first.license_id, second.license_id]);
    } finally {
      stop();
    }
    await seedLicense(roles.school.user_id, '2026-03-22');
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 48);
    expect(dailyPassInFlight(env.db)).toBeUndefined();
    expect(await deliveries()).toHaveLength(2);
    // One claimed run per office day that had a pass.
    expect((await env.db.select().from(jobRuns).orderBy(asc(jobRuns.run_key))).map((r) => [r.job, r.run_key])).toEqual([
      [DAILY_PASS_JOB, '2026-03-10'],
      [DAILY_PASS_JOB, '2026-03-11'],
    ]);
    expect(
      await env.db
        .select()
        .from(notificationDeliveries)
        .where(and(isNull(notificationDeliveries.reminder_key), ne(notificationDeliveries.channel, 'in_app'))),
    ).toEqual([]);
  });
  it('a day another instance has claimed is not run again here', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: new Date('2026-03-10T08:00:00Z'),
    });
    await seedLicense(roles.school.user_id, '2026-03-20');
    // The other instance got there first.
    expect(await claimJobRun(env.db, DAILY_PASS_JOB, '2026-03-10')).toBe(true);
    expect(await claimJobRun(env.db, DAILY_PASS_JOB, '2026-03-10')).toBe(false);
    const stop = startReminderJob({ app: env.app, db: env.db, config: env.config, services: env.services });
    try {
      await stop.ready;
      await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS);
      await dailyPassInFlight(env.db);
      expect(await deliveries()).toEqual([]);
      // The next office day is this instance's.
      await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 17);
      await dailyPassInFlight(env.db);
      expect(await deliveries()).toHaveLength(1);
    } finally {
      stop();
    }
    expect(await env.db.select().from(jobRuns)).toHaveLength(2);
  });

  it('overlapping passes share one; on a shared database two handles send each reminder once', async () => {
    await ensureDefaultTemplates(env.db);
    await seedLicense(roles.school.user_id, addDays(TODAY, 5));
    await seedLicense(roles.agent.user_id, addDays(TODAY, 6));
    const first = runReminders(env.db, env.config, NOW);
    expect(runReminders(env.db, env.config, NOW)).toBe(first);
    expect(await first).toMatchObject({ sent: 3 }); // two holders and the broker's digest
    if (env.db.shared) {
      // A second instance's handle on the same PostgreSQL database: the pass lock and the reminder keys.
      await seedLicense(roles.school.user_id, addDays(TODAY, 7));
      const other = await openDatabase(env.config, { migrate: false });
      try {
        const both = await Promise.all([runReminders(env.db, env.config, NOW), runReminders(other, env.config, NOW)]);
        expect(both[0].sent + both[1].sent).toBe(1);
      } finally {
        await other.close();
      }
    }
    expect((await deliveries()).filter((d) => d.recipient === roles.school.email)).toHaveLength(env.db.shared ? 2 : 1);
  });
});
