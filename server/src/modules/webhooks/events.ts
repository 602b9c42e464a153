/**
 * The one way a change announces itself to webhooks (docs/api.md "Webhooks"): `emitEvent(tx, type, data)`, called
 * inside the transaction that makes the change, next to its audit entry. It writes one outbox row
 * (webhook_deliveries) per enabled endpoint subscribed to the event, so the event commits with the change (none is
 * lost on a crash, none is sent for a rolled-back change); the worker (worker.ts) sends it.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { WEBHOOK_TEST_EVENT, type WebhookEvent } from '@lm/shared';
import type { Tx } from '../../db/client.ts';
import { webhookDeliveries, webhookEndpoints, webhookEventKeys } from '../../db/schema/index.ts';
import { preparedShapes } from '../../db/prepared.ts';

/** A new webhook-id: `msg_` and 32 hex characters, the same on every attempt of one delivery. */
export function newMessageId(): string {
  return `msg_${crypto.randomUUID().replace(/-/g, '')}`;
}

/** The body every attempt of a delivery sends, byte for byte: {type, timestamp, data}. */
export function eventBody(type: string, timestamp: string, data: unknown): string {
  return JSON.stringify({ type, timestamp, data });
}

const wakers = new Set<() => void>();

/** The worker's wake-up: called (soon after the commit, see worker.ts) when outbox rows were written in this process. */
export function onEventsQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

function wakeWorkers(): void {
  for (const wake of wakers) wake();
}

function parseEvents(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** One outbox row per endpoint, inside the caller's transaction; the worker is woken. */
async function queue(tx: Tx, endpointIds: number[], type: string, data: unknown): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const now = new Date().toISOString();
  const payload = eventBody(type, now, data);
  const rows = endpointIds.map((endpoint_id) => ({
    id: newMessageId(),
    endpoint_id,
    event: type,
    payload,
    created_at: now,
    next_attempt_at: now,
    attempts: 0,
  }));
  await tx.insert(webhookDeliveries).values(rows);
  wakeWorkers();
  return rows.map((r) => r.id);
}

/** The enabled endpoints' subscriptions: a prepared read, as it runs inside every change that announces itself. */
const enabledEndpoints = preparedShapes<'enabled', Record<string, never>, Array<{ id: number; events: string }>>(
  'webhook_enabled_endpoints',
  (d) =>
    d.select({ id: webhookEndpoints.id, events: webhookEndpoints.events }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true)),
);

async function subscribersOf(tx: Tx, type: WebhookEvent): Promise<number[]> {
  const endpoints = await enabledEndpoints(tx, 'enabled', {});
  return endpoints.filter((e) => parseEvents(e.events).includes(type)).map((e) => e.id);
}

/**
 * Writes the event `type` with `data` (the REST API's answer for the object: the service's own mapper) to the
 * outbox of every enabled endpoint subscribed to it. Inside the change's transaction. `data` may be a function: it
 * is read only when some endpoint subscribes (most changes of most offices announce themselves to nobody).
 */
export async function emitEvent(tx: Tx, type: WebhookEvent, data: unknown): Promise<void> {
  const subscribed = await subscribersOf(tx, type);
  if (subscribed.length === 0) return;
  await queue(tx, subscribed, type, typeof data === 'function' ? await (data as () => Promise<unknown>)() : data);
}

/** emitEvent for many objects of one change (an import's new people and licenses): `load` reads them only when needed. */
export async function emitEvents(tx: Tx, type: WebhookEvent, load: () => Promise<unknown[]>): Promise<void> {
  const subscribed = await subscribersOf(tx, type);
  if (subscribed.length === 0) return;
  for (const data of await load()) await queue(tx, subscribed, type, data);
}

/**
 * emitEvent at most once per `key`, ever (license.expiring: once per license and cycle, key
 * `license.expiring:{license_id}:{expiration_date}`): the key is written in the same transaction, so a pass run
 * again, or by another instance, announces nothing twice. `data` is read only when the event goes out.
 */
export async function emitEventOnce(tx: Tx, type: WebhookEvent, key: string, data: () => Promise<unknown>): Promise<void> {
  const [first] = await tx
    .insert(webhookEventKeys)
    .values({ key: key.slice(0, 200), created_at: new Date().toISOString() })
    .onConflictDoNothing()
    .returning({ key: webhookEventKeys.key });
  if (first) await emitEvent(tx, type, data);
}

/** POST /webhooks/{id}/test: a ping to one endpoint, whatever it subscribes to. Returns the delivery's id. */
export async function emitTestEvent(tx: Tx, endpointId: number, data: unknown): Promise<string> {
  const [id] = await queue(tx, [endpointId], WEBHOOK_TEST_EVENT, data);
  return id!;
}

export { parseEvents };
