/**
 * payment_due, a step of the daily pass (reminders.ts): each payment with status Pending whose
 * payment_date has come (today or up to EXPIRED_LOOKBACK_DAYS before, so importing old records does
 * not flood anyone) gets the active payment_due template, once per payment and channel (reminder key
 * `payment_due:{payment_id}:{channel}`), sent to its payer. The payer's Broker hears of it in the
 * digest reminders.ts builds (describePayment lines).
 */
import { and, asc, eq, gte, isNull, lte } from 'drizzle-orm';
import { addDays, formatPaymentAmount, renderTemplate, toDollars, writeCalendarDate, type DateFormat, type Settings } from '@lm/shared';
import { payments, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { deliver, type DeliveryOutcome } from './delivery.ts';
import { activeTemplates, commonValues, recipientFor, userValues } from './events.ts';
import { notifyUser } from '../notifications/notify.ts';

export interface DuePayment {
  payment_id: number;
  amount_cents: number;
  payment_type: string;
  payment_date: string;
  description: string | null;
  license_id: number | null;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  role_id: number;
  brokerage_id: number | null;
}

export async function duePayments(db: Db, today: string, lookbackDays: number): Promise<DuePayment[]> {
  return db
    .select({
      payment_id: payments.payment_id,
      amount_cents: payments.amount_cents,
      payment_type: payments.payment_type,
      payment_date: payments.payment_date,
      description: payments.description,
      license_id: payments.license_id,
      user_id: users.user_id,
      email: users.email,
      first_name: users.first_name,
      last_name: users.last_name,
      phone_number: users.phone_number,
      role_id: users.role_id,
      brokerage_id: users.brokerage_id,
    })
    .from(payments)
    .innerJoin(users, eq(users.user_id, payments.user_id))
    .where(
      and(
        eq(payments.status, 'Pending'),
        lte(payments.payment_date, today),
        gte(payments.payment_date, addDays(today, -lookbackDays)),
        eq(users.is_active, true),
        isNull(users.deleted_at),
      ),
    )
    .orderBy(asc(payments.payment_date), asc(payments.payment_id));
}

export const paymentAmount = (p: Pick<DuePayment, 'amount_cents'>) => formatPaymentAmount(toDollars(p.amount_cents));

/** One line of a Broker's digest. */
export const describePayment =
  (dateFormat: DateFormat) =>
  (p: DuePayment): string => {
    return `- ${p.first_name} ${p.last_name}: ${p.payment_type} ${paymentAmount(p)} due ${writeCalendarDate(p.payment_date, dateFormat)}, still pending`;
  };

/** Tells each payer of a due payment, once per payment and channel. Returns the outcomes to count. */
export async function remindPayers(
  db: Db,
  config: Config,
  due: DuePayment[],
  settings: Settings,
  now: Date,
  onOutcome: (o: DeliveryOutcome | 'no_address') => void,
): Promise<void> {
  if (due.length === 0) return;
  const templates = await activeTemplates(db, 'payment_due');
  for (const p of due) {
    const values = {
      ...commonValues(settings, config),
      ...userValues(p),
      amount: paymentAmount(p),
      due_date: p.payment_date,
      payment_type: p.payment_type,
    };
    // The payer's notification centre, once per payment (docs/decisions.md "Notification centre").
    await db.transaction((tx) =>
      notifyUser(tx, {
        user_id: p.user_id,
        event: 'payment_due',
        title: `Payment of ${paymentAmount(p)} due`,
        body: `Your ${p.payment_type} payment of ${paymentAmount(p)} was due on ${p.payment_date} and is still pending.`,
        link: '/payments',
        object_type: 'payment',
        object_id: p.payment_id,
        dedup_key: `payment_due:${p.user_id}:${p.payment_id}`,
      }),
    );
    for (const t of templates) {
      const recipient = recipientFor(t.type, p);
      if (!recipient) {
        onOutcome('no_address');
        continue;
      }
      onOutcome(
        await deliver(db, config, {
          channel: t.type,
          recipient,
          subject: renderTemplate(t.subject, values, settings.date_format),
          body: renderTemplate(t.body, values, settings.date_format),
          template: { id: t.id, name: t.name },
          user_id: p.user_id,
          license_id: p.license_id,
          reminder_key: `payment_due:${p.payment_id}:${t.type}`,
          notification_event: 'payment_due',
          now,
        }),
      );
    }
  }
}
