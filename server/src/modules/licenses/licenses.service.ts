import type { z } from 'zod';
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
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
  makePagination,
  ROLE,
  type RenewLicenseInput,
  type UpdateLicenseInput,
} from '@lm/shared';
import { ceAdjustments, licenseCycles, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { audit, type Actor } from '../../core/audit.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { found, visibleUsersCondition } from '../../core/scope.ts';
import { today } from '../../core/dates.ts';
import { getSettings } from '../../core/settings.ts';
import { cycleFigures, cycleYearsOf, refreshCeCache, ruleFor, transcriptOf } from './ce-ledger.ts';

type LicenseRow = typeof licenses.$inferSelect;

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
  cycle_start_date: licenses.cycle_start_date,
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

/** Records a signed adjustment of the license's current cycle, audited. Refresh the cache after it. */
function insertAdjustment(ctx: AuthedContext, tx: DbOrTx, licenseId: number, cycleStart: string, hours: number, reason: string) {
  const row = tx
    .insert(ceAdjustments)
    .values({ license_id: licenseId, cycle_start_date: cycleStart, hours: roundHours(hours), reason, created_by: ctx.user.user_id })
    .returning()
    .get();
  audit(tx, ctx.actor, { action: 'create', table: 'ce_adjustments', id: row.adjustment_id, new: row });
  return row;
}

/**
 * The license form's "CE hours completed": a number different from the current cycle's sum is recorded
 * as an adjustment for the difference (reason FORM_ADJUSTMENT_REASON), so the sum becomes that number.
 */
function applyFormHours(ctx: AuthedContext, tx: DbOrTx, licenseId: number, wanted: number | undefined): void {
  if (wanted === undefined) return;
  const figures = refreshCeCache(tx, licenseId)!;
  const diff = roundHours(wanted - figures.completed);
  if (diff === 0) return;
  insertAdjustment(ctx, tx, licenseId, figures.start_date, diff, FORM_ADJUSTMENT_REASON);
  refreshCeCache(tx, licenseId);
}

export function createLicense(ctx: AuthedContext, data: CreateLicenseInput): License {
  assertDateOrder(data.issue_date, data.expiration_date);
  const { ce_hours_completed, ...fields } = data;
  return ctx.db.transaction((tx) => {
    assertHolder(ctx, tx, data.user_id);
    assertUniqueNumber(tx, data.state, data.license_number);
    const ce_hours_required = data.ce_hours_required ?? getSettings(ctx.db).default_ce_hours;
    const row = tx
      .insert(licenses)
      .values({ ...fields, ce_hours_required, ce_hours_completed: 0, cycle_start_date: data.issue_date })
      .returning()
      .get();
    audit(tx, ctx.actor, { action: 'create', table: 'licenses', id: row.license_id, new: row });
    applyFormHours(ctx, tx, row.license_id, ce_hours_completed);
    return byId(tx, row.license_id)!;
  });
}

/**
 * Date edits keep the cycles in step: with no closed cycle the current cycle starts on the issue date
 * (its adjustments move with it); with closed cycles the issue date is the first closed cycle's start,
 * and the expiration date must stay after the current cycle's start.
 */
function moveCycleStarts(tx: DbOrTx, old: LicenseRow, next: LicenseRow): Partial<LicenseRow> {
  const closed = tx
    .select()
    .from(licenseCycles)
    .where(eq(licenseCycles.license_id, old.license_id))
    .orderBy(asc(licenseCycles.start_date))
    .all();
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
      .where(and(eq(ceAdjustments.license_id, old.license_id), eq(ceAdjustments.cycle_start_date, from)))
      .run();
  const first = closed[0];
  if (!first) {
    moveAdjustments(old.cycle_start_date);
    return { cycle_start_date: next.issue_date };
  }
  if (next.issue_date > first.end_date)
    throw badRequest(LICENSE_MESSAGES.datesOrder, [{ path: 'issue_date', message: LICENSE_MESSAGES.datesOrder }]);
  moveAdjustments(first.start_date);
  tx.update(licenseCycles).set({ start_date: next.issue_date }).where(eq(licenseCycles.cycle_id, first.cycle_id)).run();
  return {};
}

export function updateLicense(ctx: AuthedContext, input: UpdateLicenseInput): License {
  const { id: license_id, ce_hours_completed, ...patch } = input;
  return ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, license_id, tx);
    const old = stored(tx, license_id)!;
    const next = { ...old, ...patch };
    if (patch.user_id !== undefined && patch.user_id !== old.user_id) assertHolder(ctx, tx, patch.user_id);
    if (next.state !== old.state || next.license_number.toUpperCase() !== old.license_number.toUpperCase()) {
      assertUniqueNumber(tx, next.state, next.license_number, license_id);
    }
    assertDateOrder(next.issue_date, next.expiration_date);
    const changes = { ...patch, ...moveCycleStarts(tx, old, next) };
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    if (Object.keys(changes).length > 0) tx.update(licenses).set(changes).where(eq(licenses.license_id, license_id)).run();
    // Dates may move completions in or out of the cycle: the cache follows (409 if a cycle went below 0).
    refreshCeCache(tx, license_id);
    applyFormHours(ctx, tx, license_id, ce_hours_completed);
    audit(tx, ctx.actor, { action: 'update', table: 'licenses', id: license_id, old, new: stored(tx, license_id) });
    return byId(tx, license_id)!;
  });
}

export function deleteLicense(ctx: AuthedContext, licenseId: number): { success: true } {
  ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, licenseId, tx);
    const old = stored(tx, licenseId)!;
    // Its adjustments and closed cycles go with it (ON DELETE CASCADE); completions stay, unlinked.
    tx.delete(licenses).where(eq(licenses.license_id, licenseId)).run();
    audit(tx, ctx.actor, { action: 'delete', table: 'licenses', id: licenseId, old });
  });
  return { success: true };
}

/** POST /licenses/{id}/adjustments: a signed change of the current cycle's hours, with a reason (409 below 0). */
export function adjustLicense(ctx: AuthedContext, input: z.output<typeof ceAdjustInput>): License {
  return ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, input.id, tx);
    const figures = refreshCeCache(tx, input.id)!;
    const hours = roundHours(input.hours);
    if (roundHours(figures.completed + hours) < 0) throw conflict(CE_MESSAGES.belowZero(figures.completed, hours));
    const before = figures.completed;
    insertAdjustment(ctx, tx, input.id, figures.start_date, hours, input.reason);
    const after = refreshCeCache(tx, input.id)!;
    audit(tx, ctx.actor, {
      action: 'update_ce_hours',
      table: 'licenses',
      id: input.id,
      old: { ce_hours_completed: before },
      new: { ce_hours_completed: after.completed, adjustment: hours, reason: input.reason },
    });
    return byId(tx, input.id)!;
  });
}

export interface RenewalPlan {
  old: LicenseRow;
  figures: CycleFigures;
  rule: ReturnType<typeof ruleFor>;
  cycleYears: number;
  newExpiration: string;
  nextRequired: number;
}

export function planRenewal(db: DbOrTx, old: LicenseRow, expiration?: string): RenewalPlan {
  const figures = cycleFigures(db, old.license_id)!;
  const rule = ruleFor(db, old.state, old.license_type);
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
 */
export function applyRenewal(
  tx: DbOrTx,
  actor: Actor,
  plan: RenewalPlan,
  opts: { status: LicenseRow['status']; outstanding: boolean; reason: string },
): void {
  const { old, figures } = plan;
  if (plan.newExpiration <= old.expiration_date) {
    const message = `The new expiration date must be after the current one (${old.expiration_date})`;
    throw badRequest(message, [{ path: 'expiration_date', message }]);
  }
  if (old.cycle_start_date >= old.expiration_date) {
    throw conflict(CE_MESSAGES.expirationBeforeCycle(old.cycle_start_date));
  }
  const cycle = tx
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
    .returning()
    .get();
  audit(tx, actor, { action: 'close_cycle', table: 'license_cycles', id: cycle.cycle_id, new: { ...cycle, complete: figures.complete } });
  const renewedAt = new Date().toISOString();
  tx.update(licenses)
    .set({
      cycle_start_date: old.expiration_date,
      expiration_date: plan.newExpiration,
      ce_hours_required: plan.nextRequired,
      status: opts.status,
      renewed_at: renewedAt,
    })
    .where(eq(licenses.license_id, old.license_id))
    .run();
  const next = refreshCeCache(tx, old.license_id)!;
  audit(tx, actor, {
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
      closed_cycle_id: cycle.cycle_id,
      reason: opts.reason,
    },
  });
}

/**
 * Renew: closes the current cycle and opens the next (status Active and expiration one cycle after the
 * current one, unless the body names them). With the cycle's CE outstanding it answers 409 and changes
 * nothing, unless allow_incomplete (audited as renew_ce_outstanding).
 */
export function renewLicense(ctx: AuthedContext, input: RenewLicenseInput): License {
  const { id: license_id, ...body } = input;
  return ctx.db.transaction((tx) => {
    getVisibleLicense(ctx, license_id, tx);
    const old = stored(tx, license_id)!;
    const plan = planRenewal(tx, old, body.expiration_date);
    const outstanding = !plan.figures.complete;
    if (outstanding && body.allow_incomplete !== true) {
      throw conflict(CE_MESSAGES.incomplete(plan.figures.completed, plan.figures.required));
    }
    applyRenewal(tx, ctx.actor, plan, {
      status: body.status ?? 'Active',
      outstanding,
      reason: outstanding ? 'renew_ce_outstanding' : 'renew',
    });
    return byId(tx, license_id)!;
  });
}

/** GET /licenses/{id}/renewal-preview: what Renew would do, for its confirmation. */
export function renewalPreview(ctx: AuthedContext, licenseId: number): RenewalPreview {
  getVisibleLicense(ctx, licenseId);
  const old = stored(ctx.db, licenseId)!;
  const plan = planRenewal(ctx.db, old);
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
export function getTranscript(ctx: AuthedContext, licenseId: number): Transcript {
  const license = getVisibleLicense(ctx, licenseId);
  return { license, ...transcriptOf(ctx.db, licenseId)! };
}

/** What the license form starts with: CE hours required from settings.default_ce_hours. */
export function licenseDefaults(ctx: Pick<Context, 'db'>): { ce_hours_required: number } {
  return { ce_hours_required: getSettings(ctx.db).default_ce_hours };
}
