/**
 * The notification events that are not daily reminders (docs/decisions.md "Notification events"):
 *   user_registered   welcome e-mail with the sign-in address and a link to choose a password
 *   password_reset    the single-use "Forgot password?" link (and the Admin's "Send password reset link")
 *   course_completed  a completion approved, to its holder (once per completion)
 * payment_due is a step of the daily pass (reminders.payments.ts). Each goes through deliver().
 */
import { and, asc, eq } from 'drizzle-orm';
import { renderTemplate, type NotificationType, type Settings, type TriggerEvent } from '@lm/shared';
import { completions, courses, notificationTemplates, users } from '../../db/schema/index.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Actor } from '../../core/audit.ts';
import { getSettings } from '../../core/settings.ts';
import { runInBackground } from '../../core/background.ts';
import { DEFAULT_TEMPLATES } from './default-templates.ts';
import { deliver, type DeliveryOutcome } from './delivery.ts';

type TemplateRow = Pick<typeof notificationTemplates.$inferSelect, 'id' | 'name' | 'subject' | 'body' | 'type'>;

/** The first active template per channel for a trigger (one message per channel, not one per template). */
export async function activeTemplates(db: DbOrTx, trigger: TriggerEvent): Promise<TemplateRow[]> {
  const rows = await db
    .select()
    .from(notificationTemplates)
    .where(and(eq(notificationTemplates.trigger_event, trigger), eq(notificationTemplates.is_active, true)))
    .orderBy(asc(notificationTemplates.id));
  const perChannel = new Map<NotificationType, TemplateRow>();
  for (const r of rows) if (!perChannel.has(r.type)) perChannel.set(r.type, r);
  return [...perChannel.values()];
}

/** The values every template may use, whatever the event. */
/** Where a message of a channel goes: SMS to the phone number, e-mail and push to the e-mail address (push has no device registry yet). */
export function recipientFor(channel: NotificationType, u: { email: string; phone_number: string | null }): string | null {
  if (channel === 'sms') return u.phone_number?.trim() || null;
  return u.email;
}

export function commonValues(settings: Settings, config: Config): Record<string, string> {
  return {
    app_name: settings.app_name,
    support_email: settings.support_email,
    support_phone: settings.support_phone,
    sign_in_url: `${config.publicUrl}/login`,
  };
}

export function userValues(u: { first_name: string; last_name: string; email: string }): Record<string, string> {
  return { user_name: `${u.first_name} ${u.last_name}`, first_name: u.first_name, last_name: u.last_name, email: u.email };
}

export type LinkPurpose = 'reset' | 'welcome';

/** "60 minutes", "24 hours", "7 days". */
export function describeDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

/**
 * E-mails a link to choose a password: the welcome e-mail (user_registered) or the reset e-mail
 * (password_reset). Account e-mails always go out, whatever the notification switches say, and use the
 * first active e-mail template of the trigger, or the built-in default when there is none (an office
 * cannot switch off password recovery by deactivating a template). A template that lost the link
 * variable still gets the link appended: the e-mail is useless without it. Never contains a password.
 */
export async function sendPasswordLink(
  db: Db,
  config: Config,
  args: { userId: number; purpose: LinkPurpose; token: string; validForMs: number; actor?: Actor },
): Promise<DeliveryOutcome> {
  const [user] = await db
    .select({ first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(users)
    .where(eq(users.user_id, args.userId));
  if (!user) return { status: 'skipped', reason: 'duplicate' };
  const trigger: TriggerEvent = args.purpose === 'welcome' ? 'user_registered' : 'password_reset';
  const settings = await getSettings(db);
  const stored = (await activeTemplates(db, trigger)).find((t) => t.type === 'email');
  const fallback = DEFAULT_TEMPLATES.find((t) => t.trigger_event === trigger)!;
  const template = stored ?? { id: null, name: fallback.name, subject: fallback.subject, body: fallback.body };
  const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(args.token)}`;
  const values = {
    ...commonValues(settings, config),
    ...userValues(user),
    password_link: link,
    link_valid_for: describeDuration(args.validForMs),
  };
  let body = renderTemplate(template.body, values, settings.date_format);
  if (!body.includes(link)) body += `\n\nChoose your password here (valid for ${values.link_valid_for}, once):\n${link}`;
  return deliver(db, config, {
    channel: 'email',
    recipient: user.email,
    subject: renderTemplate(template.subject, values, settings.date_format),
    body,
    template: { id: template.id, name: template.name },
    user_id: args.userId,
    actor: args.actor,
    ignoreChannelSwitch: true,
  });
}

/**
 * course_completed: tells the holder that a completion was approved. Called after the review has
 * committed; runs in the background and never fails the review. Once per completion (reminder key
 * `course_completed:{completion_id}:{channel}`), so reopening and approving again sends nothing new.
 */
export function notifyCourseCompleted(ctx: { db: Db; config: Config }, completionId: number): void {
  runInBackground('course_completed notification', () => sendCourseCompleted(ctx.db, ctx.config, completionId));
}

export async function sendCourseCompleted(db: Db, config: Config, completionId: number): Promise<DeliveryOutcome[]> {
  const [row] = await db
    .select({
      status: completions.status,
      completion_date: completions.completion_date,
      hours: completions.hours,
      license_id: completions.license_id,
      course_name: courses.course_name,
      user_id: users.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      phone_number: users.phone_number,
      is_active: users.is_active,
      deleted_at: users.deleted_at,
    })
    .from(completions)
    .innerJoin(courses, eq(courses.course_id, completions.course_id))
    .innerJoin(users, eq(users.user_id, completions.user_id))
    .where(eq(completions.completion_id, completionId));
  if (!row || row.status !== 'Approved' || !row.is_active || row.deleted_at) return [];
  const settings = await getSettings(db);
  const values = {
    ...commonValues(settings, config),
    ...userValues(row),
    course_name: row.course_name,
    ce_hours: String(row.hours),
    completion_date: row.completion_date,
  };
  const outcomes: DeliveryOutcome[] = [];
  for (const t of await activeTemplates(db, 'course_completed')) {
    const recipient = recipientFor(t.type, row);
    if (!recipient) continue;
    outcomes.push(
      await deliver(db, config, {
        channel: t.type,
        recipient,
        subject: renderTemplate(t.subject, values, settings.date_format),
        body: renderTemplate(t.body, values, settings.date_format),
        template: { id: t.id, name: t.name },
        user_id: row.user_id,
        license_id: row.license_id,
        reminder_key: `course_completed:${completionId}:${t.type}`,
        notification_event: 'completion_approved',
      }),
    );
  }
  return outcomes;
}

/**
 * The two e-mails of a sign-in e-mail change (docs/security.md "Re-authentication and stolen tokens"), account
 * e-mails like the password links (sent whatever the switches say, through deliver(), never a password):
 *   email_change_confirm  to the NEW address: the link that makes the change (24 hours, once)
 *   email_changed         to the OLD address, once the change is made: the notice with a link to undo it (7 days, once)
 * Their text is built in, not an editable template: an office must not be able to drop the undo link.
 */
export async function sendEmailChangeLink(
  db: Db,
  config: Config,
  args: { kind: 'confirm' | 'undo'; userId: number; to: string; otherEmail: string; token: string; validForMs: number; actor?: Actor },
): Promise<DeliveryOutcome> {
  const [user] = await db.select({ first_name: users.first_name }).from(users).where(eq(users.user_id, args.userId));
  if (!user) return { status: 'skipped', reason: 'duplicate' };
  const settings = await getSettings(db);
  const valid = describeDuration(args.validForMs);
  const contact = [settings.support_email, settings.support_phone].filter(Boolean).join(', ');
  const help = contact ? `\n\nQuestions? Contact ${contact}.` : '';
  let subject: string;
  let body: string;
  if (args.kind === 'confirm') {
    const link = `${config.publicUrl}/email-change/confirm?token=${encodeURIComponent(args.token)}`;
    subject = `${settings.app_name}: confirm your new sign-in email`;
    body =
      `Hello ${user.first_name},\n\nYou asked to sign in to ${settings.app_name} with this address instead of ${args.otherEmail}. ` +
      `Open this link to make the change (valid for ${valid}, once):\n${link}\n\nIf you did not ask for this, ignore this email: nothing changes.${help}`;
  } else {
    const link = `${config.publicUrl}/email-change/undo?token=${encodeURIComponent(args.token)}`;
    subject = `${settings.app_name}: your sign-in email was changed`;
    body =
      `Hello ${user.first_name},\n\nThe sign-in email of your ${settings.app_name} account was changed from this address to ${args.otherEmail}.\n\n` +
      `If you did not make this change, open this link (valid for ${valid}, once): it puts this address back, signs everyone out ` +
      `and sends you a link to choose a new password.\n${link}${help}`;
  }
  return deliver(db, config, {
    channel: 'email',
    recipient: args.to,
    subject,
    body,
    template: { id: null, name: args.kind === 'confirm' ? 'Sign-in email change: confirm' : 'Sign-in email changed: undo' },
    user_id: args.userId,
    actor: args.actor,
    ignoreChannelSwitch: true,
  });
}
