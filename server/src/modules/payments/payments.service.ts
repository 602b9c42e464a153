import { and, eq, gt, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  formatPaymentAmount,
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
import {
  caseInsensitive,
  containsPattern,
  countOf,
  countWhere,
  likePattern,
  limitPlaceholder,
  personNameOrder,
  sumOf,
} from '../../db/sql.ts';
import { decoded, preparedSelect, preparedShapes } from '../../db/prepared.ts';
import {
  afterKey,
  cappedCount,
  keyColumns,
  keyValues,
  orderOf,
  pageWindow,
  perSort,
  readPage,
  UNPAGED_LIST_MAX,
  type ListOrder,
} from '../../db/list.ts';
import { audit } from '../../core/audit.ts';
import { paymentTotalsOf } from '../reports/totals.ts';
import { found, scopeKind, scopeValues, visibleUsersCondition, visibleUsersPlaceholders, type ScopeKind } from '../../core/scope.ts';
import { today } from '../../core/dates.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { assertLicenseOfHolder, assertPersonInScope, licenseWithHolder } from '../licenses/licenses.service.ts';
import { notifyUser } from '../notifications/notify.ts';
import { emitEvent } from '../webhooks/events.ts';
import { recordDeletion } from '../deletions/deletions.service.ts';
import { assertIfMatch } from '../../http/etag.ts';

const paymentColumns = {
  payment_id: payments.payment_id,
  user_id: payments.user_id,
  first_name: users.first_name,
  last_name: users.last_name,
  license_id: payments.license_id,
  license_number: licenses.license_number,
  payment_type: payments.payment_type,
  payment_method: payments.payment_method,
  status: payments.status,
  description: payments.description,
  payment_date: payments.payment_date,
  created_by: payments.created_by,
  created_at: payments.created_at,
  updated_at: payments.updated_at,
  // Cents in the database, dollars with 2 decimals on the wire: decoded as the row is read.
  amount: decoded(sql`${payments.amount_cents}`, (cents) => toDollars(Number(cents))),
};

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
  return row!;
}

/** One payment the caller may see, or 404. */
export async function getPayment(ctx: AuthedContext, paymentId: number, db: DbOrTx = ctx.db): Promise<Payment> {
  const [row] = await selectPayments(db).where(and(eq(payments.payment_id, paymentId), visibleUsersCondition(ctx.user, payments.user_id)));
  return found(row, 'Payment');
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

/**
 * The list's prepared reads (db/prepared.ts "preparedShapes"): the SQL depends on the caller's kind of scope,
 * which filters are set, the sort and whether a page is asked for; the values go in as placeholders.
 */
type PaymentFilter =
  'user_id' | 'license_id' | 'status' | 'payment_type' | 'payment_method' | 'start_date' | 'end_date' | 'search' | 'updated_since';
interface ListShape {
  scope: ScopeKind;
  filters: PaymentFilter[];
  sort: NonNullable<PaymentListQuery['sort']>;
  order: 'asc' | 'desc';
  paged: boolean;
}

const FILTERS: PaymentFilter[] = [
  'user_id',
  'license_id',
  'status',
  'payment_type',
  'payment_method',
  'start_date',
  'end_date',
  'search',
  'updated_since',
];

/** Newest first unless told otherwise. */
function listShape(ctx: Pick<AuthedContext, 'user'>, q: PaymentListQuery, paged: boolean): ListShape {
  return {
    scope: scopeKind(ctx.user),
    filters: FILTERS.filter((f) => q[f]),
    sort: q.sort ?? 'payment_date',
    order: (q.order ?? (q.sort ? 'asc' : 'desc')) === 'desc' ? 'desc' : 'asc',
    paged,
  };
}

/** The filters' values (not the page or sort: a count kept for one page serves the others). */
function listValues(ctx: Pick<AuthedContext, 'user'>, q: PaymentSummaryQuery): Record<string, unknown> {
  const values: Record<string, unknown> = scopeValues(ctx.user);
  for (const f of FILTERS) values[f] = f === 'search' ? (q.search ? likePattern(q.search) : undefined) : q[f];
  return values;
}

function whereOf(shape: Pick<ListShape, 'scope' | 'filters'>): SQL | undefined {
  const p = sql.placeholder;
  const conds: Array<SQL | undefined> = [visibleUsersPlaceholders(shape.scope, payments.user_id)];
  const has = (f: PaymentFilter) => shape.filters.includes(f);
  if (has('user_id')) conds.push(eq(payments.user_id, p('user_id')));
  if (has('license_id')) conds.push(eq(payments.license_id, p('license_id')));
  if (has('status')) conds.push(eq(payments.status, p('status')));
  if (has('payment_type')) conds.push(eq(payments.payment_type, p('payment_type')));
  if (has('payment_method')) conds.push(eq(payments.payment_method, p('payment_method')));
  if (has('start_date')) conds.push(gte(payments.payment_date, p('start_date')));
  if (has('end_date')) conds.push(lte(payments.payment_date, p('end_date')));
  if (has('updated_since')) conds.push(gt(payments.updated_at, p('updated_since')));
  if (has('search')) {
    const fullName = sql`(${users.first_name} || ' ' || ${users.last_name})`;
    conds.push(or(containsPattern(fullName, p('search')), containsPattern(sql`coalesce(${payments.description}, '')`, p('search'))));
  }
  return and(...conds);
}

const SORTS: Record<NonNullable<PaymentListQuery['sort']>, SQL[]> = {
  payment_date: [sql`${payments.payment_date}`],
  user: personNameOrder(users),
  amount: [sql`${payments.amount_cents}`],
  payment_type: [sql`${payments.payment_type}`],
  payment_method: [sql`${payments.payment_method}`],
  status: [sql`${payments.status}`],
  // No description sorts as '' on both engines (SQLite and PostgreSQL place NULLs differently).
  description: [caseInsensitive(sql`coalesce(${payments.description}, '')`)],
  created_at: [sql`${payments.created_at}`],
};

const listRead = preparedSelect<typeof paymentColumns, ListShape, Record<string, unknown>, Payment[]>(
  'payments_list',
  paymentColumns,
  (select, shape) => {
    const query = select
      .from(payments)
      .innerJoin(users, eq(users.user_id, payments.user_id))
      .leftJoin(licenses, eq(licenses.license_id, payments.license_id))
      .where(whereOf(shape))
      .orderBy(...orderOf(SORTS[shape.sort], shape.order, payments.payment_id));
    return shape.paged ? query.limit(limitPlaceholder()).offset(sql.placeholder('offset')) : query;
  },
);

const pageOrder = (shape: Pick<ListShape, 'sort' | 'order'>): ListOrder => ({
  sort: SORTS[shape.sort],
  order: shape.order,
  id: payments.payment_id,
});

// Each sort selects its own key columns (db/list.ts keyColumns), so each sort is its own prepared read.
const pageRead = perSort((sort: ListShape['sort']) => {
  const columns = { ...paymentColumns, ...keyColumns(pageOrder({ sort, order: 'asc' })) };
  return preparedSelect<typeof columns, ListShape & { cursor: boolean }, Record<string, unknown>, Payment[]>(
    `payments_page_${sort}`,
    columns,
    (select, shape) => {
      const order = pageOrder(shape);
      return select
        .from(payments)
        .innerJoin(users, eq(users.user_id, payments.user_id))
        .leftJoin(licenses, eq(licenses.license_id, payments.license_id))
        .where(shape.cursor ? and(whereOf(shape), afterKey(order, 'placeholders')) : whereOf(shape))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(limitPlaceholder())
        .offset(sql.placeholder('offset'));
    },
  );
});

// The page's total: at most COUNT_CAP + 1 rows read (db/list.ts cappedCount); it depends on the scope and filters
// only: one prepared count and one kept answer (until the database changes) whatever the sort.
const pageCountRead = preparedShapes<Pick<ListShape, 'scope' | 'filters'>, Record<string, unknown>, Array<{ n: number }>>(
  'payments_page_count',
  (d, shape) =>
    cappedCount(
      d,
      d
        .select({ one: sql<number>`1`.as('one') })
        .from(payments)
        .innerJoin(users, eq(users.user_id, payments.user_id))
        .where(whereOf(shape)),
    ),
  { keep: true },
);

/** GET /payments: the matching payments in the caller's scope (a page of them when `limit` is given, else at most UNPAGED_LIST_MAX). */
export async function listPayments(ctx: AuthedContext, q: PaymentListQuery = {}): Promise<Payment[]> {
  const values = listValues(ctx, q);
  if (!q.limit) return listRead(ctx.db, listShape(ctx, q, true), { limit: UNPAGED_LIST_MAX, offset: 0, ...values });
  return listRead(ctx.db, listShape(ctx, q, true), { ...pageWindow(q), ...values });
}

/** GET /payments/page: one page and the pagination, for the screen. */
export async function pagePayments(ctx: AuthedContext, q: PaymentListQuery = {}): Promise<PaymentPage> {
  const values = listValues(ctx, q);
  const shape = { ...listShape(ctx, q, true), cursor: Boolean(q.cursor) };
  const order = pageOrder(shape);
  const { rows, pagination } = await readPage(q, {
    order,
    count: async () => (await pageCountRead(ctx.db, { scope: shape.scope, filters: shape.filters }, values))[0]?.n,
    rows: ({ limit, offset, after }) =>
      pageRead(shape.sort)(ctx.db, shape, after ? { limit, offset, ...keyValues(order, after), ...values } : { limit, offset, ...values }),
  });
  return { payments: rows, pagination };
}

const summaryRead = preparedShapes<Pick<ListShape, 'scope' | 'filters'>, Record<string, unknown>, PaymentSummaryRow[]>(
  'payments_summary',
  (d, shape) => {
    const completedCondition = eq(payments.status, 'Completed');
    return d
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
      .where(whereOf(shape));
  },
  { keep: true },
);
type PaymentSummaryRow = Omit<PaymentSummary, 'total_revenue'> & { revenue_cents: number };

const TOTALS_FILTERS = new Set<PaymentFilter>(['status', 'payment_type', 'payment_method', 'start_date', 'end_date']);

/** GET /payments/summary: revenue is the exact sum of Completed payments' cents; the rest are counts. */
export async function paymentSummary(ctx: Pick<AuthedContext, 'db' | 'user'>, q: PaymentSummaryQuery = {}): Promise<PaymentSummary> {
  const shape = { scope: scopeKind(ctx.user), filters: FILTERS.filter((f) => q[f]) };
  // Every payment, filtered only by what the running totals keep: summed from them (docs/decisions.md "Totals kept as changes happen").
  if (shape.scope === 'all' && shape.filters.every((f) => TOTALS_FILTERS.has(f))) {
    const { revenue_cents, ...counts } = await paymentTotalsOf(ctx.db, q);
    return { total_revenue: toDollars(revenue_cents), ...counts };
  }
  const [row] = await summaryRead(ctx.db, shape, listValues(ctx, q));
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
    await emitEvent(tx, 'payment.recorded', payment);
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
    // If-Match (REST): the payment as GET /payments/{id} answers it, read in this transaction (http/etag.ts).
    await assertIfMatch(ctx, () => getPayment(ctx, payment_id, tx));
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
    await recordDeletion(tx, 'payments', paymentId, old.user_id);
    await audit(tx, ctx.actor, { action: 'delete', table: 'payments', id: paymentId, old });
  });
  return { success: true };
}
