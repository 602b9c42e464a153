/**
 * The webhook worker (docs/api.md "Webhooks", docs/decisions.md "Webhooks"): in the server process, it claims due
 * outbox rows in small batches with a lease (claimed_until), sends each signed per Standard Webhooks with a
 * timeout, and records the attempt. Several instances on one PostgreSQL database claim each row once: the claim
 * is a conditional UPDATE in a SERIALIZABLE transaction, so of two instances claiming the same row one sees its
 * update fail and retries, finding it claimed. A sender that dies mid-send leaves the lease to expire and the row
 * is sent again (at least once; the webhook-id lets a receiver drop a repeat).
 *
 * It wakes soon after this process queues events (events.ts) and polls as a fallback (other instances' events,
 * retries coming due).
 */
import { AsyncResource } from 'node:async_hooks';
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { ROLE, rolesFor, WEBHOOK_DISABLE_AFTER_DAYS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_STRINGS } from '@lm/shared';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { audit, SYSTEM_ACTOR } from '../../core/audit.ts';
import { notifyUser } from '../notifications/notify.ts';
import { onEventsQueued } from './events.ts';
import { guardedLookup, isPrivateAddress, literalAddress, PrivateAddressError } from './url-guard.ts';

/** Rows claimed per round; they are sent side by side. */
export const BATCH_SIZE = 10;
/** A send gives up after this long (connect, headers and the little of the body that is read). */
export const SEND_TIMEOUT_MS = 10_000;
/** A claimed row belongs to its sender this long; past it, another sender may take it. */
export const LEASE_MS = 60_000;
/** The poll when nothing woke the worker. */
export const POLL_MS = 5_000;
/** After a wake-up the worker looks often for this long, so a commit a moment later is sent within a second. */
const WAKE_WINDOW_MS = 5_000;
const WAKE_STEP_MS = 200;
/** At most this much of a receiver's answer is read (for the error of a failed attempt). */
const MAX_RESPONSE_BYTES = 1024;

export interface WorkerOptions {
  /** The clock (tests drive the backoff with it). */
  now?: () => Date;
  log?: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}

interface Claimed {
  id: string;
  payload: string;
  attempts: number;
  endpoint_id: number;
  url: string;
  secret: string;
  token: string;
}

interface SendResult {
  status: number | null;
  error: string | null;
  duration: number;
}

/** The wait before the next attempt after `attempts` failed ones, with up to 10% jitter; null when it is given up. */
export function retryDelay(attempts: number, random = Math.random): number | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const base = WEBHOOK_RETRY_DELAYS_MS[Math.min(attempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (1 + random() * 0.1));
}

/** Claims up to BATCH_SIZE due deliveries of enabled endpoints for this sender. */
export async function claimDue(db: Db, now: Date): Promise<Claimed[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const token = crypto.randomUUID();
  const free = or(isNull(webhookDeliveries.claimed_until), lt(webhookDeliveries.claimed_until, at));
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(
        and(lte(webhookDeliveries.next_attempt_at, at), isNull(webhookDeliveries.delivered_at), eq(webhookEndpoints.enabled, true), free),
      )
      .orderBy(asc(webhookDeliveries.next_attempt_at), asc(webhookDeliveries.id))
      .limit(BATCH_SIZE);
    if (due.length === 0) return [];
    const claimed = await tx
      .update(webhookDeliveries)
      .set({ claimed_until: until, claim_token: token })
      .where(
        and(
          inArray(
            webhookDeliveries.id,
            due.map((d) => d.id),
          ),
          isNull(webhookDeliveries.delivered_at),
          free,
        ),
      )
      .returning({
        id: webhookDeliveries.id,
        payload: webhookDeliveries.payload,
        attempts: webhookDeliveries.attempts,
        endpoint_id: webhookDeliveries.endpoint_id,
      });
    if (claimed.length === 0) return [];
    const endpoints = await tx
      .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
      .from(webhookEndpoints)
      .where(
        inArray(
          webhookEndpoints.id,
          claimed.map((c) => c.endpoint_id),
        ),
      );
    const byId = new Map(endpoints.map((e) => [e.id, e]));
    return claimed.flatMap((c) => {
      const e = byId.get(c.endpoint_id);
      return e ? [{ ...c, url: e.url, secret: e.secret, token }] : [];
    });
  });
}

/** One signed POST: 2xx is delivered; no redirect is followed; the answer is read up to MAX_RESPONSE_BYTES. */
export function send(delivery: Pick<Claimed, 'id' | 'payload' | 'url' | 'secret'>, allowPrivate: boolean, now: Date): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): SendResult => ({
    status,
    error: error?.slice(0, 500) ?? null,
    duration: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return Promise.resolve(done(null, 'Invalid URL'));
  }
  const literal = literalAddress(url.hostname);
  if (!allowPrivate && literal && isPrivateAddress(literal)) return Promise.resolve(done(null, new PrivateAddressError(literal).message));
  const signature = new Webhook(delivery.secret).sign(delivery.id, now, delivery.payload);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'LicenseManager-Webhooks/1',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
    'content-length': String(Buffer.byteLength(delivery.payload)),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(status, error));
    };
    const req = client.request(
      url,
      { method: 'POST', headers, agent: false, ...(allowPrivate ? {} : { lookup: guardedLookup }) },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          res.resume();
          return finish(status, null);
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.length >= MAX_RESPONSE_BYTES) finish(status, `HTTP ${status}: ${text.slice(0, MAX_RESPONSE_BYTES)}`);
        });
        res.on('end', () => finish(status, `HTTP ${status}${text ? `: ${text}` : ''}`));
        res.on('error', () => finish(status, `HTTP ${status}`));
      },
    );
    const timer = setTimeout(() => finish(null, `No answer within ${SEND_TIMEOUT_MS / 1000} s`), SEND_TIMEOUT_MS);
    req.on('error', (err) => finish(null, err.message || String(err)));
    req.end(delivery.payload);
  });
}

/**
 * Records an attempt: the delivery's state and the attempt's row, the endpoint's failing state, and (failing for
 * WEBHOOK_DISABLE_AFTER_DAYS) the endpoint disabled with the people who manage webhooks told. Nothing if the lease
 * was lost (another sender took the row).
 */
export async function recordAttempt(db: Db, delivery: Claimed, result: SendResult, now: Date): Promise<void> {
  const at = now.toISOString();
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const attempts = delivery.attempts + 1;
  const delay = ok ? null : retryDelay(attempts);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookDeliveries)
      .set({
        attempts,
        last_status_code: result.status,
        last_error: result.error,
        last_duration_ms: result.duration,
        delivered_at: ok ? at : null,
        next_attempt_at: delay === null ? null : new Date(now.getTime() + delay).toISOString(),
        claimed_until: null,
        claim_token: null,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.claim_token, delivery.token)))
      .returning({ id: webhookDeliveries.id });
    if (!row) return;
    await tx.insert(webhookAttempts).values({
      delivery_id: delivery.id,
      attempted_at: at,
      status_code: result.status,
      error: result.error,
      duration_ms: result.duration,
    });
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpoint_id));
    if (!endpoint) return;
    if (ok) {
      if (endpoint.failing_since)
        await tx.update(webhookEndpoints).set({ failing_since: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    if (!endpoint.failing_since) {
      await tx.update(webhookEndpoints).set({ failing_since: at }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    const failingMs = now.getTime() - Date.parse(endpoint.failing_since);
    if (!endpoint.enabled || failingMs < WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000) return;
    const reason = WEBHOOK_STRINGS.failingReason(WEBHOOK_DISABLE_AFTER_DAYS);
    const [after] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabled_reason: reason })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    await audit(tx, SYSTEM_ACTOR, {
      action: 'disable',
      table: 'webhook_endpoints',
      id: endpoint.id,
      old: { enabled: true },
      new: { enabled: false, disabled_reason: after!.disabled_reason, failing_since: endpoint.failing_since },
    });
    const managers = await tx
      .select({ user_id: users.user_id })
      .from(users)
      .where(
        and(
          inArray(
            users.role_id,
            rolesFor('webhooks.manage').map((r) => ROLE[r]),
          ),
          eq(users.is_active, true),
          isNull(users.deleted_at),
        ),
      );
    for (const m of managers) {
      await notifyUser(tx, {
        user_id: m.user_id,
        event: 'webhook_disabled',
        title: WEBHOOK_STRINGS.disabledTitle(endpoint.url).slice(0, 300),
        body: WEBHOOK_STRINGS.disabledBody(reason),
        link: '/settings/integrations',
        object_type: 'webhook',
        object_id: endpoint.id,
        dedup_key: `webhook_disabled:${endpoint.id}:${endpoint.failing_since}:${m.user_id}`,
      });
    }
  });
}

/** One round: claim, send side by side, record. The number of deliveries sent. */
export async function deliverDue(db: Db, config: Pick<Config, 'webhookAllowPrivate'>, now: () => Date = () => new Date()): Promise<number> {
  const claimed = await claimDue(db, now());
  await Promise.all(
    claimed.map(async (d) => {
      const sentAt = now();
      const result = await send(d, config.webhookAllowPrivate, sentAt);
      await recordAttempt(db, d, result, now());
    }),
  );
  return claimed.length;
}

const rounds = new Set<Promise<void>>();

/** Settles when the rounds under way in this process are over (a graceful shutdown waits for it, server.ts). */
export async function webhookRoundsSettled(): Promise<void> {
  await Promise.all([...rounds]);
}

export interface WebhookWorker {
  (): void;
  /** Resolves when the round under way (if any) is over. */
  idle: () => Promise<void>;
  /** Runs a round now (tests). */
  kick: () => void;
}

/**
 * Starts the worker on `db`; the function it returns stops it (no new round starts; `idle()` waits for the round
 * under way). Rounds follow each other while there is work, every WAKE_STEP_MS for a few seconds after this
 * process queued events, else every POLL_MS.
 */
export function startWebhookWorker(
  deps: { db: Db; config: Pick<Config, 'webhookAllowPrivate'> },
  options: WorkerOptions = {},
): WebhookWorker {
  const now = options.now ?? (() => new Date());
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let wakeUntil = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(detachedRound, ms);
    timer.unref();
  };

  // A wake-up comes from inside a request's transaction (events.ts): the round must not run in that async
  // context, or the data layer would take its transaction for an enclosing one. It runs in the worker's own.
  const detachedRound = AsyncResource.bind(() => round());

  function round() {
    timer = null;
    if (stopped || running) return;
    running = (async () => {
      let sent = 0;
      try {
        sent = await deliverDue(deps.db, deps.config, now);
      } catch (err) {
        options.log?.error({ err }, 'webhook deliveries failed');
      }
      running = null;
      if (sent > 0) schedule(0);
      else schedule(Date.now() < wakeUntil ? WAKE_STEP_MS : POLL_MS);
    })();
    const current = running;
    rounds.add(current);
    void current.finally(() => rounds.delete(current));
  }

  const unsubscribe = onEventsQueued(() => {
    wakeUntil = Date.now() + WAKE_WINDOW_MS;
    if (!running) schedule(WAKE_STEP_MS);
  });
  schedule(0);

  const stop = () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
  return Object.assign(stop, {
    idle: async () => {
      await running;
    },
    kick: () => detachedRound(),
  });
}
