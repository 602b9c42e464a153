import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { addDays, NOTIFICATION_STRINGS, type Settings } from '@lm/shared';
import { auditLogs, notifications, licenses } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { ensureDefaultTemplates } from '../src/modules/notification-management/default-templates.ts';
import { runReminders } from '../src/modules/notification-management/reminders.ts';
import { issueLinkToken } from '../src/modules/auth/password-reset.service.ts';
import { api, callerFor, seedUser, TEST_PASSWORD, tokenFor, type Roles, type TestEnv, useTestEnv } from './helpers.ts';
import { outboxEmails } from './outbox.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(async () => {
  ({ env, roles } = t);
  await ensureDefaultTemplates(env.db);
});

async function setSettings(values: Partial<Settings>) {
  await env.db.transaction((tx) => writeSettings(tx, values, null));
  invalidateSettings();
}

const notificationsOf = (userId: number) => env.db.select().from(notifications).where(eq(notifications.user_id, userId));

let courseSeq = 0;
/** A completion of a fresh Admin course by the user, approved by the Admin over REST. */
async function approvedCompletion(userId: number, status: 'Approved' | 'Rejected' = 'Approved') {
  const course = await callerFor(env, roles.admin.user_id).courses.create({
    course_name: `Ethics ${++courseSeq}`,
    description: 'Rules',
    provider: 'Office',
    ce_hours: 2,
  });
  const completion = await callerFor(env, roles.admin.user_id).completions.create({
    user_id: userId,
    course_id: course.course_id,
    completion_date: '2026-01-15',
  });
  const res = await api(env, 'POST', `/api/completions/${completion.completion_id}/review`, { token: roles.admin.token, body: { status } });
  expect(res.status).toBe(200);
  await backgroundSettled();
  return { course, completion };
}

describe('in-app notifications', () => {
  it('approving a completion creates an in-app notification for its holder, listed newest first with the unread count', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const token = await tokenFor(env, agent.user_id);
    const { course, completion } = await approvedCompletion(agent.user_id);
    const list = await api(env, 'GET', '/api/notifications', { token });
    expect(list.status).toBe(200);
    expect(list.body.unread).toBe(1);
    expect(list.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1, next_cursor: null, total_capped: false });
    expect(list.body.notifications[0]).toMatchObject({
      event: 'completion_approved',
      title: `Completion approved: ${course.course_name}`,
      object_type: 'completion',
      object_id: completion.completion_id,
      read_at: null,
    });
    expect(list.body.notifications[0].link).toContain('/courses?tab=completions');
    // A rejection is told too.
    await approvedCompletion(agent.user_id, 'Rejected');
    const after = await api(env, 'GET', '/api/notifications?limit=1', { token });
    expect(after.body.notifications[0].event).toBe('completion_rejected');
    expect(after.body.pagination.total).toBe(2);
  });

  it('reading one lowers the unread count, read-all zeroes it, unread_only filters; someone else’s id is 404', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const token = await tokenFor(env, agent.user_id);
    await approvedCompletion(agent.user_id);
    await approvedCompletion(agent.user_id);
    await approvedCompletion(agent.user_id);
    expect((await api(env, 'GET', '/api/notifications/unread-count', { token })).body).toEqual({ unread: 3 });
    const [first] = (await api(env, 'GET', '/api/notifications', { token })).body.notifications;

    // Another user (even an Admin) cannot read or mark it: 404.
    expect((await api(env, 'POST', `/api/notifications/${first.id}/read`, { token: roles.admin.token })).status).toBe(404);
    expect((await api(env, 'POST', `/api/notifications/${first.id}/read`, { token: roles.broker.token })).status).toBe(404);
    expect(await notificationsOf(roles.admin.user_id).then((r) => r.some((n) => n.id === first.id))).toBe(false);

    const read = await api(env, 'POST', `/api/notifications/${first.id}/read`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ success: true, unread: 2 });
    // Reading again changes nothing.
    expect((await api(env, 'POST', `/api/notifications/${first.id}/read`, { token })).body).toEqual({ success: true, unread: 2 });
    const unread = await api(env, 'GET', '/api/notifications?unread_only=true', { token });
    expect(unread.body.notifications.map((n: { id: number }) => n.id)).not.toContain(first.id);
    expect(unread.body.pagination.total).toBe(2);

    const all = await api(env, 'POST', '/api/notifications/read-all', { token });
    expect(all.body).toEqual({ success: true, unread: 0, updated: 2 });
    expect((await callerFor(env, agent.user_id).notifications.unreadCount()).unread).toBe(0);
    expect((await api(env, 'GET', '/api/notifications?unread_only=true', { token })).body.notifications).toEqual([]);
  });

  it('a payment recorded by someone else tells the payer; one the payer could not record for itself is not needed', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    await callerFor(env, roles.broker.user_id).payments.create({ user_id: agent.user_id, amount: 125.5 });
    const rows = await notificationsOf(agent.user_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'payment_recorded', title: 'Payment recorded: $125.50', link: '/payments' });
    // The Broker recording its own payment is not told about it.
    await callerFor(env, roles.broker.user_id).payments.create({ user_id: roles.broker.user_id, amount: 10 });
    expect((await notificationsOf(roles.broker.user_id)).filter((n) => n.event === 'payment_recorded')).toEqual([]);
  });

  it('changing the password creates a notification (REST), as does a reset', async () => {
    const agent = await seedUser(env, 'Agent');
    const token = await tokenFor(env, agent.user_id);
    const res = await api(env, 'POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'N3w-Passw0rd!centre' },
    });
    expect(res.status).toBe(200);
    const rows = await notificationsOf(agent.user_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'password_changed', title: 'Your password was changed', link: '/profile' });

    const resetToken = await env.db.transaction((tx) => issueLinkToken(tx, agent.user_id, 'reset', 60_000, null));
    const reset = await api(env, 'POST', '/api/auth/reset-password', { body: { token: resetToken, newPassword: 'N3w-Passw0rd!reset' } });
    expect(reset.status).toBe(200);
    expect((await notificationsOf(agent.user_id)).filter((n) => n.event === 'password_changed')).toHaveLength(2);
  });

  it('the daily pass tells a holder of an expiring license once (dedup), and the Admin delivery history lists in-app rows', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const today = new Date().toISOString().slice(0, 10);
    const [license] = await env.db.transaction((tx) =>
      tx
        .insert(licenses)
        .values({
          user_id: agent.user_id,
          license_number: `IN-${Date.now() % 100000}`,
          state: 'TX',
          license_type: 'Sales',
          issue_date: '2020-01-01',
          expiration_date: addDays(today, 30),
          status: 'Active',
        })
        .returning(),
    );
    await runReminders(env.db, env.config);
    await runReminders(env.db, env.config);
    const rows = (await notificationsOf(agent.user_id)).filter((n) => n.event === 'license_expiring');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.title).toBe(`License ${license!.license_number} expires in 30 days`);
    expect(rows[0]!.object_id).toBe(license!.license_id);

    const history = await api(env, 'GET', `/api/admin/notification-history/page?channel=in_app&search=${encodeURIComponent(agent.email)}`, {
      token: roles.admin.token,
    });
    expect(history.status).toBe(200);
    expect(history.body.deliveries.length).toBeGreaterThanOrEqual(1);
    expect(history.body.deliveries[0]).toMatchObject({ channel: 'in_app', status: 'sent', recipient: agent.email, transport: null });
    // The e-mail of the same reminder went out too (the default preference keeps today's behaviour).
    expect((await outboxEmails(env.dir, agent.email)).length).toBe(1);
  });
});

describe('preferences', () => {
  it('defaults: in-app on for every event, e-mail on where one is sent; SMS not available without a gateway', async () => {
    const prefs = await api(env, 'GET', '/api/notifications/preferences', { token: roles.agent.token });
    expect(prefs.status).toBe(200);
    expect(prefs.body.channels).toEqual({
      in_app: true,
      email: true,
      sms: false,
      email_reason: null,
      sms_reason: 'No SMS gateway is configured, so text messages cannot be sent from this server.',
      // No SMTP_URL here: e-mails are kept in the outbox, and the preferences say so.
      email_note: NOTIFICATION_STRINGS.emailOutbox,
    });
    const byEvent = Object.fromEntries(prefs.body.events.map((e: { event: string }) => [e.event, e]));
    expect(byEvent.completion_approved).toMatchObject({
      label: 'Completion approved',
      in_app: true,
      email: true,
      sms: false,
      external: true,
    });
    expect(byEvent.password_changed).toMatchObject({ in_app: true, email: false, external: false });
    expect(prefs.body.events).toHaveLength(9);
  });

  it('e-mail off and in-app on for an event: the event notifies in-app and sends no e-mail, where before it did', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const token = await tokenFor(env, agent.user_id);
    // Before: the approval e-mails the holder.
    await approvedCompletion(agent.user_id);
    expect(await outboxEmails(env.dir, agent.email)).toHaveLength(1);

    const saved = await api(env, 'PUT', '/api/notifications/preferences', {
      token,
      body: { events: [{ event: 'completion_approved', in_app: true, email: false, sms: false }] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.events.find((e: { event: string }) => e.event === 'completion_approved')).toMatchObject({
      in_app: true,
      email: false,
    });

    await approvedCompletion(agent.user_id);
    expect(await outboxEmails(env.dir, agent.email)).toHaveLength(1); // no new e-mail
    expect((await notificationsOf(agent.user_id)).filter((n) => n.event === 'completion_approved')).toHaveLength(2);

    // In-app off: no notification either.
    await callerFor(env, agent.user_id).notifications.savePreferences({
      events: [{ event: 'completion_approved', in_app: false, email: true, sms: false }],
    });
    await approvedCompletion(agent.user_id);
    expect((await notificationsOf(agent.user_id)).filter((n) => n.event === 'completion_approved')).toHaveLength(2);
    expect(await outboxEmails(env.dir, agent.email)).toHaveLength(2); // e-mail back on
  });

  it('the daily pass honours the e-mail preference: license_expiring e-mail off leaves only the in-app notification', async () => {
    const agent = await seedUser(env, 'Agent');
    await callerFor(env, agent.user_id).notifications.savePreferences({
      events: [{ event: 'license_expiring', in_app: true, email: false, sms: false }],
    });
    const today = new Date().toISOString().slice(0, 10);
    await env.db.transaction((tx) =>
      tx.insert(licenses).values({
        user_id: agent.user_id,
        license_number: `PREF-${Date.now() % 100000}`,
        state: 'TX',
        license_type: 'Sales',
        issue_date: '2020-01-01',
        expiration_date: addDays(today, 7),
        status: 'Active',
      }),
    );
    const summary = await runReminders(env.db, env.config);
    expect(summary.disabled).toBeGreaterThanOrEqual(1);
    expect(await outboxEmails(env.dir, agent.email)).toEqual([]);
    expect((await notificationsOf(agent.user_id)).map((n) => n.event)).toEqual(['license_expiring']);
  });

  it('turning on SMS (no gateway) or e-mail the Admin disabled is refused with 400, nothing saved; the choice is audited', async () => {
    const agent = await seedUser(env, 'Agent');
    const token = await tokenFor(env, agent.user_id);
    const sms = await api(env, 'PUT', '/api/notifications/preferences', {
      token,
      body: { events: [{ event: 'payment_due', in_app: false, email: true, sms: true }] },
    });
    expect(sms.status).toBe(400);
    expect(sms.body.error).toMatch(/SMS/);
    expect((await callerFor(env, agent.user_id).notifications.preferences()).events.find((e) => e.event === 'payment_due')!.in_app).toBe(
      true,
    );

    await setSettings({ email_notifications_enabled: false });
    try {
      const prefs = await callerFor(env, agent.user_id).notifications.preferences();
      expect(prefs.channels.email).toBe(false);
      // Why, and how it comes back (the preferences show it); nothing said of the outbox while e-mail is off.
      expect(prefs.channels.email_reason).toBe(`${NOTIFICATION_STRINGS.emailDisabled}. ${NOTIFICATION_STRINGS.channelOffHowTo}`);
      expect(prefs.channels.email_note).toBeNull();
      expect(prefs.events.every((e) => !e.email)).toBe(true);
      const email = await api(env, 'PUT', '/api/notifications/preferences', {
        token,
        body: { events: [{ event: 'payment_due', in_app: true, email: true, sms: false }] },
      });
      expect(email.status).toBe(400);
      expect(email.body.error).toBe(prefs.channels.email_reason);
      // Saving what GET showed works, and keeps the stored e-mail choice for when the Admin enables it again.
      const ok = await api(env, 'PUT', '/api/notifications/preferences', {
        token,
        body: { events: prefs.events.map(({ event, sms: s, email: e }) => ({ event, in_app: false, email: e, sms: s })) },
      });
      expect(ok.status).toBe(200);
    } finally {
      await setSettings({ email_notifications_enabled: true });
    }
    const back = await callerFor(env, agent.user_id).notifications.preferences();
    expect(back.events.find((e) => e.event === 'payment_due')).toMatchObject({ in_app: false, email: true });
    const audits = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'update_notification_preferences'), eq(auditLogs.user_id, agent.user_id)));
    expect(audits.length).toBeGreaterThanOrEqual(1);
    expect(audits[0]!.new_values).toContain('payment_due');
  });

  it('a user without in-app for an event gets no notification of it, and nobody sees another one’s preferences', async () => {
    const agent = await seedUser(env, 'Agent');
    await callerFor(env, agent.user_id).notifications.savePreferences({
      events: [{ event: 'password_changed', in_app: false, email: false, sms: false }],
    });
    await callerFor(env, agent.user_id).auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: 'N3w-Passw0rd!quiet' });
    expect(
      await env.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.user_id, agent.user_id))),
    ).toEqual([]);
    expect(
      (await callerFor(env, roles.agent.user_id).notifications.preferences()).events.find((e) => e.event === 'password_changed')!.in_app,
    ).toBe(true);
  });
});
