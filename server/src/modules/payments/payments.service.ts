import { and, asc, count, desc, eq, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import {
  makePagination,
  PAYMENT_MESSAGES,
  toCents,
  toDollars,
  type CreatePaymentInput,
  type Payment,
  type PaymentListQuery,
  type PaymentPage,
  type PaymentSummary,
  type PaymentSummaryQuery,
  type UpdatePaymentInput,
} from '@lm/shared';
import { licenses, payments, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, notFound } from '../../core/errors.ts';
import { found, visibleUsersCondition } from '../../core/scope.ts';
import { today } from '../../core/dates.ts';
import type { Context } from '../../core/context.ts';
import type { AuthUser } from '../auth/sessions.ts';

type AuthedContext = Context & { user: AuthUser };

/** `column LIKE %text%`, with the user's % and _ taken literally. */
function containsText(column: SQL, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

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

function byId(db: DbOrTx, paymentId: number): Payment {
  return toApi(selectPayments(db).where(eq(payments.payment_id, paymentId)).get()!);
}

/** One payment the caller may see, or 404. */
export function getPayment(ctx: AuthedContext, paymentId: number, db: DbOrTx = ctx.db): Payment {
  const row = selectPayments(db)
    .where(and(eq(payments.payment_id, paymentId), visibleUsersCondition(ctx.user, payments.user_id)))
    .get();
  return toApi(found(row, 'Payment'));
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
    conds.push(sql`(${containsText(fullName, q.search)} OR ${containsText(sql`coalesce(${payments.description}, '')`, q.search)})`);
  }
  return and(...conds);
}

const SORTS: Record<NonNullable<PaymentListQuery['sort']>, SQL[]> = {
  payment_date: [sql`${payments.payment_date}`],
  user: [sql`${users.last_name} COLLATE NOCASE`, sql`${users.first_name} COLLATE NOCASE`],
  amount: [sql`${payments.amount_cents}`],
  payment_type: [sql`${payments.payment_type}`],
  payment_method: [sql`${payments.payment_method}`],
  status: [sql`${payments.status}`],
  created_at: [sql`${payments.created_at}`],
};

/** Newest first unless told otherwise. */
function orderOf(q: PaymentListQuery): SQL[] {
  const dir = (q.order ?? (q.sort ? 'asc' : 'desc')) === 'desc' ? desc : asc;
  return [...SORTS[q.sort ?? 'payment_date'].map((c) => dir(c)), dir(payments.payment_id)];
}

/** GET /payments: every matching payment in the caller's scope (a page of them when `limit` is given). */
export function listPayments(ctx: AuthedContext, q: PaymentListQuery = {}): Payment[] {
  const query = selectPayments(ctx.db)
    .where(whereOf(ctx, q))
    .orderBy(...orderOf(q));
  const rows = q.limit
    ? query
        .limit(q.limit)
        .offset(((q.page ?? 1) - 1) * q.limit)
        .all()
    : query.all();
  return rows.map(toApi);
}

export const DEFAULT_PAGE_SIZE = 20;

/** GET /payments/page: one page and the pagination, for the screen. */
export function pagePayments(ctx: AuthedContext, q: PaymentListQuery = {}): PaymentPage {
  const page = q.page ?? 1;
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const where = whereOf(ctx, q);
  const total =
    ctx.db.select({ n: count() }).from(payments).innerJoin(users, eq(users.user_id, payments.user_id)).where(where).get()?.n ?? 0;
  const rows = selectPayments(ctx.db)
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  return { payments: rows.map(toApi), pagination: makePagination(page, limit, total) };
}

/** GET /payments/summary: revenue is the sum of Completed payments only; the rest are counts. */
export function paymentSummary(ctx: AuthedContext, q: PaymentSummaryQuery = {}): PaymentSummary {
  const row = ctx.db
    .select({
      revenue_cents: sql<number>`coalesce(sum(CASE WHEN ${payments.status} = 'Completed' THEN ${payments.amount_cents} ELSE 0 END), 0)`,
      completed: sql<number>`coalesce(sum(${payments.status} = 'Completed'), 0)`,
      pending: sql<number>`coalesce(sum(${payments.status} = 'Pending'), 0)`,
      failed: sql<number>`coalesce(sum(${payments.status} = 'Failed'), 0)`,
      refunded: sql<number>`coalesce(sum(${payments.status} = 'Refunded'), 0)`,
      total_payments: count(),
    })
    .from(payments)
    .innerJoin(users, eq(users.user_id, payments.user_id))
    .where(whereOf(ctx, q))
    .get()!;
  const { revenue_cents, ...counts } = row;
  return { total_revenue: toDollars(revenue_cents), ...counts };
}

/** The payer must exist, not be deleted, and be in the caller's scope (404). */
function assertPayer(ctx: AuthedContext, db: DbOrTx, userId: number): void {
  const payer = db
    .select({ user_id: users.user_id })
    .from(users)
    .where(and(eq(users.user_id, userId), isNull(users.deleted_at), visibleUsersCondition(ctx.user, users.user_id)))
    .get();
  if (!payer) throw notFound('User');
}

/** A linked license must be one of the payer's own licenses (400). */
function assertLicenseOfUser(db: DbOrTx, licenseId: number | null | undefined, userId: number): void {
  if (licenseId === null || licenseId === undefined) return;
  const license = db.select({ user_id: licenses.user_id }).from(licenses).where(eq(licenses.license_id, licenseId)).get();
  if (!license || license.user_id !== userId) {
    throw badRequest(PAYMENT_MESSAGES.licenseOfUser, [{ path: 'license_id', message: PAYMENT_MESSAGES.licenseOfUser }]);
  }
}

function stored(db: DbOrTx, paymentId: number) {
  return db.select().from(payments).where(eq(payments.payment_id, paymentId)).get();
}

export function createPayment(ctx: AuthedContext, input: CreatePaymentInput): Payment {
  const { amount, ...rest } = input;
  return ctx.db.transaction((tx) => {
    assertPayer(ctx, tx, rest.user_id);
    assertLicenseOfUser(tx, rest.license_id, rest.user_id);
    const row = tx
      .insert(payments)
      .values({
        ...rest,
        license_id: rest.license_id ?? null,
        description: rest.description ?? null,
        amount_cents: toCents(amount),
        payment_date: rest.payment_date ?? today(),
        created_by: ctx.user.user_id,
      })
      .returning()
      .get();
    audit(tx, ctx.actor, { action: 'create', table: 'payments', id: row.payment_id, new: row });
    return byId(tx, row.payment_id);
  });
}

export function updatePayment(ctx: AuthedContext, input: UpdatePaymentInput): Payment {
  const { id: payment_id, amount, ...patch } = input;
  return ctx.db.transaction((tx) => {
    getPayment(ctx, payment_id, tx);
    const old = stored(tx, payment_id)!;
    const userId = patch.user_id ?? old.user_id;
    if (userId !== old.user_id) assertPayer(ctx, tx, userId);
    // A moved payment must not keep a license of its previous payer.
    assertLicenseOfUser(tx, patch.license_id !== undefined ? patch.license_id : old.license_id, userId);
    const values = { ...patch, ...(amount !== undefined ? { amount_cents: toCents(amount) } : {}) };
    const row = Object.keys(values).length
      ? tx.update(payments).set(values).where(eq(payments.payment_id, payment_id)).returning().get()
      : old;
    audit(tx, ctx.actor, { action: 'update', table: 'payments', id: payment_id, old, new: row });
    return byId(tx, payment_id);
  });
}

export function deletePayment(ctx: AuthedContext, paymentId: number): { success: true } {
  ctx.db.transaction((tx) => {
    getPayment(ctx, paymentId, tx);
    const old = stored(tx, paymentId)!;
    tx.delete(payments).where(eq(payments.payment_id, paymentId)).run();
    audit(tx, ctx.actor, { action: 'delete', table: 'payments', id: paymentId, old });
  });
  return { success: true };
}
