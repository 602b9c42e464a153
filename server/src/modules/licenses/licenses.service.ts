import type { z } from 'zod';
import { and, asc, eq, getTableColumns, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  CE_MESSAGES,
  FORM_ADJUSTMENT_REASON,
  roundHours,
  type ceAdjustInput,
  type CycleFigures,
  type RenewalPreview,
  type Transcript,
  LICENSE_MESSAGES,
  renewalDate,
  roleName,
  type CreateLicenseInput,
  type License,
  type LicenseHolder,
  type LicenseListQuery,
  type LicensePage,
  type LicenseSortColumn,
  ROLE,
  type RenewLicenseInput,
  type UpdateLicenseInput,
  complianceOf,
  COMPLIANCE_STATES,
  licenseStatusOn,
  type ComplianceState,
  type ComplianceSummary,
  type LicenseDefaults,
  type LicenseStatus,
  type TopicMissing,
  PICKER_LIMIT,
  type PickerQueryValues,
  COUNT_CAP,
  SEARCH_COUNT_CAP,
} from '@lm/shared';
import { ceAdjustments, completions, licenseCycles, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { caseInsensitive, notIndexed, countOf, limitPlaceholder, personNameOrder } from '../../db/sql.ts';
import { preparedSelect, preparedShapes, preparedWrite, preparedWriteShapes } from '../../db/prepared.ts';
import {
  licensesMatching,
  peopleMatching,
  licenseSearchFilter,
  licensesMatchingFirst,
  searchPlaceholders,
  searchTerms,
  searchValues,
  type SearchFilter,
} from '../../db/search.ts';
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
import type { Context } from '../../core/context.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { isAgent, isBroker, type AuthUser } from '../../core/identity.ts';
import { audit, type Actor } from '../../core/audit.ts';
import { badRequest, conflict } from '../../base/errors.ts';
import { found, scopeKind, scopeValues, visibleUsersCondition, visibleUsersPlaceholders, type ScopeKind } from '../../core/scope.ts';
import { today } from '../../core/dates.ts';
import { getSettings } from '../../core/settings.ts';
import { cycleFigures, cycleYearsOf, refreshCeCache, ruleFor, transcriptOf } from './ce-ledger.ts';
import {
  atRiskEdge,
  complianceIs,
  complianceRankSql,
  expiringSql,
  hoursRemainingSql,
  LICENSE_COLUMNS,
  statusIs,
  type LicenseColumns,
} from './compliance.sql.ts';
import { assertIfMatch } from '../../http/etag.ts';
import { recordDeletion } from '../deletions/deletions.service.ts';
import { emitEvent } from '../webhooks/events.ts';

type LicenseRow = typeof licenses.$inferSelect;
/** A license as read: `compliance` holds the cached topics still missing until toLicense puts the judgement there. */
type LicenseRead = Omit<License, 'compliance'> & { compliance: TopicMissing[] };

/** A license row as the API shows it: with the holder's names. */
const licenseColumns = {
  license_id: licenses.license_id,
  user_id: licenses.user_id,
  first_name: users.first_name,
  last_name: users.last_name,
  license_number: licenses.license_number,
  state: licenses.state,
  license_type: licenses.license_type,
  issue_date: licenses.issue_date,
  expiration_date: licenses.expiration_date,
  status: licenses.status,
  ce_hours_required: licenses.ce_hours_required,
  ce_hours_completed: licenses.ce_hours_completed,
  cycle_start_date: licenses.cycle_start_date,
  renewed_at: licenses.renewed_at,
  created_at: licenses.created_at,
  updated_at: licenses.updated_at,
  compliance: licenses.ce_topics_missing,
};

/**
 * A license as every answer shows it, on the office's `day`: the status it reads as (an Active license past its
 * date is Expired) and its compliance judgement (shared/src/compliance.ts), the only place either is added.
 */
export function toLicense(row: LicenseRead, day: string = today()): License {
  // In place: the row is this request's own object, and its `compliance` key is already where the answer has it
  // (no copy of every row; docs/performance.md "API throughput").
  const license = row as unknown as License;
  license.compliance = complianceOf(
    {
      expiration_date: row.expiration_date,
      ce_hours_required: row.ce_hours_required,
      ce_hours_completed: row.ce_hours_completed,
      ce_topics_missing: row.compliance,
    },
    day,
  );
  license.status = licenseStatusOn(row.status, row.expiration_date, day);
  return license;
}

/** Who may hold a license: Agents and Brokers. */
export const isLicenseHolderRole = (u: Pick<AuthUser, 'role_id'>) => isAgent(u) || isBroker(u);

const HOLDER_ROLES = [ROLE.Broker, ROLE.Agent];

/**
 * isLicenseHolderRole as a condition on `users`, for the pickers. `inNameOrder`: the read is a first page by name with
 * nothing narrower to start from (no text, no ids). SQLite, which plans without statistics, would then read every
 * holder through users_role_idx and sort them (7.4 ms against 0.03 ms at 100k licenses), so the role is only checked
 * on the rows users_name_idx gives in name order (docs/performance.md "People in name order").
 */
export function licenseHolderCondition(inNameOrder: boolean): SQL {
  return inNameOrder ? inArray(notIndexed(users.role_id), HOLDER_ROLES) : inArray(users.role_id, HOLDER_ROLES);
}

/**
 * The reads of one license that every write and detail view runs, prepared once per kind of scope
 * (db/prepared.ts): with its holder's names, and its stored columns.
 */
const licenseById = preparedSelect<typeof licenseColumns, ScopeKind, Record<string, unknown>, LicenseRead[]>(
  'license_with_holder',
  licenseColumns,
  (select, kind) =>
    select
      .from(licenses)
      .innerJoin(users, eq(users.user_id, licenses.user_id))
      .where(and(eq(licenses.license_id, sql.placeholder('id')), visibleUsersPlaceholders(kind, licenses.user_id))),
);
const storedById = preparedSelect<typeof licenses._.columns, ScopeKind, Record<string, unknown>, LicenseRow[]>(
  'license_stored',
  getTableColumns(licenses),
  (select, kind) =>
    select.from(licenses).where(and(eq(licenses.license_id, sql.placeholder('id')), visibleUsersPlaceholders(kind, licenses.user_id))),
);

/**
 * The one read of a license with its holder's names. With `actor`, only a license in the actor's
 * scope (docs/decisions.md); without, any (after a write whose caller already proved access).
 */
export async function licenseWithHolder(db: DbOrTx, licenseId: number, actor?: AuthUser): Promise<License | undefined> {
  const [row] = actor
    ? await licenseById(db, scopeKind(actor), { id: licenseId, ...scopeValues(actor) })
    : await licenseById(db, 'all', { id: licenseId });
  return row && toLicense(row);
}

/** One license the caller may see, or 404 (GET /licenses/{id}). */
export async function getVisibleLicense(ctx: AuthedContext, licenseId: number, db: DbOrTx = ctx.db): Promise<License> {
  return found(await licenseWithHolder(db, licenseId, ctx.user), 'License');
}

/** The stored columns of a license in the caller's scope (one read: scope check and audit "old"), or 404. */
async function storedVisible(ctx: AuthedContext, db: DbOrTx, licenseId: number): Promise<LicenseRow> {
  const [row] = await storedById(db, scopeKind(ctx.user), { id: licenseId, ...scopeValues(ctx.user) });
  return found(row, 'License');
}

interface Person {
  user_id: number;
  role_id: number;
  first_name: string;
  last_name: string;
}

const personColumns = { user_id: users.user_id, role_id: users.role_id, first_name: users.first_name, last_name: users.last_name };
const personById = preparedSelect<typeof personColumns, ScopeKind, Record<string, unknown>, Person[]>(
  'person_in_scope',
  personColumns,
  (select, kind) =>
    select
      .from(users)
      .where(and(eq(users.user_id, sql.placeholder('id')), isNull(users.deleted_at), visibleUsersPlaceholders(kind, users.user_id))),
);

/** A person the actor may act for: exists, not deleted, in the actor's scope (undefined otherwise). */
export async function personInScope(db: DbOrTx, actor: AuthUser, userId: number): Promise<Person | undefined> {
  const [row] = await personById(db, scopeKind(actor), { id: userId, ...scopeValues(actor) });
  return row;
}

/** personInScope, or 404 'User' (out of scope answers as if it did not exist). */
export async function assertPersonInScope(db: DbOrTx, actor: AuthUser, userId: number): Promise<Person> {
  return found(await personInScope(db, actor, userId), 'User');
}

/**
 * The holder check of licenses, completions and payments: the user exists in the actor's scope (404)
 * and is an Agent or Broker (400 with `message` on user_id). Returns the holder.
 */
export async function assertHolder(
  db: DbOrTx,
  actor: AuthUser,
  userId: number,
  message: string = LICENSE_MESSAGES.holderRole,
): Promise<Person> {
  const holder = await assertPersonInScope(db, actor, userId);
  if (!isLicenseHolderRole(holder)) throw badRequest(message, [{ path: 'user_id', message }]);
  return holder;
}

/** A linked license must exist and be one of `userId`'s own (400 with `message` on license_id). */
export async function assertLicenseOfHolder(
  db: DbOrTx,
  licenseId: number,
  userId: number,
  message: string,
): Promise<{ license_id: number; user_id: number }> {
  const [license] = await db
    .select({ license_id: licenses.license_id, user_id: licenses.user_id })
    .from(licenses)
    .where(eq(licenses.license_id, licenseId));
  if (!license || license.user_id !== userId) throw badRequest(message, [{ path: 'license_id', message }]);
  return license;
}

/**
 * The list's prepared reads (db/prepared.ts "preparedShapes"): the SQL depends on the caller's kind of scope,
 * which filters are set, the sort and whether a page is asked for; the values go in as placeholders.
 */
interface ListShape {
  scope: ScopeKind;
  filters: Array<'state' | 'license_type' | 'user_id' | 'expiring' | SearchFilter | 'updated_since'>;
  /** Few values, each its own SQL (so the (status, expiration_date) index serves the status test). */
  status: LicenseStatus | undefined;
  compliance: ComplianceState | undefined;
  sort: LicenseSortColumn;
  order: 'asc' | 'desc';
  paged: boolean;
  /** Asked by cursor: the rows after a key (db/list.ts afterKey), no OFFSET. */
  cursor: boolean;
}

/** What the list reads of the signed-in context (the dashboard calls it too). */
export type ListCtx = Pick<AuthedContext, 'db' | 'user'>;

/**
 * The shape of a list read; a search's filter (index or scan) is chosen by the search index's probe
 * (db/search.ts licenseSearchFilter), so a rare text reads its few matches and a common one stops early.
 */
async function listShape(ctx: ListCtx, q: LicenseListQuery, paged: boolean): Promise<ListShape> {
  const filters: ListShape['filters'] = [];
  if (q.state) filters.push('state');
  if (q.license_type) filters.push('license_type');
  if (q.user_id) filters.push('user_id');
  if (q.expiring_within !== undefined) filters.push('expiring');
  if (q.search) filters.push(await licenseSearchFilter(ctx.db, q.search));
  if (q.updated_since) filters.push('updated_since');
  return {
    scope: scopeKind(ctx.user),
    filters,
    status: q.status,
    compliance: q.compliance,
    sort: q.sort ?? 'expiration_date',
    order: q.order === 'desc' ? 'desc' : 'asc',
    paged,
    cursor: Boolean(q.cursor),
  };
}

/**
 * The filters' values, then the scope's. Spreads go last in these per-request objects: V8 builds a literal that
 * starts with a spread key by key (2.5-6.5 µs a call against 0.1-0.3 µs; docs/performance.md "API throughput").
 */
function listValues(ctx: ListCtx, q: LicenseListQuery): Record<string, unknown> {
  const day = today();
  return {
    today: day,
    edge: atRiskEdge(day),
    state: q.state,
    license_type: q.license_type,
    user_id: q.user_id,
    to: q.expiring_within === undefined ? undefined : addDays(day, q.expiring_within),
    updated_since: q.updated_since,
    ...searchValues(q.search),
    ...scopeValues(ctx.user),
  };
}

type CountShape = Pick<ListShape, 'scope' | 'filters' | 'status' | 'compliance'>;

/**
 * The compliance columns of a scoped read's conditions: a Broker's or an Agent's licenses are few and are read from
 * the scope (users_brokerage_idx, then licenses_user_idx). Through the (status, expiration_date) index SQLite would
 * read every license of the office in the window and check each against the scope instead (a Broker's expiring count
 * 1.2 → 5.6 → 45 ms at 10k, 100k and 1M licenses). notIndexed leaves PostgreSQL's columns as they are.
 */
const SCOPED_COLUMNS: LicenseColumns = {
  ...LICENSE_COLUMNS,
  status: notIndexed(licenses.status),
  expiration_date: notIndexed(licenses.expiration_date),
};

function whereOf(shape: CountShape): SQL | undefined {
  const p = sql.placeholder;
  const conds: Array<SQL | undefined> = [visibleUsersPlaceholders(shape.scope, licenses.user_id)];
  const has = (f: ListShape['filters'][number]) => shape.filters.includes(f);
  const columns = shape.scope === 'all' ? LICENSE_COLUMNS : SCOPED_COLUMNS;
  if (shape.status) conds.push(statusIs(columns, shape.status, p('today')));
  if (shape.compliance) conds.push(complianceIs(columns, shape.compliance, p('today'), p('edge')));
  if (has('state')) conds.push(eq(licenses.state, p('state')));
  if (has('license_type')) conds.push(eq(licenses.license_type, p('license_type')));
  if (has('user_id')) conds.push(eq(licenses.user_id, p('user_id')));
  if (has('expiring')) conds.push(expiringSql(columns, p('today'), p('to')));
  if (has('updated_since')) conds.push(gt(licenses.updated_at, p('updated_since')));
  for (const f of ['search', 'search_scan', 'search_common'] as const) {
    if (has(f)) conds.push(licensesMatching(licenses.license_id, searchPlaceholders(f), 'any', SEARCHED));
  }
  return and(...conds);
}

/** The list and its count join the holder: a search checks the joined columns (db/search.ts LicenseColumns). */
const SEARCHED = { name: sql`(${users.first_name} || ' ' || ${users.last_name})`, number: licenses.license_number };

const SORTS: Record<LicenseSortColumn, SQL[]> = {
  holder: personNameOrder(users),
  license_number: [caseInsensitive(licenses.license_number)],
  state: [sql`${licenses.state}`],
  license_type: [sql`${licenses.license_type}`],
  issue_date: [sql`${licenses.issue_date}`],
  expiration_date: [sql`${licenses.expiration_date}`],
  status: [sql`${licenses.status}`],
  ce_hours_completed: [sql`${licenses.ce_hours_completed}`],
  created_at: [sql`${licenses.created_at}`],
  compliance: [complianceRankSql(LICENSE_COLUMNS, sql.placeholder('today'), sql.placeholder('edge')), sql`${licenses.expiration_date}`],
  hours_remaining: [hoursRemainingSql(LICENSE_COLUMNS)],
};

const listRead = preparedSelect<typeof licenseColumns, ListShape, Record<string, unknown>, LicenseRead[]>(
  'licenses_list',
  licenseColumns,
  (select, shape) => {
    const query = select
      .from(licenses)
      .innerJoin(users, eq(users.user_id, licenses.user_id))
      .where(whereOf(shape))
      .orderBy(...orderOf(SORTS[shape.sort], shape.order, licenses.license_id));
    return shape.paged ? query.limit(limitPlaceholder()).offset(sql.placeholder('offset')) : query;
  },
);

/**
 * Only a search reads the holder's columns; every other filter and the scope are conditions on the license's own
 * columns, so a count without a search reads licenses alone (an Admin's unfiltered count is then one index scan).
 * A search's page total counts up to SEARCH_COUNT_CAP.
 */
const readsHolder = (shape: CountShape) => shape.filters.some((f) => f === 'search' || f === 'search_scan' || f === 'search_common');

/**
 * An Admin's counts of a common text read the search index's matches (db/search.ts licensesMatchingFirst): the page
 * total up to the cap (1,001 rows read at any size), the compliance summary every match and no other license (at
 * 1M licenses 0.2 s against 4.2 s for "mith" on SQLite). A scoped count reads the scope's licenses.
 */
const countsFromIndex = (shape: CountShape) => shape.scope === 'all' && shape.filters.includes('search_common');

/** `SELECT select` over the matches of countsFromIndex, with the shape's other conditions, as a FROM-able subquery. */
function indexedMatches(shape: CountShape, select: SQL, limit?: number): SQL {
  const others = whereOf({ ...shape, filters: shape.filters.filter((f) => f !== 'search_common') });
  return sql`(${licensesMatchingFirst(select, searchPlaceholders('search'), SEARCHED, others, limit)})`;
}

/** The licenses a count reads: joined to their holders only when the filters read the holder (readsHolder). */
function countedFrom<Q extends { innerJoin(table: typeof users, on: SQL): unknown }>(shape: CountShape, from: Q): Q {
  // The join adds no columns to a count, so the builder keeps its type. The holder is read by its key for each
  // license: SQLite would otherwise walk the people by name and their licenses, and a search's capped count of a
  // common text ("mith") reached its 1,001 matches only at the S's (2 s at 1M licenses, 41 ms this way).
  return readsHolder(shape) ? (from.innerJoin(users, eq(users.user_id, notIndexed(licenses.user_id))) as Q) : from;
}

// A count depends on the scope and filters only: one prepared count and one kept answer whatever the sort.
const countRead = preparedShapes<CountShape, Record<string, unknown>, Array<{ n: number }>>(
  'licenses_count',
  (d, shape) => countedFrom(shape, d.select({ n: countOf() }).from(licenses)).where(whereOf(shape)),
  { keep: true },
);

/** The count of each compliance state in one pass: the rank (complianceRankSql) is the state's place in COMPLIANCE_STATES. */
const complianceCountRead = preparedShapes<CountShape, Record<string, unknown>, Array<{ rank: number; n: number }>>(
  'licenses_compliance_counts',
  (d, shape) => {
    const rank = complianceRankSql(LICENSE_COLUMNS, sql.placeholder('today'), sql.placeholder('edge'));
    if (countsFromIndex(shape)) {
      return d
        .select({ rank: sql<number>`matched.rank`.mapWith(Number), n: countOf() })
        .from(sql`${indexedMatches(shape, sql`${rank} AS rank`)} AS matched`)
        .groupBy(sql`1`);
    }
    return (
      countedFrom(shape, d.select({ rank: sql<number>`${rank}`.mapWith(Number), n: countOf() }).from(licenses))
        .where(whereOf(shape))
        // By position: PostgreSQL takes the rank's placeholders in GROUP BY as other values than the SELECT's.
        .groupBy(sql`1`)
    );
  },
  { keep: true },
);

/** The page's order: the sort's expressions, then the id (db/list.ts ListOrder). */
const pageOrder = (shape: Pick<ListShape, 'sort' | 'order'>): ListOrder => ({
  sort: SORTS[shape.sort],
  order: shape.order,
  id: licenses.license_id,
});

function makePageRead(sort: LicenseSortColumn) {
  // Each sort selects its own key columns (db/list.ts keyColumns), so each sort is its own prepared read.
  const columns = { ...licenseColumns, ...keyColumns(pageOrder({ sort, order: 'asc' })) };
  return preparedSelect<typeof columns, ListShape, Record<string, unknown>, LicenseRead[]>(
    `licenses_page_${sort}`,
    columns,
    (select, shape) => {
      const order = pageOrder(shape);
      return select
        .from(licenses)
        .innerJoin(users, eq(users.user_id, licenses.user_id))
        .where(shape.cursor ? and(whereOf(shape), afterKey(order, 'placeholders')) : whereOf(shape))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(limitPlaceholder())
        .offset(sql.placeholder('offset'));
    },
  );
}
const pageRead = perSort(makePageRead);

// The page's total: at most COUNT_CAP + 1 rows read (db/list.ts cappedCount), kept until the database changes.
const pageCountRead = preparedShapes<CountShape, Record<string, unknown>, Array<{ n: number }>>(
  'licenses_page_count',
  (d, shape) =>
    countsFromIndex(shape)
      ? d.select({ n: countOf() }).from(sql`${indexedMatches(shape, sql`1`, SEARCH_COUNT_CAP + 1)} AS capped`)
      : cappedCount(
          d,
          countedFrom(shape, d.select({ one: sql<number>`1`.as('one') }).from(licenses)).where(whereOf(shape)),
          readsHolder(shape) ? SEARCH_COUNT_CAP : COUNT_CAP,
        ),
  { keep: true },
);

/** GET /licenses: the matching licenses in the caller's scope (a page of them when `limit` is given, else at most UNPAGED_LIST_MAX). */
export async function listLicenses(ctx: ListCtx, q: LicenseListQuery = {}): Promise<License[]> {
  const values = listValues(ctx, q);
  const rows = !q.limit
    ? await listRead(ctx.db, await listShape(ctx, q, true), { limit: UNPAGED_LIST_MAX, offset: 0, ...values })
    : await listRead(ctx.db, await listShape(ctx, q, true), { ...pageWindow(q), ...values });
  return rows.map((r) => toLicense(r, values.today as string));
}

/** GET /licenses/page: one page and the pagination, for the screen's server-side paging. */
export async function pageLicenses(ctx: ListCtx, q: LicenseListQuery = {}): Promise<LicensePage> {
  const values = listValues(ctx, q);
  const shape = await listShape(ctx, q, true);
  const order = pageOrder(shape);
  const { rows, pagination } = await readPage(q, {
    order,
    cap: readsHolder(shape) ? SEARCH_COUNT_CAP : COUNT_CAP,
    count: async () => (await pageCountRead(ctx.db, countShape(shape), values))[0]?.n,
    rows: ({ limit, offset, after }) =>
      pageRead(shape.sort)(ctx.db, shape, after ? { limit, offset, ...keyValues(order, after), ...values } : { limit, offset, ...values }),
  });
  return { licenses: rows.map((r) => toLicense(r, values.today as string)), pagination };
}

const countShape = (s: ListShape): CountShape => ({ scope: s.scope, filters: s.filters, status: s.status, compliance: s.compliance });

/** GET /licenses/compliance-summary: the count of each compliance state under the list's other filters. */
export async function complianceSummary(ctx: ListCtx, q: LicenseListQuery = {}): Promise<ComplianceSummary> {
  const values = listValues(ctx, q);
  const base = await listShape(ctx, { ...q, compliance: undefined }, false);
  const summary = Object.fromEntries(COMPLIANCE_STATES.map((state) => [state, 0])) as ComplianceSummary;
  for (const { rank, n } of await complianceCountRead(ctx.db, countShape(base), values)) summary[COMPLIANCE_STATES[rank]!] = n;
  return summary;
}

/** How many licenses in the caller's scope match the list's filters (the dashboard's counts). */
export async function countLicenses(ctx: ListCtx, q: LicenseListQuery = {}): Promise<number> {
  const [counted] = await countRead(ctx.db, countShape(await listShape(ctx, q, false)), listValues(ctx, q));
  return counted?.n ?? 0;
}

/**
 * The holder picker (GET /licenses/holders): the users the caller may name as a holder, Agents and Brokers in its
 * scope, not deleted, whose name contains `search`, the first `limit` by last and first name; `ids` only those
 * (a form's current holder). docs/decisions.md "Pickers search the server".
 */
export async function listHolders(ctx: AuthedContext, q: PickerQueryValues = { limit: PICKER_LIMIT }): Promise<LicenseHolder[]> {
  const rows = await ctx.db
    .select({
      user_id: users.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      role_id: users.role_id,
      is_active: users.is_active,
    })
    .from(users)
    .where(
      and(
        licenseHolderCondition(!q.search && !q.ids),
        isNull(users.deleted_at),
        visibleUsersCondition(ctx.user, users.user_id),
        q.ids ? inArray(users.user_id, q.ids) : undefined,
        q.search ? peopleMatching(users.user_id, searchTerms(q.search), 'name') : undefined,
      ),
    )
    .orderBy(...personNameOrder(users), users.user_id)
    .limit(q.limit);
  return rows.map(({ role_id, ...u }) => ({ ...u, role_name: roleName(role_id) }));
}

/**
 * A license number is unique within a state, whatever its letter case (409). The unique index
 * licenses_state_number_unique enforces it on create and edit, with no read of the neighbouring numbers first:
 * on PostgreSQL (SERIALIZABLE, page-level predicate locks) such a read made creates of nearby numbers fail each
 * other's commits. Its violation becomes the 409 with the number and state.
 */
function duplicateNumber(err: unknown, state: string, licenseNumber: string): unknown {
  return isUniqueViolation(err, 'licenses_state_number_unique') ? conflict(LICENSE_MESSAGES.duplicate(licenseNumber, state)) : err;
}

function assertDateOrder(issueDate: string, expirationDate: string): void {
  if (issueDate > expirationDate) {
    throw badRequest(LICENSE_MESSAGES.datesOrder, [{ path: 'expiration_date', message: LICENSE_MESSAGES.datesOrder }]);
  }
}

/** The stored columns of a license, for audit entries (its caller already proved access). */
async function stored(db: DbOrTx, licenseId: number): Promise<LicenseRow | undefined> {
  const [row] = await storedById(db, 'all', { id: licenseId });
  return row;
}

/** A license just written in this transaction, with its holder's names. */
async function written(tx: Tx, licenseId: number): Promise<License> {
  return (await licenseWithHolder(tx, licenseId))!;
}

/** Records a signed adjustment of the license's current cycle, audited. Refresh the cache after it. */
async function insertAdjustment(ctx: AuthedContext, tx: Tx, licenseId: number, cycleStart: string, hours: number, reason: string) {
  const [row] = await tx
    .insert(ceAdjustments)
    .values({ license_id: licenseId, cycle_start_date: cycleStart, hours: roundHours(hours), reason, created_by: ctx.user.user_id })
    .returning();
  await audit(tx, ctx.actor, { action: 'create', table: 'ce_adjustments', id: row!.adjustment_id, new: row });
  return row!;
}

/**
 * The license form's "CE hours completed": a number different from the current cycle's sum is recorded
 * as an adjustment for the difference (reason FORM_ADJUSTMENT_REASON), so the sum becomes that number.
 */
async function applyFormHours(ctx: AuthedContext, tx: Tx, licenseId: number, wanted: number | undefined): Promise<void> {
  if (wanted === undefined) return;
  const figures = (await refreshCeCache(tx, licenseId))!;
  const diff = roundHours(wanted - figures.completed);
  if (diff === 0) return;
  await insertAdjustment(ctx, tx, licenseId, figures.start_date, diff, FORM_ADJUSTMENT_REASON);
  await refreshCeCache(tx, licenseId);
}

/** A license row as the API shows it (licenseColumns), its holder's names from `holder`: no read back. */
function withHolder(row: LicenseRow, holder: Pick<Person, 'first_name' | 'last_name'>): License {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(licenseColumns)) {
    out[key] =
      key === 'first_name' || key === 'last_name'
        ? holder[key]
        : key === 'compliance'
          ? row.ce_topics_missing
          : row[key as keyof LicenseRow];
  }
  return toLicense(out as LicenseRead);
}

/**
 * The CE a new license of a state and type starts with: the state rule's hours and topics, else
 * settings.default_ce_hours (docs/decisions.md "Compliance": rules apply from day one).
 */
async function startingCe(ctx: Pick<Context, 'db'>, db: DbOrTx, state: string | undefined, type: LicenseRow['license_type'] | undefined) {
  const rule = state && type ? await ruleFor(db, state, type) : undefined;
  // The settings cache of the database (exact: a settings change bumps it), not a read of the table (and a parse of
  // every setting) in every create's transaction, where getSettings reads afresh.
  const defaults: LicenseDefaults = rule
    ? {
        ce_hours_required: rule.hours_required,
        source: 'rule',
        rule: {
          state: rule.state,
          license_type: rule.license_type,
          hours_required: rule.hours_required,
          cycle_years: rule.cycle_years,
          topics: rule.topics ?? [],
        },
      }
    : { ce_hours_required: (await getSettings(ctx.db)).default_ce_hours, source: 'settings', rule: null };
  return defaults;
}

/**
 * Every create's insert, prepared once per connection (docs/performance.md "API throughput"): every column but the id
 * is a placeholder, so nothing about the statement is built again per call.
 */
const insertLicense = preparedWrite<Omit<LicenseRow, 'license_id' | 'ce_hours_completed' | 'renewed_at'>, LicenseRow[]>(
  'license_insert',
  (d) =>
    d
      .insert(licenses)
      .values({
        user_id: sql.placeholder('user_id'),
        license_number: sql.placeholder('license_number'),
        state: sql.placeholder('state'),
        license_type: sql.placeholder('license_type'),
        issue_date: sql.placeholder('issue_date'),
        expiration_date: sql.placeholder('expiration_date'),
        status: sql.placeholder('status'),
        ce_hours_required: sql.placeholder('ce_hours_required'),
        ce_hours_completed: 0,
        ce_topics_missing: sql.placeholder('ce_topics_missing'),
        ce_topic_hours_missing: sql.placeholder('ce_topic_hours_missing'),
        cycle_start_date: sql.placeholder('cycle_start_date'),
        renewed_at: null,
        created_at: sql.placeholder('created_at'),
        updated_at: sql.placeholder('updated_at'),
      })
      .returning(),
);

export async function createLicense(ctx: AuthedContext, data: CreateLicenseInput): Promise<License> {
  assertDateOrder(data.issue_date, data.expiration_date);
  const { ce_hours_completed, ...fields } = data;
  return ctx.db.transaction(async (tx) => {
    const holder = await assertHolder(tx, ctx.user, data.user_id);
    const start = await startingCe(ctx, tx, data.state, data.license_type);
    const ce_hours_required = data.ce_hours_required ?? start.ce_hours_required;
    // Nothing is earned yet: every topic of the rule is still missing in full.
    const ce_topics_missing = (start.rule?.topics ?? []).map((t) => ({ topic: t.topic, hours: t.hours }));
    const ce_topic_hours_missing = roundHours(ce_topics_missing.reduce((sum, t) => sum + t.hours, 0));
    const now = new Date().toISOString();
    const [row] = await insertLicense(tx, {
      user_id: fields.user_id,
      license_number: fields.license_number,
      state: fields.state,
      license_type: fields.license_type,
      issue_date: fields.issue_date,
      expiration_date: fields.expiration_date,
      status: fields.status,
      ce_hours_required,
      ce_topics_missing,
      ce_topic_hours_missing,
      cycle_start_date: data.issue_date,
      created_at: now,
      updated_at: now,
    }).catch((err: unknown) => {
      throw duplicateNumber(err, data.state, data.license_number);
    });
    await audit(tx, ctx.actor, { action: 'create', table: 'licenses', id: row!.license_id, new: row });
    // A new license has no completions, adjustments or closed cycles yet: its sum is 0 until the form says otherwise.
    if (ce_hours_completed) await applyFormHours(ctx, tx, row!.license_id, ce_hours_completed);
    const license = ce_hours_completed ? await written(tx, row!.license_id) : withHolder(row!, holder);
    await emitEvent(tx, 'license.created', license);
    return license;
  });
}

/**
 * Date edits keep the cycles in step: with no closed cycle the current cycle starts on the issue date
 * (its adjustments move with it); with closed cycles the issue date is the first closed cycle's start,
 * and the expiration date must stay after the current cycle's start.
 */
async function moveCycleStarts(tx: Tx, old: LicenseRow, next: LicenseRow): Promise<Partial<LicenseRow>> {
  const closed = await tx
    .select()
    .from(licenseCycles)
    .where(eq(licenseCycles.license_id, old.license_id))
    .orderBy(asc(licenseCycles.start_date));
  if (closed.length > 0 && next.expiration_date <= old.cycle_start_date) {
    throw badRequest(CE_MESSAGES.expirationBeforeCycle(old.cycle_start_date), [
      { path: 'expiration_date', message: CE_MESSAGES.expirationBeforeCycle(old.cycle_start_date) },
    ]);
  }
  if (next.issue_date === old.issue_date) return {};
  const moveAdjustments = (from: string) =>
    tx
      .update(ceAdjustments)
      .set({ cycle_start_date: next.issue_date })
      .where(and(eq(ceAdjustments.license_id, old.license_id), eq(ceAdjustments.cycle_start_date, from)));
  const first = closed[0];
  if (!first) {
    await moveAdjustments(old.cycle_start_date);
    return { cycle_start_date: next.issue_date };
  }
  if (next.issue_date > first.end_date)
    throw badRequest(LICENSE_MESSAGES.datesOrder, [{ path: 'issue_date', message: LICENSE_MESSAGES.datesOrder }]);
  await moveAdjustments(first.start_date);
  await tx.update(licenseCycles).set({ start_date: next.issue_date }).where(eq(licenseCycles.cycle_id, first.cycle_id));
  return {};
}

/**
 * CE belongs to the person who earned it (docs/decisions.md "Compliance"): a license with completions or
 * adjustments recorded does not change holder (409 saying what to do instead).
 */
async function assertNoCeForHolderChange(tx: Tx, old: LicenseRow): Promise<void> {
  const [comps] = await tx.select({ n: countOf() }).from(completions).where(eq(completions.license_id, old.license_id));
  const [adjs] = await tx.select({ n: countOf() }).from(ceAdjustments).where(eq(ceAdjustments.license_id, old.license_id));
  const n = (comps?.n ?? 0) + (adjs?.n ?? 0);
  if (n === 0) return;
  const [holder] = await tx
    .select({ first_name: users.first_name, last_name: users.last_name })
    .from(users)
    .where(eq(users.user_id, old.user_id));
  const message = LICENSE_MESSAGES.holderHasCe(holder ? `${holder.first_name} ${holder.last_name}` : 'its holder');
  throw conflict(message);
}

/**
 * An edit's UPDATE, prepared once per set of columns it changes (the shape: their names, sorted and joined by commas;
 * docs/performance.md "API throughput"); `updated_at` is a placeholder, as its `$onUpdateFn` would run only once.
 */
const updateLicenseRow = preparedWriteShapes<string, Record<string, unknown>, LicenseRow[]>('license_update', (d, shape) =>
  d
    .update(licenses)
    // Bound as given (the columns an edit sets are text and numbers; no JSON column is among them).
    .set({
      ...Object.fromEntries(shape.split(',').map((column) => [column, sql`${sql.placeholder(column)}`])),
      updated_at: sql`${sql.placeholder('updated_at')}`,
    })
    .where(eq(licenses.license_id, sql.placeholder('license_id')))
    .returning(),
);

export async function updateLicense(ctx: AuthedContext, input: UpdateLicenseInput): Promise<License> {
  const { id: license_id, ce_hours_completed, ...patch } = input;
  return ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, license_id);
    // If-Match (REST): the license as GET /licenses/{id} answers it, compared in this transaction (http/etag.ts).
    await assertIfMatch(ctx, () => getVisibleLicense(ctx, license_id, tx));
    const next = { ...old, ...patch };
    if (patch.user_id !== undefined && patch.user_id !== old.user_id) {
      await assertHolder(tx, ctx.user, patch.user_id);
      await assertNoCeForHolderChange(tx, old);
    }
    assertDateOrder(next.issue_date, next.expiration_date);
    // Only the dates bound the cycles: an edit that keeps them leaves the cycles and the CE sum as they are.
    const datesMoved = next.issue_date !== old.issue_date || next.expiration_date !== old.expiration_date;
    // Another state or type is another rule: the current cycle's topics follow it.
    const ruleMoved = next.state !== old.state || next.license_type !== old.license_type;
    const changes = { ...patch, ...(datesMoved ? await moveCycleStarts(tx, old, next) : {}) };
    let after = old;
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    const columns = (Object.keys(changes) as Array<keyof typeof changes>).filter((c) => changes[c] !== undefined).sort();
    if (columns.length > 0) {
      [after] = (await updateLicenseRow(tx, columns.join(','), {
        ...changes,
        license_id,
        updated_at: new Date().toISOString(),
      }).catch((err: unknown) => {
        throw duplicateNumber(err, next.state, next.license_number);
      })) as [LicenseRow];
    }
    // Dates may move completions in or out of the cycle: the cache follows (409 if a cycle went below 0).
    if (datesMoved || ruleMoved) await refreshCeCache(tx, license_id);
    await applyFormHours(ctx, tx, license_id, ce_hours_completed);
    const cacheMayMove = datesMoved || ruleMoved || ce_hours_completed !== undefined;
    await audit(tx, ctx.actor, {
      action: 'update',
      table: 'licenses',
      id: license_id,
      old,
      new: cacheMayMove ? await stored(tx, license_id) : after,
    });
    const license = await written(tx, license_id);
    await emitEvent(tx, 'license.updated', license);
    return license;
  });
}

export async function deleteLicense(ctx: AuthedContext, licenseId: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, licenseId);
    // Its adjustments and closed cycles go with it (ON DELETE CASCADE); completions stay, unlinked.
    await tx.delete(licenses).where(eq(licenses.license_id, licenseId));
    await recordDeletion(tx, 'licenses', licenseId, old.user_id);
    await audit(tx, ctx.actor, { action: 'delete', table: 'licenses', id: licenseId, old });
  });
  return { success: true };
}

/** POST /licenses/{id}/adjustments: a signed change of the current cycle's hours, with a reason (409 below 0). */
export async function adjustLicense(ctx: AuthedContext, input: z.output<typeof ceAdjustInput>): Promise<License> {
  return ctx.db.transaction(async (tx) => {
    await storedVisible(ctx, tx, input.id);
    // The current figures are read inside the transaction that adjusts them.
    const figures = (await refreshCeCache(tx, input.id))!;
    const hours = roundHours(input.hours);
    if (roundHours(figures.completed + hours) < 0) throw conflict(CE_MESSAGES.belowZero(figures.completed, hours));
    const before = figures.completed;
    await insertAdjustment(ctx, tx, input.id, figures.start_date, hours, input.reason);
    const after = (await refreshCeCache(tx, input.id))!;
    await audit(tx, ctx.actor, {
      action: 'update_ce_hours',
      table: 'licenses',
      id: input.id,
      old: { ce_hours_completed: before },
      new: { ce_hours_completed: after.completed, adjustment: hours, reason: input.reason },
    });
    return written(tx, input.id);
  });
}

export interface RenewalPlan {
  old: LicenseRow;
  figures: CycleFigures;
  rule: Awaited<ReturnType<typeof ruleFor>>;
  cycleYears: number;
  newExpiration: string;
  nextRequired: number;
}

export async function planRenewal(db: DbOrTx, old: LicenseRow, expiration?: string): Promise<RenewalPlan> {
  const figures = (await cycleFigures(db, old.license_id))!;
  const rule = await ruleFor(db, old.state, old.license_type);
  const cycleYears = cycleYearsOf(rule);
  return {
    old,
    figures,
    rule,
    cycleYears,
    newExpiration: expiration ?? renewalDate(old.expiration_date, cycleYears),
    nextRequired: rule?.hours_required ?? old.ce_hours_required,
  };
}

/**
 * Closes the current cycle into license_cycles and opens the next: from the old expiration date to the
 * new one, required hours from the state rule (else the license's own). Shared by Renew and auto-renewal.
 * `plan` must have been made with `tx` (the figures it closes are the transaction's).
 */
export async function applyRenewal(
  tx: Tx,
  actor: Actor,
  plan: RenewalPlan,
  opts: { status: LicenseRow['status']; outstanding: boolean; reason: string },
): Promise<void> {
  const { old, figures } = plan;
  if (plan.newExpiration <= old.expiration_date) {
    const message = `The new expiration date must be after the current one (${old.expiration_date})`;
    throw badRequest(message, [{ path: 'expiration_date', message }]);
  }
  if (old.cycle_start_date >= old.expiration_date) {
    throw conflict(CE_MESSAGES.expirationBeforeCycle(old.cycle_start_date));
  }
  const [cycle] = await tx
    .insert(licenseCycles)
    .values({
      license_id: old.license_id,
      start_date: old.cycle_start_date,
      end_date: old.expiration_date,
      required: figures.required,
      completed: figures.completed,
      topics: figures.topics,
      rule: figures.rule,
      closed_by: actor.userId,
      renewed_with_ce_outstanding: opts.outstanding,
    })
    .returning();
  await audit(tx, actor, {
    action: 'close_cycle',
    table: 'license_cycles',
    id: cycle!.cycle_id,
    new: { ...cycle, complete: figures.complete },
  });
  const renewedAt = new Date().toISOString();
  await tx
    .update(licenses)
    .set({
      cycle_start_date: old.expiration_date,
      expiration_date: plan.newExpiration,
      ce_hours_required: plan.nextRequired,
      status: opts.status,
      renewed_at: renewedAt,
    })
    .where(eq(licenses.license_id, old.license_id));
  const next = (await refreshCeCache(tx, old.license_id))!;
  await audit(tx, actor, {
    action: 'update',
    table: 'licenses',
    id: old.license_id,
    old: {
      expiration_date: old.expiration_date,
      status: old.status,
      cycle_start_date: old.cycle_start_date,
      ce_hours_required: old.ce_hours_required,
      ce_hours_completed: figures.completed,
    },
    new: {
      expiration_date: plan.newExpiration,
      status: opts.status,
      renewed_at: renewedAt,
      cycle_start_date: old.expiration_date,
      ce_hours_required: plan.nextRequired,
      ce_hours_completed: next.completed,
      closed_cycle_id: cycle!.cycle_id,
      reason: opts.reason,
    },
  });
  await emitEvent(tx, 'license.renewed', () => written(tx, old.license_id));
}

/**
 * The status a renewal leaves when the body names none: a Suspended license stays Suspended (a renewal does not
 * lift a suspension; docs/decisions.md "Compliance"), any other becomes Active.
 */
export function renewedStatus(status: LicenseStatus): LicenseStatus {
  return status === 'Suspended' ? 'Suspended' : 'Active';
}

/**
 * Renew: closes the current cycle and opens the next (status Active and expiration one cycle after the
 * current one, unless the body names them). With the cycle's CE outstanding it answers 409 and changes
 * nothing, unless allow_incomplete (audited as renew_ce_outstanding). The license and its figures are
 * read inside the renewing transaction, so two concurrent renewals close one cycle each, in turn.
 */
export async function renewLicense(ctx: AuthedContext, input: RenewLicenseInput): Promise<License> {
  const { id: license_id, ...body } = input;
  return ctx.db.transaction(async (tx) => {
    const old = await storedVisible(ctx, tx, license_id);
    const plan = await planRenewal(tx, old, body.expiration_date);
    const outstanding = !plan.figures.complete;
    if (outstanding && body.allow_incomplete !== true) {
      throw conflict(CE_MESSAGES.incomplete(plan.figures.completed, plan.figures.required));
    }
    await applyRenewal(tx, ctx.actor, plan, {
      status: body.status ?? renewedStatus(old.status),
      outstanding,
      reason: outstanding ? 'renew_ce_outstanding' : 'renew',
    });
    return written(tx, license_id);
  });
}

/** GET /licenses/{id}/renewal-preview: what Renew would do, for its confirmation. */
export async function renewalPreview(ctx: AuthedContext, licenseId: number): Promise<RenewalPreview> {
  const old = await storedVisible(ctx, ctx.db, licenseId);
  const plan = await planRenewal(ctx.db, old);
  return {
    license_id: licenseId,
    current_expiration_date: old.expiration_date,
    new_expiration_date: plan.newExpiration,
    cycle_years: plan.cycleYears,
    required: plan.figures.required,
    completed: plan.figures.completed,
    remaining: plan.figures.remaining,
    complete: plan.figures.complete,
    outstanding_topics: plan.figures.topics.filter((t) => t.remaining > 0).map((t) => ({ topic: t.topic, remaining: t.remaining })),
    next_required: plan.nextRequired,
  };
}

/** GET /licenses/{id}/transcript: the current cycle and every closed one with their sources. */
export async function getTranscript(ctx: AuthedContext, licenseId: number): Promise<Transcript> {
  const license = await getVisibleLicense(ctx, licenseId);
  return { license, ...(await transcriptOf(ctx.db, licenseId))! };
}

/** What the license form starts with for a state and type: the state rule's hours and topics, else settings.default_ce_hours. */
export function licenseDefaults(
  ctx: Pick<Context, 'db'>,
  input?: { state?: string; license_type?: LicenseRow['license_type'] },
): Promise<LicenseDefaults> {
  return startingCe(ctx, ctx.db, input?.state, input?.license_type);
}
