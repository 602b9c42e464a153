/**
 * Notification templates (Admin only: the policy's notificationTemplates.* actions), the delivery history and the
 * Admin's test send.
 */
import { and, asc, count, desc, eq, getTableColumns, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  type DeliveryPage,
  type DeliveryPageQuery,
  type TemplatePage,
  type TemplatePageQuery,
  extractVariables,
  renderTemplate,
  SAMPLE_VALUES,
  type TemplateCreateData,
  type TemplateTestData,
  type TemplateUpdateData,
  type NotificationHistory,
  type NotificationTemplate,
} from '@lm/shared';
import { notificationDeliveries, notificationTemplates } from '../../db/schema/index.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { conflict } from '../../base/errors.ts';
import { found } from '../../core/scope.ts';
import { getSettings } from '../../core/settings.ts';
import type { DbOrTx } from '../../db/client.ts';
import { caseInsensitive, containsText, countOf } from '../../db/sql.ts';
import { deliver, deliveryStatus, outboxDir, toDelivery } from './delivery.ts';
import type { Delivery } from '@lm/shared';
import { cappedCountOf, directionOf, keyColumns, nullsFirst, orderOf, pageWhere, readPage, type ListOrder } from '../../db/list.ts';

type TemplateRow = typeof notificationTemplates.$inferSelect;

/** A list page's size when the caller names none (the screens' default, docs/product.md "Lists"). */

function parseVariables(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function toTemplate(r: TemplateRow): NotificationTemplate {
  return {
    id: r.id,
    name: r.name,
    subject: r.subject,
    body: r.body,
    type: r.type,
    trigger_event: r.trigger_event,
    is_active: r.is_active,
    variables: parseVariables(r.variables),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The template's variables: those named by the caller plus every {{name}} its subject and body use. */
function mergeVariables(given: string[], subject: string, body: string): string {
  return JSON.stringify([...new Set([...given, ...extractVariables(subject, body)])]);
}

async function assertNameFree(db: DbOrTx, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: notificationTemplates.id })
    .from(notificationTemplates)
    .where(
      and(
        sql`lower(${notificationTemplates.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(notificationTemplates.id, exceptId),
      ),
    )
    .limit(1);
  if (clash) throw conflict('A notification template with this name already exists');
}

const getRow = async (db: DbOrTx, id: number) =>
  found((await db.select().from(notificationTemplates).where(eq(notificationTemplates.id, id)))[0], 'Notification template');

export async function listTemplates(ctx: Context): Promise<{ templates: NotificationTemplate[] }> {
  const rows = await ctx.db.select().from(notificationTemplates).orderBy(asc(notificationTemplates.id));
  return { templates: rows.map(toTemplate) };
}

const TEMPLATE_SORT: Record<NonNullable<TemplatePageQuery['sort']>, SQL | typeof notificationTemplates.name> = {
  name: caseInsensitive(notificationTemplates.name),
  type: sql`${notificationTemplates.type}`,
  trigger_event: sql`${notificationTemplates.trigger_event}`,
  is_active: sql`${notificationTemplates.is_active}`,
  updated_at: sql`${notificationTemplates.updated_at}`,
};

/** The templates list: filters, sort (default name A to Z) with the id as tie-break, one page and the total. */
export async function pageTemplates(ctx: Context, q: TemplatePageQuery = {}): Promise<TemplatePage> {
  const t = notificationTemplates;
  const where = and(
    q.search ? or(containsText(t.name, q.search), containsText(t.subject, q.search)) : undefined,
    q.type ? eq(t.type, q.type) : undefined,
    q.trigger_event ? eq(t.trigger_event, q.trigger_event) : undefined,
  );
  const { rows, pagination } = await readPage(q, {
    count: async () => (await ctx.db.select({ n: countOf() }).from(t).where(where))[0]?.n,
    rows: ({ limit, offset }) =>
      ctx.db
        .select()
        .from(t)
        .where(where)
        .orderBy(...orderOf([TEMPLATE_SORT[q.sort ?? 'name']], q.order ?? 'asc', t.id))
        .limit(limit)
        .offset(offset),
  });
  return { templates: rows.map(toTemplate), pagination };
}

export async function createTemplate(ctx: Context, input: TemplateCreateData): Promise<NotificationTemplate> {
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const [row] = await tx
      .insert(notificationTemplates)
      .values({ ...input, variables: mergeVariables(input.variables, input.subject, input.body) })
      .returning();
    const out = toTemplate(row!);
    await audit(tx, ctx.actor, { action: 'create', table: 'notification_templates', id: out.id, new: out });
    return out;
  });
}

export async function updateTemplate(ctx: Context, input: TemplateUpdateData): Promise<NotificationTemplate> {
  const { id, ...changes } = input;
  const updatedAt = new Date().toISOString();
  return ctx.db.transaction(async (tx) => {
    const old = await getRow(tx, id);
    if (changes.name !== undefined) await assertNameFree(tx, changes.name, id);
    const subject = changes.subject ?? old.subject;
    const body = changes.body ?? old.body;
    const [row] = await tx
      .update(notificationTemplates)
      .set({
        ...changes,
        variables: mergeVariables(changes.variables ?? parseVariables(old.variables), subject, body),
        updated_at: updatedAt,
      })
      .where(eq(notificationTemplates.id, id))
      .returning();
    const out = toTemplate(row!);
    await audit(tx, ctx.actor, { action: 'update', table: 'notification_templates', id, old: toTemplate(old), new: out });
    return out;
  });
}

export async function deleteTemplate(ctx: Context, id: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const old = await getRow(tx, id);
    // History keeps the template's name (template_id becomes null through the foreign key).
    await tx.delete(notificationTemplates).where(eq(notificationTemplates.id, id));
    await audit(tx, ctx.actor, { action: 'delete', table: 'notification_templates', id, old: toTemplate(old) });
  });
  return { success: true };
}

/** The values a test send and the preview use: the samples, with the office's own name and address. */
export async function sampleValues(ctx: Pick<Context, 'db'>): Promise<Record<string, string>> {
  const s = await getSettings(ctx.db);
  return { ...SAMPLE_VALUES, app_name: s.app_name, support_email: s.support_email, support_phone: s.support_phone };
}

/** Where a delivery went, in words (the Send Test toast; the Admin's "Send password reset link"). */
export function whereItWent(ctx: Pick<Context, 'config'>, d: Delivery, what = 'Test e-mail'): string {
  if (d.status === 'failed') return `${what} to ${d.recipient} was not delivered: ${d.error ?? 'delivery failed'}`;
  if (d.transport === 'outbox') return `${what} written to the outbox (${outboxDir(ctx.config)}) – no mail server is configured`;
  return `${what} sent via SMTP to ${d.recipient}`;
}

/**
 * Renders the template with sample values and sends it by email to the given address. It always sends,
 * whatever the notification switches say (it is the Admin's explicit test), and works for inactive
 * templates so they can be checked before they go live. SMS and push templates are tested by email too.
 */
export async function sendTest(ctx: Context, input: TemplateTestData) {
  const template = toTemplate(await getRow(ctx.db, input.id));
  const values = await sampleValues(ctx);
  const { date_format } = await getSettings(ctx.db);
  const outcome = await deliver(ctx.db, ctx.config, {
    channel: 'email',
    recipient: input.test_email,
    subject: renderTemplate(template.subject, values, date_format),
    body: renderTemplate(template.body, values, date_format),
    template: { id: template.id, name: template.name },
    actor: ctx.actor,
    ignoreChannelSwitch: true,
    test: true,
  });
  // With ignoreChannelSwitch and no reminder key it is never skipped.
  if (outcome.status === 'skipped') throw conflict('The test notification was not sent');
  return { success: outcome.status === 'sent', message: whereItWent(ctx, outcome.delivery), delivery: outcome.delivery };
}

/** GET /admin/notification-delivery: whether a mail server is configured, where the outbox is, gateways. */
export function deliveryInfo(ctx: Pick<Context, 'config'>) {
  return deliveryStatus(ctx.config);
}

export async function history(ctx: Context, limit = 10): Promise<NotificationHistory> {
  const counts = await ctx.db
    .select({ status: notificationDeliveries.status, transport: notificationDeliveries.transport, n: count() })
    .from(notificationDeliveries)
    .groupBy(notificationDeliveries.status, notificationDeliveries.transport);
  const by = (s: string, transport?: (t: string | null) => boolean) =>
    counts.filter((c) => c.status === s && (!transport || transport(c.transport))).reduce((a, c) => a + c.n, 0);
  const recent = await ctx.db
    .select()
    .from(notificationDeliveries)
    .orderBy(desc(notificationDeliveries.created_at), desc(notificationDeliveries.id))
    .limit(limit);
  return {
    total_sent: counts.reduce((a, c) => a + c.n, 0),
    // An outbox file is not a delivery: it is counted on its own.
    successful: by('sent', (t) => t !== 'outbox'),
    in_outbox: by('sent', (t) => t === 'outbox'),
    failed: by('failed'),
    pending: by('pending'),
    recent: recent.map(toDelivery),
  };
}

const DELIVERY_SORT: Record<NonNullable<DeliveryPageQuery['sort']>, SQL> = {
  created_at: sql`${notificationDeliveries.created_at}`,
  recipient: caseInsensitive(notificationDeliveries.recipient),
  template_name: caseInsensitive(notificationDeliveries.template_name),
  channel: sql`${notificationDeliveries.channel}`,
  status: sql`${notificationDeliveries.status}`,
  // Not sent yet sorts first ascending on both engines (db/list.ts nullsFirst).
  sent_at: nullsFirst(notificationDeliveries.sent_at, 'time'),
};

/** The delivery history (every attempt): filters, sort (default newest first) with the id as tie-break, a page and the total. */
export async function pageDeliveries(ctx: Context, q: DeliveryPageQuery = {}): Promise<DeliveryPage> {
  const d = notificationDeliveries;
  const where = and(
    q.search
      ? or(containsText(d.recipient, q.search), containsText(d.template_name, q.search), containsText(d.subject, q.search))
      : undefined,
    q.status ? eq(d.status, q.status) : undefined,
    q.channel ? eq(d.channel, q.channel) : undefined,
    q.template_id ? eq(d.template_id, q.template_id) : undefined,
  );
  const order: ListOrder = { sort: [DELIVERY_SORT[q.sort ?? 'created_at']], order: directionOf(q, 'created_at'), id: d.id };
  const { rows, pagination } = await readPage(q, {
    order,
    count: () => cappedCountOf(ctx.db, d, where),
    rows: (window) =>
      ctx.db
        .select({ ...getTableColumns(d), ...keyColumns(order) })
        .from(d)
        .where(pageWhere(where, order, window))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(window.limit)
        .offset(window.offset),
  });
  return { deliveries: rows.map(toDelivery), pagination };
}
