import { inArray } from 'drizzle-orm';
import { extractVariables, type NotificationType, type TriggerEvent } from '@lm/shared';
import { notificationTemplates } from '../../db/schema/index.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { audit } from '../../core/audit.ts';

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
      'Congratulations on completing "{{course_name}}". {{ce_hours}} CE hours will be credited once the completion is approved.',
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
      'A payment of {{amount}} is due on {{due_date}}. Please pay it by then to keep your records in good standing.',
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
      'Your account has been created. Sign in with {{email}} to track your licenses, CE hours and renewals.',
      '',
      'Questions? Contact us at {{support_email}}.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
  {
    name: 'Password Reset',
    trigger_event: 'password_reset',
    type: 'email',
    subject: 'Your {{app_name}} password was reset',
    body: [
      'Hello {{user_name}},',
      '',
      'The password of your account {{email}} was reset. If you did not ask for this, contact {{support_email}} at once.',
      '',
      '{{app_name}}',
    ].join('\n'),
  },
];

/** A template row ready to insert, with its variables taken from subject and body. */
export function defaultTemplateRow(t: DefaultTemplate) {
  return { ...t, is_active: true, variables: JSON.stringify(extractVariables(t.subject, t.body)) };
}

/** The triggers the reminder scheduler cannot work without. */
const REQUIRED_TRIGGERS: TriggerEvent[] = ['license_expiring', 'license_expired'];

/**
 * A fresh database gets the reminder templates, so reminders work without set-up. Idempotent: a trigger
 * that has any template (active or not) is left alone; deactivating a template is how reminders are paused.
 * Returns the names created.
 */
export function ensureDefaultTemplates(db: Db): string[] {
  return db.transaction((tx) => {
    const present = new Set(
      tx
        .select({ trigger: notificationTemplates.trigger_event })
        .from(notificationTemplates)
        .where(inArray(notificationTemplates.trigger_event, REQUIRED_TRIGGERS))
        .all()
        .map((r) => r.trigger),
    );
    const created: string[] = [];
    for (const t of DEFAULT_TEMPLATES) {
      if (!REQUIRED_TRIGGERS.includes(t.trigger_event) || present.has(t.trigger_event)) continue;
      created.push(insertDefault(tx, t));
    }
    return created;
  });
}

function insertDefault(tx: DbOrTx, t: DefaultTemplate): string {
  const row = tx.insert(notificationTemplates).values(defaultTemplateRow(t)).returning().get();
  audit(
    tx,
    { userId: null, ip: null },
    { action: 'create', table: 'notification_templates', id: row.id, new: { ...t, reason: 'default template' } },
  );
  return row.name;
}

/** Used by the demo seed: every default template, whatever exists. */
export function insertAllDefaultTemplates(tx: DbOrTx): number[] {
  return DEFAULT_TEMPLATES.map(
    (t) => tx.insert(notificationTemplates).values(defaultTemplateRow(t)).returning({ id: notificationTemplates.id }).get().id,
  );
}
