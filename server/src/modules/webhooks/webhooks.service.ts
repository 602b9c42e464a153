/**
 * Webhook endpoints and their delivery log (docs/api.md "Webhooks"). Admin only (shared/src/policy.ts
 * webhooks.read / webhooks.manage); every change audited (the secret never reaches the audit log).
 */
import crypto from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_MAX_ENDPOINTS,
  WEBHOOK_MESSAGES,
  type CreatedWebhook,
  type CreateWebhookInput,
  type Pagination,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveriesQuery,
  type WebhookEvent,
} from '@lm/shared';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { countOf } from '../../db/sql.ts';
import { readPage } from '../../db/list.ts';
import { audit } from '../../core/audit.ts';
import { conflict, notFound } from '../../base/errors.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { emitTestEvent, parseEvents } from './events.ts';
import { assertDeliverableUrl } from './url-guard.ts';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** Attempts shown per delivery (the latest ones): a delivery redelivered many times keeps a bounded log. */
const ATTEMPT_LOG_MAX = 20;

/** A new signing secret: whsec_ and 32 random bytes in base64 (the Standard Webhooks form). */
function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

const knownEvents = (text: string): WebhookEvent[] =>
  parseEvents(text).filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e));

/** An endpoint as the API shows it: never the secret, only its first characters. */
export function toWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: knownEvents(row.events),
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    failing_since: row.failing_since,
    secret_prefix: row.secret.slice(0, 10),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What the audit log keeps of an endpoint (the answer's shape; audit() drops the secret_prefix key too). */
const audited = (row: EndpointRow) => toWebhook(row);

async function stored(db: DbOrTx, id: number): Promise<EndpointRow> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/** Events in WEBHOOK_EVENTS order, once each. */
const eventList = (events: readonly WebhookEvent[]) => JSON.stringify(WEBHOOK_EVENTS.filter((e) => events.includes(e)));

export async function listWebhooks(ctx: AuthedContext): Promise<{ webhooks: Webhook[] }> {
  const rows = await ctx.db.select().from(webhookEndpoints).orderBy(webhookEndpoints.id).limit(500);
  return { webhooks: rows.map(toWebhook) };
}

export async function getWebhook(ctx: AuthedContext, id: number): Promise<Webhook> {
  return toWebhook(await stored(ctx.db, id));
}

/** POST /webhooks: the URL's host is checked (private addresses refused), then the endpoint and its secret, shown once. */
export async function createWebhook(ctx: AuthedContext, input: CreateWebhookInput & { events: WebhookEvent[] }): Promise<CreatedWebhook> {
  await assertDeliverableUrl(input.url, ctx.config.webhookAllowPrivate);
  const secret = newSecret();
  return ctx.db.transaction(async (tx) => {
    const [count] = await tx.select({ n: countOf() }).from(webhookEndpoints);
    if ((count?.n ?? 0) >= WEBHOOK_MAX_ENDPOINTS) throw conflict(WEBHOOK_MESSAGES.tooMany);
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        url: input.url,
        description: input.description ?? null,
        events: eventList(input.events),
        secret,
        enabled: true,
        created_by: ctx.user.user_id,
      })
      .returning();
    await audit(tx, ctx.actor, { action: 'create', table: 'webhook_endpoints', id: row!.id, new: audited(row!) });
    return { ...toWebhook(row!), secret };
  });
}

/**
 * PATCH/PUT /webhooks/{id}: any of url, events, description, enabled. Enabling clears the failing state and the
 * reason, and makes its waiting deliveries due now; disabling keeps them waiting.
 */
export async function updateWebhook(ctx: AuthedContext, input: UpdateWebhookInput & { id: number }): Promise<Webhook> {
  const { id, url, events, description, enabled } = input;
  if (url !== undefined) await assertDeliverableUrl(url, ctx.config.webhookAllowPrivate);
  return ctx.db.transaction(async (tx) => {
    const old = await stored(tx, id);
    const changes: Partial<EndpointRow> = {};
    if (url !== undefined) changes.url = url;
    if (events !== undefined) changes.events = eventList(events as WebhookEvent[]);
    if (description !== undefined) changes.description = description;
    if (enabled === true && !old.enabled) Object.assign(changes, { enabled: true, disabled_reason: null, failing_since: null });
    if (enabled === false && old.enabled) Object.assign(changes, { enabled: false, disabled_reason: null });
    if (Object.keys(changes).length === 0) return toWebhook(old);
    const [row] = await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
    if (changes.enabled === true) {
      await tx
        .update(webhookDeliveries)
        .set({ next_attempt_at: new Date().toISOString() })
        .where(
          and(
            eq(webhookDeliveries.endpoint_id, id),
            isNull(webhookDeliveries.delivered_at),
            sql`${webhookDeliveries.next_attempt_at} IS NOT NULL`,
          ),
        );
    }
    await audit(tx, ctx.actor, { action: 'update', table: 'webhook_endpoints', id, old: audited(old), new: audited(row!) });
    return toWebhook(row!);
  });
}

/** DELETE /webhooks/{id}: the endpoint and its deliveries (and their attempts). */
export async function deleteWebhook(ctx: AuthedContext, id: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const old = await stored(tx, id);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    await audit(tx, ctx.actor, { action: 'delete', table: 'webhook_endpoints', id, old: audited(old) });
  });
  return { success: true };
}

/** A delivery's state as the log shows it. */
function stateOf(row: { delivered_at: string | null; next_attempt_at: string | null }): WebhookDelivery['state'] {
  if (row.delivered_at) return 'delivered';
  return row.next_attempt_at ? 'pending' : 'failed';
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhook_id: webhookDeliveries.endpoint_id,
  event: webhookDeliveries.event,
  created_at: webhookDeliveries.created_at,
  attempts: webhookDeliveries.attempts,
  last_status_code: webhookDeliveries.last_status_code,
  last_error: webhookDeliveries.last_error,
  last_duration_ms: webhookDeliveries.last_duration_ms,
  next_attempt_at: webhookDeliveries.next_attempt_at,
  delivered_at: webhookDeliveries.delivered_at,
};

/** GET /webhooks/{id}/deliveries: newest first, a page at a time, each with its attempts (oldest first). */
export async function listDeliveries(
  ctx: AuthedContext,
  q: WebhookDeliveriesQuery,
): Promise<{ deliveries: WebhookDelivery[]; pagination: Pagination }> {
  await stored(ctx.db, q.id);
  const where = eq(webhookDeliveries.endpoint_id, q.id);
  const { rows, pagination } = await readPage(q, {
    count: async () => (await ctx.db.select({ n: countOf() }).from(webhookDeliveries).where(where))[0]?.n,
    rows: ({ limit, offset }) =>
      ctx.db
        .select(deliveryColumns)
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
        .limit(limit)
        .offset(offset),
  });
  const attempts = rows.length
    ? await ctx.db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.delivery_id,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(webhookAttempts.id))
        .limit(rows.length * ATTEMPT_LOG_MAX)
    : [];
  const byDelivery = new Map<string, WebhookDelivery['attempt_log']>();
  for (const a of attempts) {
    const log = byDelivery.get(a.delivery_id) ?? [];
    if (log.length < ATTEMPT_LOG_MAX)
      log.push({ attempted_at: a.attempted_at, status_code: a.status_code, error: a.error, duration_ms: a.duration_ms });
    byDelivery.set(a.delivery_id, log);
  }
  return {
    deliveries: rows.map((r) => ({ ...r, state: stateOf(r), attempt_log: (byDelivery.get(r.id) ?? []).reverse() })),
    pagination,
  };
}

async function deliveryOf(tx: Tx, endpointId: number, deliveryId: string) {
  const [row] = await tx
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpoint_id, endpointId)));
  if (!row) throw notFound('Delivery');
  return row;
}

/**
 * POST /webhooks/{id}/deliveries/{delivery_id}/redeliver: the same delivery (same webhook-id and body) due now,
 * whether it was delivered, given up or still waiting. 409 while the endpoint is disabled.
 */
export async function redeliver(ctx: AuthedContext, endpointId: number, deliveryId: string): Promise<WebhookDelivery> {
  return ctx.db.transaction(async (tx) => {
    const endpoint = await stored(tx, endpointId);
    const old = await deliveryOf(tx, endpointId, deliveryId);
    if (!endpoint.enabled) throw conflict(WEBHOOK_MESSAGES.disabledEndpoint);
    const due = new Date().toISOString();
    await tx
      .update(webhookDeliveries)
      .set({ next_attempt_at: due, delivered_at: null, claimed_until: null, claim_token: null })
      .where(eq(webhookDeliveries.id, deliveryId));
    await audit(tx, ctx.actor, {
      action: 'redeliver',
      table: 'webhook_endpoints',
      id: endpointId,
      old: { delivery_id: deliveryId, delivered_at: old.delivered_at, next_attempt_at: old.next_attempt_at },
      new: { delivery_id: deliveryId, next_attempt_at: due },
    });
    const row = await deliveryOf(tx, endpointId, deliveryId);
    return { ...row, state: stateOf(row), attempt_log: [] };
  });
}

/** POST /webhooks/{id}/test: a webhook.test event to this endpoint alone (sent even if it subscribes to nothing else). */
export async function sendTest(ctx: AuthedContext, endpointId: number): Promise<WebhookDelivery> {
  return ctx.db.transaction(async (tx) => {
    const endpoint = await stored(tx, endpointId);
    if (!endpoint.enabled) throw conflict(WEBHOOK_MESSAGES.disabledEndpoint);
    const deliveryId = await emitTestEvent(tx, endpointId, { webhook_id: endpointId, message: 'Test event from License Manager' });
    await audit(tx, ctx.actor, { action: 'test', table: 'webhook_endpoints', id: endpointId, new: { delivery_id: deliveryId } });
    const row = await deliveryOf(tx, endpointId, deliveryId);
    return { ...row, state: stateOf(row), attempt_log: [] };
  });
}
