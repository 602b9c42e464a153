import { inArray } from 'drizzle-orm';
import { extractVariables, type NotificationType, type TriggerEvent } from '@lm/shared';
import { notificationTemplates } from '../../db/schema/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { audit, SYSTEM_ACTOR } from '../../core/audit.ts';

export interface DefaultTemplate {
  name: string;
  subject: string;
  body: string;
  type: NotificationType;
  trigger_event: TriggerEvent;
}

/** One email template per trigger event: what a fresh office starts with (and what the demo shows). */
export const DEFAULT_TEMPLATES: DefaultTemplate[] = [
  {
    name: 'License Expiring Reminder',
    trigger_event: 'license_expiring',
    type: 'email',
    subject: 'Your license {{license_number}} expires on {{expiration_date}}',
    body: [
      'Hello {{user_name}},',
      '',
      'Your {{license_type}} license {{license_number}} ({{license_state}}) expires on {{expiration_date}}, ' +
        'in {{days_until_expiration}} days.',
      'Please complete any remaining continuing education hours and submit your renewal before that date.',
      '',
      'Questions? Contact us at {{support_email}}.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    name: 'License Expired Notice',
    trigger_event: 'license_expired',
    type: 'email',
    subject: 'Your license {{license_number}} expired on {{expiration_date}}',
    body: [
      'Hello {{user_name}},',
      '',
      'Your {{license_type}} license {{license_number}} ({{license_state}}) expired on {{expiration_date}}.',
      'You may not practice real estate on an expired license. Please renew it as soon as possible.',
      '',
      'Questions? Contact us at {{support_email}}.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    name: 'Course Completion Confirmation',
    trigger_event: 'course_completed',
    type: 'email',
    subject: 'Course completed: {{course_name}}',
    body: [
      'Hello {{user_name}},',
      '',
      'Your completion of "{{course_name}}" on {{completion_date}} has been approved: {{ce_hours}} CE hours count toward your license.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    name: 'Payment Due Reminder',
    trigger_event: 'payment_due',
    type: 'email',
    subject: 'Payment of {{amount}} due on {{due_date}}',
    body: [
      'Hello {{user_name}},',
      '',
      'A {{payment_type}} payment of {{amount}} is due on {{due_date}} and is still pending. Please pay it to keep your records in good standing.',
      '',
      'Questions? Contact us at {{support_email}}.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    name: 'Welcome New User',
    trigger_event: 'user_registered',
    type: 'email',
    subject: 'Welcome to {{app_name}}',
    body: [
      'Hello {{user_name}},',
      '',
      'An account has been created for you. Your sign-in address is {{email}}.',
      '',
      'Choose your password with this link (it works once, for {{link_valid_for}}):',
      '{{password_link}}',
      '',
      'Then sign in at {{sign_in_url}} to track your licenses, CE hours and renewals.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    name: 'Password Reset',
    trigger_event: 'password_reset',
    type: 'email',
    subject: 'Reset your {{app_name}} password',
    body: [
      'Hello {{user_name}},',
      '',
      'A new password was requested for your account {{email}}.',
      'Choose it with this link (it works once, for {{link_valid_for}}):',
      '{{password_link}}',
      '',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    // The daily pass, 90, 60 and 30 days before expiry while the cycle's CE is not complete (reminders.ts).
    name: 'CE Due Reminder',
    trigger_event: 'ce_due',
    type: 'email',
    subject: 'CE due for license {{license_number}}: {{hours_remaining}} hours by {{expiration_date}}',
    body: [
      'Hello {{user_name}},',
      '',
      'Your {{license_type}} license {{license_number}} ({{license_state}}) expires on {{expiration_date}}, ' +
        'in {{days_until_expiration}} days, and its continuing education is not complete: ' +
        '{{hours_remaining}} hours remain.',
      'Required topics still missing: {{topics_missing}}.',
      'To finish in time, plan on about {{hours_per_month}} hours a month.',
      '',
      'Questions? Contact us at {{support_email}}.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
];

/** A template row ready to insert, with its variables taken from subject and body. */
export function defaultTemplateRow(t: DefaultTemplate) {
  return { ...t, is_active: true, variables: JSON.stringify(extractVariables(t.subject, t.body)) };
}

/** Every trigger gets its default template on a fresh database. */
const REQUIRED_TRIGGERS: TriggerEvent[] = DEFAULT_TEMPLATES.map((t) => t.trigger_event);

/**
 * A fresh database gets one template per trigger event, so every event works without set-up. Idempotent:
 * a trigger that has any template (active or not) is left alone; deactivating a template is how an
 * event is paused (account e-mails fall back to the built-in text: see events.ts). Returns the names created.
 */
export async function ensureDefaultTemplates(db: Db): Promise<string[]> {
  // Check and insert in one transaction: instances starting together on one PostgreSQL database
  // (serialisable, retried) create each default once; the loser's retry sees the winner's rows.
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ trigger: notificationTemplates.trigger_event })
      .from(notificationTemplates)
      .where(inArray(notificationTemplates.trigger_event, REQUIRED_TRIGGERS));
    const present = new Set(rows.map((r) => r.trigger));
    const created: string[] = [];
    for (const t of DEFAULT_TEMPLATES) {
      if (!REQUIRED_TRIGGERS.includes(t.trigger_event) || present.has(t.trigger_event)) continue;
      created.push(await insertDefault(tx, t));
    }
    return created;
  });
}

async function insertDefault(tx: Tx, t: DefaultTemplate): Promise<string> {
  const [row] = await tx.insert(notificationTemplates).values(defaultTemplateRow(t)).returning();
  await audit(tx, SYSTEM_ACTOR, {
    action: 'create',
    table: 'notification_templates',
    id: row!.id,
    new: { ...t, reason: 'default template' },
  });
  return row!.name;
}

/** Used by the demo seed: every default template, whatever exists. */
export async function insertAllDefaultTemplates(tx: Tx): Promise<number[]> {
  const ids: number[] = [];
  for (const t of DEFAULT_TEMPLATES) {
    const [row] = await tx.insert(notificationTemplates).values(defaultTemplateRow(t)).returning({ id: notificationTemplates.id });
    ids.push(row!.id);
  }
  return ids;
}
