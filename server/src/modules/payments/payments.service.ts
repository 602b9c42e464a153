import { and, asc, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  formatPaymentAmount,
  makePagination,
  PAYMENT_MESSAGES,
  roleName,
  toCents,
  toDollars,
  type CreatePaymentInput,
  type Payment,
  type PaymentDetail,
  type PaymentListQuery,
  type PaymentPage,
  type PaymentSummary,
  type PaymentSummaryQuery,
  type UpdatePaymentInput,
} from '@lm/shared';
import { brokerages, licenses, payments, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { caseInsensitive, containsText, countOf, countWhere, sumOf } from '../../db/sql.ts';
import { audit } from '../../core/audit.ts';
import { found, visibleUsersCondition } from '../../core/scope.ts';
import { today } from '../../core/dates.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { assertLicenseOfHolder, assertPersonInScope, licenseWithHolder } from '../licenses/licenses.service.ts';
import { notifyUser } from '../inbox/notify.ts';

const paymentColumns = {
  payment_id: payments.payment_id,
  user_id: payments.user_id,
  first_name: users.first_name,
  last_name: users.last_name,
  license_id: payments.license_id,
  license_number: licenses.license_number,
  amount_cents: payments.amount_cents,
  payment_type: payments.payment_type,
  payment_method: payments.payment_method,
  status: payments.status,
  description: payments.description,
  payment_date: payments.payment_date,
  created_by: payments.created_by,
  created_at: payments.created_at,
  updated_at: payments.updated_at,
};

type PaymentRow = Omit<Payment, 'amount'> & { amount_cents: number };

/** Cents in the database, dollars with 2 decimals on the wire. */
function toApi({ amount_cents, ...row }: PaymentRow): Payment {
  return { ...row, amount: toDollars(amount_cents) };
}

function selectPayments(db: DbOrTx) {
  return db
    .select(paymentColumns)
    .from(payments)
    .innerJoin(users, eq(users.user_id, payments.user_id))
    .leftJoin(licenses, eq(licenses.license_id, payments.license_id));
}

/** A payment just written in this transaction. */
async function written(tx: Tx, paymentId: number): Promise<Payment> {
  const [row] = await selectPayments(tx).where(eq(payments.payment_id, paymentId));
  return toApi(row!);
}

/** One payment the caller may see, or 404. */
export async function getPayment(ctx: AuthedContext, paymentId: number, db: DbOrTx = ctx.db): Promise<Payment> {
  const [row] = await selectPayments(db).where(and(eq(payments.payment_id, paymentId), visibleUsersCondition(ctx.user, payments.user_id)));
  return toApi(found(row, 'Payment'));
}

/**
 * GET /payments/{id}/detail: a payment in the caller's scope (404 otherwise) with its payer and its linked
 * license. The license is always the payer's own (assertLicenseOfPayer), so the payer's scope covers it.
 */
export async function getPaymentDetail(ctx: AuthedContext, paymentId: number): Promise<PaymentDetail> {
  const payment = await getPayment(ctx, paymentId);
  const [payer] = await ctx.db
    .select({
      user_id: users.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      phone_number: users.phone_number,
      role_id: users.role_id,
      brokerage_name: brokerages.name,
      is_active: users.is_active,
    })
    .from(users)
    .leftJoin(brokerages, eq(brokerages.brokerage_id, users.brokerage_id))
    .where(eq(users.user_id, payment.user_id));
  const { role_id, ...person } = payer!;
  const license = payment.license_id === null ? undefined : await licenseWithHolder(ctx.db, payment.license_id, ctx.user);
  return { payment, payer: { ...person, role_name: roleName(role_id) }, license: license ?? null };
}

/** The stored columns of a payment in the caller's scope (one read: scope check and audit "old"), or 404. */
async function storedVisible(ctx: AuthedContext, tx: Tx, paymentId: number) {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.payment_id, paymentId), visibleUsersCondition(ctx.user, payments.user_id)));
  return found(row, 'Payment');
}

function whereOf(ctx: AuthedContext, q: PaymentSummaryQuery): SQL | undefined {
  const conds: Array<SQL | undefined> = [visibleUsersCondition(ctx.user, payments.user_id)];
  if (q.user_id) conds.push(eq(payments.user_id, q.user_id));
  if (q.license_id) conds.push(eq(payments.license_id, q.license_id));
  if (q.status) conds.push(eq(payments.status, q.status));
  if (q.payment_type) conds.push(eq(payments.payment_type, q.payment_type));
  if (q.payment_method) conds.push(eq(payments.payment_method, q.payment_method));
  if (q.start_date) conds.push(gte(payments.payment_date, q.start_date));
  if (q.end_date) conds.push(lte(payments.payment_date, q.end_date));
  if (q.search) {
    const fullName = sql`(${users.first_name} || ' ' || ${users.last_name})`;
    conds.push(or(containsText(fullName, q.search), containsText(sql`coalesce(${payments.description}, '')`, q.search)));
  }
  return and(...conds);
}

const SORTS: Record<NonNullable<PaymentListQuery['sort']>, SQL[]> = {
  payment_date: [sql`${payments.payment_date}`],
  user: [caseInsensitive(users.last_name), caseInsensitive(users.first_name)],
  amount: [sql`${payments.amount_cents}`],
  payment_type: [sql`${payments.payment_type}`],
  payment_method: [sql`${payments.payment_method}`],
  status: [sql`${payments.status}`],
  // No description sorts as '' on both engines (SQLite and PostgreSQL place NULLs differently).
  description: [caseInsensitive(sql`coalesce(${payments.description}, '')`)],
  created_at: [sql`${payments.created_at}`],
};

/** Newest first unless told otherwise. */
function orderOf(q: PaymentListQuery): SQL[] {
  const dir = (q.order ?? (q.sort ? 'asc' : 'desc')) === 'desc' ? desc : asc;
  return [...SORTS[q.sort ?? 'payment_date'].map((c) => dir(c)), dir(payments.payment_id)];
}

/** GET /payments: every matching payment in the caller's scope (a page of them when `limit` is given). */
export async function listPayments(ctx: AuthedContext, q: PaymentListQuery = {}): Promise<Payment[]> {
  const query = selectPayments(ctx.db)
    .where(whereOf(ctx, q))
    .orderBy(...orderOf(q));
  const rows = q.limit ? await query.limit(q.limit).offset(((q.page ?? 1) - 1) * q.limit) : await query;
  return rows.map(toApi);
}

export const DEFAULT_PAGE_SIZE = 20;

/** GET /payments/page: one page and the pagination, for the screen. */
export async function pagePayments(ctx: AuthedContext, q: PaymentListQuery = {}): Promise<PaymentPage> {
  const page = q.page ?? 1;
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const where = whereOf(ctx, q);
  const [counted] = await ctx.db.select({ n: countOf() }).from(payments).innerJoin(users, eq(users.user_id, payments.user_id)).where(where);
  const rows = await selectPayments(ctx.db)
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset((page - 1) * limit);
  return { payments: rows.map(toApi), pagination: makePagination(page, limit, counted?.n ?? 0) };
}

/** GET /payments/summary: revenue is the exact sum of Completed payments' cents; the rest are counts. */
export async function paymentSummary(ctx: AuthedContext, q: PaymentSummaryQuery = {}): Promise<PaymentSummary> {
  const completedCondition = eq(payments.status, 'Completed');
  const [row] = await ctx.db
    .select({
      revenue_cents: sumOf(sql`CASE WHEN ${completedCondition} THEN ${payments.amount_cents} ELSE 0 END`),
      completed: countWhere(completedCondition),
      pending: countWhere(eq(payments.status, 'Pending')),
      failed: countWhere(eq(payments.status, 'Failed')),
      refunded: countWhere(eq(payments.status, 'Refunded')),
      total_payments: countOf(),
    })
    .from(payments)
    .innerJoin(users, eq(users.user_id, payments.user_id))
    .where(whereOf(ctx, q));
  const { revenue_cents, ...counts } = row!;
  return { total_revenue: toDollars(revenue_cents), ...counts };
}

/** A linked license must be one of the payer's own licenses (400). */
async function assertLicenseOfPayer(tx: Tx, licenseId: number | null | undefined, userId: number): Promise<void> {
  if (licenseId === null || licenseId === undefined) return;
  await assertLicenseOfHolder(tx, licenseId, userId, PAYMENT_MESSAGES.licenseOfUser);
}

/** The payer and license checks read inside the writing transaction. */
export async function createPayment(ctx: AuthedContext, input: CreatePaymentInput): Promise<Payment> {
  const { amount, ...rest } = input;
  return ctx.db.transaction(async (tx) => {
    // The payer must exist, not be deleted, and be in the caller's scope (404).
    await assertPersonInScope(tx, ctx.user, rest.user_id);
    await assertLicenseOfPayer(tx, rest.license_id, rest.user_id);
    const [row] = await tx
      .insert(payments)
      .values({
        ...rest,
        license_id: rest.license_id ?? null,
        description: rest.description ?? null,
        amount_cents: toCents(amount),
        payment_date: rest.payment_date ?? today(),
        created_by: ctx.user.user_id,
      })
      .returning();
    await audit(tx, ctx.actor, { action: 'create', table: 'payments', id: row!.payment_id, new: row });
    const payment = await written(tx, row!.payment_id);
    // The payer hears of a payment someone else recorded for them (docs/decisions.md "Notification centre").
    if (payment.user_id !== ctx.user.user_id) {
      const amount = formatPaymentAmount(payment.amount);
      await notifyUser(tx, {
        user_id: payment.user_id,
        event: 'payment_recorded',
        title: `Payment recorded: ${amount}`,
        body: `A ${payment.payment_type} payment of ${amount} dated ${payment.payment_date} (${payment.status}) was recorded for you.`,
        link: '/payments',
        object_type: 'payment',
        object_id: payment.payment_id,
      });
    }
    return payment;
  });
}

export async function updatePayment(ctx: AuthedContext, input: UpdatePaymentInput): Promise<Payment> {
  const { id: payment_id, amount, ...patch } = input;
  return ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, payment_id);
    const userId = patch.user_id ?? old.user_id;
    if (userId !== old.user_id) await assertPersonInScope(tx, ctx.user, userId);
    // A moved payment must not keep a license of its previous payer.
    await assertLicenseOfPayer(tx, patch.license_id !== undefined ? patch.license_id : old.license_id, userId);
    const values = { ...patch, ...(amount !== undefined ? { amount_cents: toCents(amount) } : {}) };
    const row = Object.keys(values).length
      ? (await tx.update(payments).set(values).where(eq(payments.payment_id, payment_id)).returning())[0]!
      : old;
    await audit(tx, ctx.actor, { action: 'update', table: 'payments', id: payment_id, old, new: row });
    return written(tx, payment_id);
  });
}

export async function deletePayment(ctx: AuthedContext, paymentId: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, paymentId);
    await tx.delete(payments).where(eq(payments.payment_id, paymentId));
    await audit(tx, ctx.actor, { action: 'delete', table: 'payments', id: paymentId, old });
  });
  return { success: true };
}
