import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { addDays } from '@lm/shared';
import { notificationDeliveries, payments } from '../src/db/schema/index.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { ensureDefaultTemplates } from '../src/modules/notification-management/default-templates.ts';
import { runReminders } from '../src/modules/notification-management/reminders.ts';
import { api, callerFor, type TestEnv, type Roles, useTestEnv } from './helpers.ts';
import { outboxEmails } from './outbox.ts';

// Tests run with TZ=UTC (vitest.config.ts).
const TODAY = '2026-03-10';
const at = (date: string) => new Date(`${date}T12:00:00Z`);

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(async () => {
  ({ env, roles } = t);
  await ensureDefaultTemplates(env.db);
});

const deliveriesTo = (recipient: string) =>
  env.db
    .select()
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.recipient, recipient))
    .orderBy(asc(notificationDeliveries.id));

describe('REST: course_completed', () => {
  it('approving a completion e-mails its holder once; reopening and approving again sends nothing new', async () => {
    const course = await callerFor(env, roles.school.user_id).courses.create({
      course_name: 'Fair Housing Update',
      description: 'What changed',
      provider: 'Valley School',
      ce_hours: 3,
    });
    const completion = await callerFor(env, roles.agent.user_id).completions.create({
      course_id: course.course_id,
      completion_date: '2026-01-15',
    });
    await backgroundSettled();
    expect(await outboxEmails(env.dir, roles.agent.email)).toEqual([]); // recorded, not yet approved

    const review = (status: string) =>
      api(env, 'POST', `/api/completions/${completion.completion_id}/review`, { token: roles.school.token, body: { status } });
    expect((await review('Approved')).status).toBe(200);
    await backgroundSettled();
    const mails = await outboxEmails(env.dir, roles.agent.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.headers.subject).toBe('Course completed: Fair Housing Update');
    expect(mails[0]!.body).toContain('Your completion of "Fair Housing Update" on 01/15/2026 has been approved: 3 CE hours');

    expect((await review('Pending')).status).toBe(200);
    expect((await review('Approved')).status).toBe(200);
    await backgroundSettled();
    expect(await outboxEmails(env.dir, roles.agent.email)).toHaveLength(1);
    expect((await deliveriesTo(roles.agent.email)).filter((d) => d.template_name === 'Course Completion Confirmation')).toHaveLength(1);
  });
});

describe('REST: payment_due in the daily pass', () => {
  it('a Pending payment whose date has come: once to its payer, and in the Broker’s digest', async () => {
    const create = (body: object) => api(env, 'POST', '/api/payments', { token: roles.admin.token, body });
    const due = await create({
      user_id: roles.agent.user_id,
      amount: 125.5,
      payment_type: 'Renewal Fee',
      status: 'Pending',
      payment_date: TODAY,
    });
    expect(due.status).toBe(200);
    // Not yet due, already paid, or long overdue (imported history): nothing.
    await create({ user_id: roles.agent.user_id, amount: 10, status: 'Pending', payment_date: addDays(TODAY, 10) });
    await create({ user_id: roles.agent.user_id, amount: 20, status: 'Completed', payment_date: TODAY });
    await create({ user_id: roles.agent.user_id, amount: 30, status: 'Pending', payment_date: addDays(TODAY, -90) });

    await runReminders(env.db, env.config, at(TODAY));
    const payer = (await deliveriesTo(roles.agent.email)).filter((d) => d.template_name === 'Payment Due Reminder');
    expect(payer).toHaveLength(1);
    expect(payer[0]).toMatchObject({ status: 'sent', transport: 'outbox', reminder_key: `payment_due:${due.body.payment_id}:email` });
    const mail = (await outboxEmails(env.dir, roles.agent.email)).find((m) => m.subject.startsWith('Payment of'))!;
    expect(mail.headers.subject).toBe(`Payment of $125.50 due on 03/10/2026`);
    expect(mail.body).toContain('A Renewal Fee payment of $125.50 is due on 03/10/2026 and is still pending.');

    const digest = await deliveriesTo(roles.broker.email);
    expect(digest).toHaveLength(1);
    expect(digest[0]!.subject).toBe('1 agent payment due');
    expect(digest[0]!.body).toContain('Payments due:');
    expect(digest[0]!.body).toMatch(/Renewal Fee \$125\.50 due 03\/10\/2026, still pending/);

    // The next days: the payer is not told again.
    await runReminders(env.db, env.config, at(addDays(TODAY, 1)));
    await runReminders(env.db, env.config, at(addDays(TODAY, 2)));
    expect((await deliveriesTo(roles.agent.email)).filter((d) => d.template_name === 'Payment Due Reminder')).toHaveLength(1);
    // Paid: it leaves the Broker's next digest.
    await env.db.transaction((tx) => tx.update(payments).set({ status: 'Completed' }).where(eq(payments.payment_id, due.body.payment_id)));
    const before = (await deliveriesTo(roles.broker.email)).length;
    await runReminders(env.db, env.config, at(addDays(TODAY, 3)));
    expect(await deliveriesTo(roles.broker.email)).toHaveLength(before);
  });
});

describe('REST: the history tells the truth about transports', () => {
  it('items carry transport; outbox writes are counted in in_outbox, not successful; delivery status says no mail server', async () => {
    const res = await api(env, 'GET', '/api/admin/notification-history?limit=100', { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.recent.length).toBeGreaterThan(0);
    type Row = { channel: string; status: string; transport: string | null };
    const recent: Row[] = res.body.recent;
    for (const d of recent.filter((r) => r.channel !== 'in_app')) expect(['smtp', 'outbox', 'none']).toContain(d.transport);
    // Without a mail server only the notification centre's in-app rows are delivered.
    expect(res.body.successful).toBe(recent.filter((d) => d.channel === 'in_app' && d.status === 'sent').length);
    expect(res.body.in_outbox).toBe(res.body.recent.filter((d: { transport: string }) => d.transport === 'outbox').length);

    const info = await api(env, 'GET', '/api/admin/notification-delivery', { token: roles.admin.token });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ email: 'outbox', outbox_dir: `${env.dir}/outbox`, sms_gateway: false, push_gateway: false });
    expect((await api(env, 'GET', '/api/admin/notification-delivery', { token: roles.broker.token })).status).toBe(403);
  });
});
