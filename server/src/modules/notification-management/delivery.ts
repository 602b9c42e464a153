/**
 * Real delivery of notifications. One Transport per channel behind one interface:
 *   email  SMTP through nodemailer when SMTP_URL is set (transport smtp); otherwise a standard RFC 822
 *          .eml file in $DATA_DIR/outbox (transport outbox: written, not delivered to anyone)
 *   sms    no gateway is configured: recorded as failed, transport none, "No SMS gateway is configured"
 *   push   likewise ("No push gateway is configured")
 * A real SMS or push gateway plugs in by implementing Transport and returning it from transportFor().
 * Every attempt is a row of notification_deliveries, written pending before the send and finished
 * (sent or failed) with its audit entry after it. E-mails end with the office's footer (System Settings).
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import {
  NOTIFICATION_MANAGEMENT_STRINGS,
  type Delivery,
  type DeliveryStatusInfo,
  type DeliveryTransport,
  type NotificationEvent,
  type NotificationType,
  type Settings,
} from '@lm/shared';
import { notificationDeliveries } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { audit, SYSTEM_ACTOR, type Actor } from '../../core/audit.ts';
import { getSettings } from '../../core/settings.ts';
import { notFound } from '../../base/errors.ts';
import { userAllowsChannel } from '../notifications/preferences.ts';

export interface OutgoingMessage {
  /** The delivery row's id (names the outbox file). */
  id: number;
  channel: NotificationType;
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  date: Date;
}

export interface TransportResult {
  transport: Exclude<DeliveryTransport, 'none'>;
  /** File name inside the outbox, when the message went there. */
  file?: string;
}

export interface Transport {
  channel: NotificationType;
  send(message: OutgoingMessage): Promise<TransportResult>;
}

/** A failure of the transport (not a bug): its message is recorded on the delivery row. */
class DeliveryError extends Error {}
/** The channel has no gateway at all: nothing was sent, and trying again tomorrow would not help. */
class NoGatewayError extends DeliveryError {}

export const outboxDir = (config: Config) => path.join(config.dataDir, 'outbox');

/** 2026-11-15T09:30:00.123Z -> 20261115T093000123Z: file names that sort by time. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[-:.]/g, '');
}

/** Writes through a temporary name, so a reader of the outbox never sees half a message. */
function writeAtomically(dir: string, name: string, data: Buffer | string): void {
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${name}.tmp`);
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, path.join(dir, name));
}

/**
 * Every line of an e-mail ends with CRLF (RFC 5322 2.3): nodemailer's `newline` option rewrites the headers only,
 * and a body written with LF (templates are stored with LF, docs/security.md "Exact input") would mix bare LF
 * into the message. A lone CR becomes CRLF too.
 */
export function crlf(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

function mailOptions(m: OutgoingMessage): nodemailer.SendMailOptions {
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: crlf(m.text),
    date: m.date,
    headers: { 'X-License-Manager-Delivery': String(m.id) },
  };
}

/** Email without a mail server: the complete MIME message, CRLF line ends, as an .eml file. */
export function outboxEmailTransport(dir: string): Transport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    channel: 'email',
    async send(m) {
      const info = await builder.sendMail(mailOptions(m));
      const file = `${stamp(m.date)}-email-${m.id}.eml`;
      writeAtomically(dir, file, info.message as Buffer);
      return { transport: 'outbox', file };
    },
  };
}

const smtpTransporters = new Map<string, Transporter>();

/** Email through SMTP_URL (smtp://user:pass@host:587, smtps://…). Transporters are reused per URL. */
export function smtpEmailTransport(smtpUrl: string): Transport {
  let transporter = smtpTransporters.get(smtpUrl);
  if (!transporter) {
    transporter = nodemailer.createTransport({
      url: smtpUrl,
      // SMTP DATA is CRLF: the headers too, whatever the platform's line end.
      newline: 'windows',
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    } as nodemailer.TransportOptions);
    smtpTransporters.set(smtpUrl, transporter);
  }
  const t = transporter;
  return {
    channel: 'email',
    async send(m) {
      const info = await t.sendMail(mailOptions(m));
      const rejected = (info.rejected ?? []).map(String);
      if (rejected.length > 0) throw new DeliveryError(`The mail server rejected ${rejected.join(', ')}`);
      return { transport: 'smtp' };
    },
  };
}

/** SMS and push: no gateway is configured, so nothing can be sent; the attempt is recorded as not delivered. */
export function noGatewayTransport(channel: Exclude<NotificationType, 'email'>): Transport {
  return {
    channel,
    send() {
      return Promise.reject(
        new NoGatewayError(
          channel === 'sms' ? NOTIFICATION_MANAGEMENT_STRINGS.noSmsGateway : NOTIFICATION_MANAGEMENT_STRINGS.noPushGateway,
        ),
      );
    },
  };
}

export function transportFor(config: Config, channel: NotificationType): Transport {
  if (channel === 'email') return config.smtpUrl ? smtpEmailTransport(config.smtpUrl) : outboxEmailTransport(outboxDir(config));
  return noGatewayTransport(channel);
}

/** What this server delivers through (the screens say it plainly). No SMS or push gateway exists yet. */
export function deliveryStatus(config: Config): DeliveryStatusInfo {
  return { email: config.smtpUrl ? 'smtp' : 'outbox', outbox_dir: outboxDir(config), sms_gateway: false, push_gateway: false };
}

/** The footer of every e-mail: the office's name, description and how to reach support (System Settings). */
export function emailFooter(settings: Settings): string {
  const help = [settings.support_email, settings.support_phone].filter((s) => s.trim()).join(' · ');
  return ['', '-- ', settings.app_name, settings.app_description, help ? `Need help? ${help}` : '']
    .filter((line, i) => i < 2 || line.trim())
    .join('\n');
}

/** Whether System Settings let this channel send automatically (push has no switch). */
export function channelEnabled(settings: Settings, channel: NotificationType): boolean {
  if (channel === 'email') return settings.email_notifications_enabled;
  if (channel === 'sms') return settings.sms_notifications_enabled;
  return true;
}

export interface DeliveryRequest {
  channel: NotificationType;
  recipient: string;
  subject: string;
  body: string;
  template: { id: number | null; name: string };
  user_id?: number | null;
  license_id?: number | null;
  /** Automatic reminders: at most one successful or in-flight delivery per key, ever. */
  reminder_key?: string | null;
  /** Who caused it; automatic sends are the system (null). */
  actor?: Actor;
  /**
   * The notification-centre event this message belongs to: its recipient's e-mail/SMS preference for that
   * event applies (user_id required), inside the bound of the settings switch (docs/decisions.md "Notification centre").
   */
  notification_event?: NotificationEvent;
  /** Sends even when the channel is switched off in settings (the Admin's test; account e-mails). */
  ignoreChannelSwitch?: boolean;
  /** The Admin's "Send Test" (marked so in the audit entry). */
  test?: boolean;
  now?: Date;
}

export type DeliveryOutcome =
  { status: 'skipped'; reason: 'channel_disabled' | 'duplicate' | 'user_preference' } | { status: 'sent' | 'failed'; delivery: Delivery };

type DeliveryRow = typeof notificationDeliveries.$inferSelect;

export function toDelivery(r: DeliveryRow): Delivery {
  return {
    id: r.id,
    recipient: r.recipient,
    template_id: r.template_id,
    template_name: r.template_name,
    channel: r.channel,
    status: r.status,
    transport: r.transport as DeliveryTransport | null,
    subject: r.subject,
    error: r.error,
    created_at: r.created_at,
    sent_at: r.sent_at,
  };
}

const SYSTEM: Actor = SYSTEM_ACTOR;

/**
 * Sends one message and records it.
 * 1. Claims the attempt: inserts a pending row (with its reminder key; a key already taken means
 *    this reminder went out before, so nothing happens).
 * 2. Hands the message to the channel's transport.
 * 3. Marks the row sent or failed and audits it, in one transaction. A failed attempt releases its
 *    reminder key so the next scheduler run tries again; a crash between 1 and 3 leaves the row
 *    pending and keeps the key (we may have sent it: at most once beats twice).
 * Steps 1 and 3 are transactions of their own and the send happens between them, so call it after the
 * change that causes the message has committed, never inside a transaction callback (a retried
 * transaction would send again).
 */
export async function deliver(db: Db, config: Config, req: DeliveryRequest): Promise<DeliveryOutcome> {
  const settings = await getSettings(db);
  if (!req.ignoreChannelSwitch && !channelEnabled(settings, req.channel)) return { status: 'skipped', reason: 'channel_disabled' };
  if (req.notification_event && req.user_id && !(await userAllowsChannel(db, req.user_id, req.notification_event, req.channel))) {
    return { status: 'skipped', reason: 'user_preference' };
  }
  const actor = req.actor ?? SYSTEM;
  const now = req.now ?? new Date();

  const body = req.channel === 'email' ? `${req.body}\n${emailFooter(settings)}` : req.body;
  // The claim commits before the transport runs: a retried transaction never sends twice, and a crash
  // after the send leaves the row pending with its key taken.
  const [claimed] = await db.transaction((tx) =>
    tx
      .insert(notificationDeliveries)
      .values({
        template_id: req.template.id,
        template_name: req.template.name,
        channel: req.channel,
        recipient: req.recipient,
        user_id: req.user_id ?? null,
        license_id: req.license_id ?? null,
        subject: req.subject,
        body,
        status: 'pending',
        reminder_key: req.reminder_key ?? null,
        created_at: now.toISOString(),
      })
      .onConflictDoNothing()
      .returning(),
  );
  if (!claimed) return { status: 'skipped', reason: 'duplicate' };

  let result: TransportResult | null = null;
  let error: string | null = null;
  let noGateway = false;
  try {
    result = await transportFor(config, req.channel).send({
      id: claimed.id,
      channel: req.channel,
      from: { name: settings.app_name, address: settings.support_email },
      to: req.recipient,
      subject: req.subject,
      text: body,
      date: now,
    });
  } catch (err) {
    noGateway = err instanceof NoGatewayError;
    error = (err instanceof Error ? err.message : String(err)).slice(0, 500) || 'Delivery failed';
  }

  const sentAt = new Date().toISOString();
  const finished = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(notificationDeliveries)
      .set(
        result
          ? { status: 'sent', transport: result.transport, outbox_file: result.file ?? null, sent_at: sentAt }
          : noGateway
            ? // Kept reminder key: without a gateway tomorrow's pass could not do better, so it is recorded once.
              { status: 'failed', transport: 'none', error }
            : { status: 'failed', transport: config.smtpUrl ? 'smtp' : 'outbox', error, reminder_key: null },
      )
      .where(eq(notificationDeliveries.id, claimed.id))
      .returning();
    if (!row) throw notFound('Notification delivery');
    await audit(tx, actor, {
      action: result ? 'notification_sent' : 'notification_failed',
      table: 'notification_deliveries',
      id: row.id,
      new: {
        recipient: row.recipient,
        template: row.template_name,
        channel: row.channel,
        status: row.status,
        transport: row.transport,
        outbox_file: row.outbox_file,
        reminder_key: req.reminder_key ?? null,
        error: row.error,
        ...(req.test ? { test: true } : {}),
      },
    });
    return row;
  });
  return { status: finished.status === 'sent' ? 'sent' : 'failed', delivery: toDelivery(finished) };
}
