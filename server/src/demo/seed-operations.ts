import { asc, inArray } from 'drizzle-orm';
import { DEFAULT_SETTINGS, renderTemplate, SAMPLE_VALUES } from '@lm/shared';
import type { Tx } from '../db/client.ts';
import { notificationDeliveries, notificationTemplates, users } from '../db/schema/index.ts';
import { DEFAULT_TEMPLATES, insertAllDefaultTemplates } from '../modules/notification-management/default-templates.ts';
import type { DemoContext } from './context.ts';

/**
 * Demo data: one template per trigger event (plus an inactive SMS variant) and a month of delivery
 * history, mostly delivered to the outbox with a few failures, so both cards of Notification Management
 * have something to show.
 */
export async function seedOperations(db: Tx, ctx: DemoContext): Promise<void> {
  const templateIds = await insertAllDefaultTemplates(db);
  await db.insert(notificationTemplates).values({
    name: 'License Expiring SMS',
    subject: 'License {{license_number}} expires {{expiration_date}}',
    body: '{{app_name}}: {{user_name}}, your license {{license_number}} expires on {{expiration_date}}. Please renew.',
    type: 'sms',
    trigger_event: 'license_expiring',
    is_active: false,
    variables: JSON.stringify(['app_name', 'user_name', 'license_number', 'expiration_date']),
  });

  const ids = [...ctx.agentIds, ...ctx.brokerIds];
  const people = ids.length > 0 ? await db.select().from(users).where(inArray(users.user_id, ids)).orderBy(asc(users.user_id)) : [];
  if (people.length === 0) people.push((await db.select().from(users).orderBy(asc(users.user_id)).limit(1))[0]!);

  // [days ago, template index (DEFAULT_TEMPLATES order), status, error]
  const history: Array<[number, number, 'sent' | 'failed', string | null]> = [
    [29, 4, 'sent', null],
    [26, 0, 'sent', null],
    [24, 2, 'sent', null],
    [21, 3, 'sent', null],
    [18, 0, 'failed', 'Mailbox unavailable: 550 5.1.1 recipient address rejected'],
    [15, 1, 'sent', null],
    [12, 5, 'sent', null],
    [9, 0, 'sent', null],
    [7, 2, 'sent', null],
    [5, 3, 'failed', 'Connection timeout'],
    [3, 0, 'sent', null],
    [2, 4, 'sent', null],
    [1, 1, 'sent', null],
  ];
  for (const [i, [days, t, status, error]] of history.entries()) {
    const person = people[i % people.length]!;
    const template = DEFAULT_TEMPLATES[t]!;
    const values = {
      ...SAMPLE_VALUES,
      user_name: `${person.first_name} ${person.last_name}`,
      first_name: person.first_name,
      last_name: person.last_name,
      email: person.email,
      license_number: `SA-${String(1_000_000 + person.user_id * 7919).slice(0, 7)}`,
      license_state: person.state ?? 'CA',
      license_type: 'Sales',
      expiration_date: ctx.daysAgo(-30 + days).slice(0, 10),
      days_until_expiration: '30',
      course_name: 'Ethics in Real Estate',
      ce_hours: '3',
      amount: '$150.00',
      due_date: ctx.daysAgo(-14 + days).slice(0, 10),
      app_name: 'Real Estate License Manager',
      support_email: 'support@example.com',
    };
    const at = ctx.daysAgo(days);
    await db.insert(notificationDeliveries).values({
      template_id: templateIds[t]!,
      template_name: template.name,
      channel: 'email',
      recipient: person.email,
      user_id: person.user_id,
      subject: renderTemplate(template.subject, values, DEFAULT_SETTINGS.date_format),
      body: renderTemplate(template.body, values, DEFAULT_SETTINGS.date_format),
      status,
      transport: 'outbox',
      error,
      created_at: at,
      sent_at: status === 'sent' ? at : null,
    });
  }
}
