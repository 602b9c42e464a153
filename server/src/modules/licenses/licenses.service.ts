import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  LICENSE_MESSAGES,
  renewalDate,
  roleName,
  type CreateLicenseInput,
  type License,
  type LicenseHolder,
  type LicenseListQuery,
  type LicensePage,
  type LicenseSortColumn,
  makePagination,
  ROLE,
  type RenewLicenseInput,
  type UpdateLicenseInput,
} from '@lm/shared';
import { licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { found, visibleUsersCondition } from '../../core/scope.ts';
import { today } from '../../core/dates.ts';
import { getSettings } from '../../core/settings.ts';

/** The context of a signed-in caller (what authedProcedure hands on). */
export type AuthedContext = Context & { user: AuthUser };

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
  renewed_at: licenses.renewed_at,
  created_at: licenses.created_at,
  updated_at: licenses.updated_at,
};

const HOLDER_ROLES = [ROLE.Broker, ROLE.Agent];

/** `column LIKE %text%`, with the user's % and _ taken literally. */
function containsText(column: SQL, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

function selectLicenses(db: DbOrTx) {
  return db.select(licenseColumns).from(licenses).innerJoin(users, eq(users.user_id, licenses.user_id));
}

/** One license by id, without a scope check (after a write the caller already proved access). */
function byId(db: DbOrTx, licenseId: number): License | undefined {
  return selectLicenses(db).where(eq(licenses.license_id, licenseId)).get();
}

/** One license the caller may see, or 404. */
export function getVisibleLicense(ctx: AuthedContext, licenseId: number, db: DbOrTx = ctx.db): License {
  const row = selectLicenses(db)
    .where(and(eq(licenses.license_id, licenseId), visibleUsersCondition(ctx.user, licenses.user_id)))
    .get();
  return found(row, 'License');
}

function whereOf(ctx: AuthedContext, q: LicenseListQuery): SQL | undefined {
  const conds: Array<SQL | undefined> = [visibleUsersCondition(ctx.user, licenses.user_id)];
  if (q.status) conds.push(eq(licenses.status, q.status));
  if (q.state) conds.push(eq(licenses.state, q.state));
  if (q.license_type) conds.push(eq(licenses.license_type, q.license_type));
  if (q.user_id) conds.push(eq(licenses.user_id, q.user_id));
  if (q.expiring_within !== undefined) {
    const from = today();
    conds.push(gte(licenses.expiration_date, from), lte(licenses.expiration_date, addDays(from, q.expiring_within)));
  }
  if (q.search) {
    const fullName = sql`(${users.first_name} || ' ' || ${users.last_name})`;
    conds.push(sql`(${containsText(fullName, q.search)} OR ${containsText(sql`${licenses.license_number}`, q.search)})`);
  }
  return and(...conds);
}

const SORTS: Record<LicenseSortColumn, SQL[]> = {
  holder: [sql`${users.last_name} COLLATE NOCASE`, sql`${users.first_name} COLLATE NOCASE`],
  license_number: [sql`${licenses.license_number} COLLATE NOCASE`],
  state: [sql`${licenses.state}`],
  license_type: [sql`${licenses.license_type}`],
  issue_date: [sql`${licenses.issue_date}`],
  expiration_date: [sql`${licenses.expiration_date}`],
  status: [sql`${licenses.status}`],
  ce_hours_completed: [sql`${licenses.ce_hours_completed}`],
  created_at: [sql`${licenses.created_at}`],
};

function orderOf(q: LicenseListQuery): SQL[] {
  const dir = q.order === 'desc' ? desc : asc;
  return [...SORTS[q.sort ?? 'expiration_date'].map((c) => dir(c)), dir(licenses.license_id)];
}

/** GET /licenses: every matching license in the caller's scope (a page of them when `limit` is given). */
export function listLicenses(ctx: AuthedContext, q: LicenseListQuery = {}): License[] {
  const query = selectLicenses(ctx.db)
    .where(whereOf(ctx, q))
    .orderBy(...orderOf(q));
  if (!q.limit) return query.all();
  return query
    .limit(q.limit)
    .offset(((q.page ?? 1) - 1) * q.limit)
    .all();
}

export const DEFAULT_PAGE_SIZE = 20;

/** GET /licenses/page: one page and the pagination, for the screen's server-side paging. */
export function pageLicenses(ctx: AuthedContext, q: LicenseListQuery = {}): LicensePage {
  const page = q.page ?? 1;
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const where = whereOf(ctx, q);
  const total =
    ctx.db.select({ n: count() }).from(licenses).innerJoin(users, eq(users.user_id, licenses.user_id)).where(where).get()?.n ?? 0;
  const rows = selectLicenses(ctx.db)
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  return { licenses: rows, pagination: makePagination(page, limit, total) };
}

/** The users the caller may name as a holder: Agents and Brokers in its scope, not deleted. */
export function listHolders(ctx: AuthedContext): LicenseHolder[] {
  return ctx.db
    .select({
      user_id: users.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      role_id: users.role_id,
      is_active: users.is_active,
    })
    .from(users)
    .where(and(inArray(users.role_id, HOLDER_ROLES), isNull(users.deleted_at), visibleUsersCondition(ctx.user, users.user_id)))
    .orderBy(sql`${users.last_name} COLLATE NOCASE`, sql`${users.first_name} COLLATE NOCASE`, users.user_id)
    .all()
    .map(({ role_id, ...u }) => ({ ...u, role_name: roleName(role_id) }));
}

/** The holder must exist in the caller's scope (404) and be an Agent or Broker (400). */
function assertHolder(ctx: AuthedContext, db: DbOrTx, userId: number): void {
  const holder = db
    .select({ role_id: users.role_id })
    .from(users)
    .where(and(eq(users.user_id, userId), isNull(users.deleted_at), visibleUsersCondition(ctx.user, users.user_id)))
    .get();
  if (!holder) throw notFound('User');
  if (!HOLDER_ROLES.includes(holder.role_id as (typeof HOLDER_ROLES)[number])) {
    throw badRequest(LICENSE_MESSAGES.holderRole, [{ path: 'user_id', message: LICENSE_MESSAGES.holderRole }]);
  }
}

/** A license number is unique within a state, whatever its letter case (409). */
function assertUniqueNumber(db: DbOrTx, state: string, licenseNumber: string, exceptId?: number): void {
  const clash = db
    .select({ id: licenses.license_id })
    .from(licenses)
    .where(
      and(
        eq(licenses.state, state),
        sql`upper(${licenses.license_number}) = upper(${licenseNumber})`,
        exceptId === undefined ? undefined : ne(licenses.license_id, exceptId),
      ),
    )
    .get();
  if (clash) throw conflict(LICENSE_MESSAGES.duplicate(licenseNumber, state));
}

function assertDateOrder(issueDate: string, expirationDate: string): void {
  if (issueDate > expirationDate) {
    throw badRequest(LICENSE_MESSAGES.datesOrder, [{ path: 'expiration_date', message: LICENSE_MESSAGES.datesOrder }]);
  }
}

/** The stored columns of a license, for audit entries. */
function stored(db: DbOrTx, licenseId: number) {
  return db.select().from(licenses).where(eq(licenses.license_id, licenseId)).get();
}

export function createLicense(ctx: AuthedContext, data: CreateLicenseInput): License {
  assertDateOrder(data.issue_date, data.expiration_date);
  return ctx.db.transaction((tx) => {
    assertHolder(ctx, tx, data.user_id);
    assertUniqueNumber(tx, data.state, data.license_number);
    const ce_hours_required = data.ce_hours_required ?? getSettings(ctx.db).default_ce_hours;
    const row = tx
      .insert(licenses)
      .values({ ...data, ce_hours_required })
      .returning()
      .get();
    audit(tx, ctx.actor, { action: 'create', table: 'licenses', id: row.license_id, new: row });
    return byId(tx, row.license_id)!;
  });
}

export function updateLicense(ctx: AuthedContext, input: UpdateLicenseInput): License {
  const { id: license_id, ...patch } = input;
  return ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, license_id, tx);
    const old = stored(tx, license_id)!;
    const next = { ...old, ...patch };
    if (patch.user_id !== undefined && patch.user_id !== old.user_id) assertHolder(ctx, tx, patch.user_id);
    if (next.state !== old.state || next.license_number.toUpperCase() !== old.license_number.toUpperCase()) {
      assertUniqueNumber(tx, next.state, next.license_number, license_id);
    }
    assertDateOrder(next.issue_date, next.expiration_date);
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    const row =
      Object.keys(patch).length > 0 ? tx.update(licenses).set(patch).where(eq(licenses.license_id, license_id)).returning().get() : old;
    audit(tx, ctx.actor, { action: 'update', table: 'licenses', id: license_id, old, new: row });
    return byId(tx, license_id)!;
  });
}

export function deleteLicense(ctx: AuthedContext, licenseId: number): { success: true } {
  ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, licenseId, tx);
    const old = stored(tx, licenseId)!;
    tx.delete(licenses).where(eq(licenses.license_id, licenseId)).run();
    audit(tx, ctx.actor, { action: 'delete', table: 'licenses', id: licenseId, old });
  });
  return { success: true };
}

/**
 * Renew: status Active and expiration two years after the current one, unless the body names
 * them. Records renewed_at (the reports' "Renewed This Period").
 */
export function renewLicense(ctx: AuthedContext, input: RenewLicenseInput): License {
  const { id: license_id, ...body } = input;
  return ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, license_id, tx);
    const old = stored(tx, license_id)!;
    const expiration_date = body.expiration_date ?? renewalDate(old.expiration_date);
    assertDateOrder(old.issue_date, expiration_date);
    const row = tx
      .update(licenses)
      .set({ expiration_date, status: body.status ?? 'Active', renewed_at: new Date().toISOString() })
      .where(eq(licenses.license_id, license_id))
      .returning()
      .get();
    audit(tx, ctx.actor, {
      action: 'update',
      table: 'licenses',
      id: license_id,
      old: { expiration_date: old.expiration_date, status: old.status },
      new: { expiration_date: row.expiration_date, status: row.status, renewed_at: row.renewed_at, reason: 'renew' },
    });
    return byId(tx, license_id)!;
  });
}

/** What the license form starts with: CE hours required from settings.default_ce_hours. */
export function licenseDefaults(ctx: Pick<Context, 'db'>): { ce_hours_required: number } {
  return { ce_hours_required: getSettings(ctx.db).default_ce_hours };
}
