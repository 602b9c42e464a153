import { and, asc, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import {
  CE_MESSAGES,
  COMPLETION_MESSAGES,
  roundHours,
  type Completion,
  type CompletionLicenseOption,
  type completionCreateInput,
  type completionListQuery,
  type completionReviewInput,
} from '@lm/shared';
import type { z } from 'zod';
import { completions, courses, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { today } from '../../core/dates.ts';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.ts';
import { found, isAdmin, isAgent, isSchool, visibleUsersCondition } from '../../core/scope.ts';
import { cycleContaining, ledgerOf, refreshCeCache } from '../licenses/ce-ledger.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { notifyCourseCompleted } from '../notifications/events.ts';

type Ctx = Context & { user: AuthUser };

/**
 * Who sees which completions (docs/decisions.md): Admin all; Broker its own and its brokerage's people's;
 * Agent its own; School those of its own courses.
 */
function scopeCondition(actor: AuthUser): SQL | undefined {
  if (isSchool(actor)) return eq(courses.school_id, actor.user_id);
  return visibleUsersCondition(actor, completions.user_id);
}

const completionSelection = {
  completion_id: completions.completion_id,
  user_id: completions.user_id,
  first_name: users.first_name,
  last_name: users.last_name,
  course_id: completions.course_id,
  course_name: courses.course_name,
  course_school_id: courses.school_id,
  license_id: completions.license_id,
  license_number: licenses.license_number,
  license_state: licenses.state,
  completion_date: completions.completion_date,
  hours: completions.hours,
  status: completions.status,
  rating: completions.rating,
  reviewed_by: completions.reviewed_by,
  reviewed_at: completions.reviewed_at,
  note: completions.note,
  created_at: completions.created_at,
};

function baseQuery(db: DbOrTx) {
  return db
    .select(completionSelection)
    .from(completions)
    .innerJoin(users, eq(users.user_id, completions.user_id))
    .innerJoin(courses, eq(courses.course_id, completions.course_id))
    .leftJoin(licenses, eq(licenses.license_id, completions.license_id));
}

/** One completion as the caller may see it, or undefined when it is missing or out of scope. */
function getVisible(db: DbOrTx, actor: AuthUser, id: number): Completion | undefined {
  return baseQuery(db)
    .where(and(eq(completions.completion_id, id), scopeCondition(actor)))
    .get();
}

export function listCompletions(ctx: Ctx, query: z.output<typeof completionListQuery>): Completion[] {
  const q = query ?? {};
  const where: Array<SQL | undefined> = [scopeCondition(ctx.user)];
  if (q.status) where.push(eq(completions.status, q.status));
  if (q.course_id) where.push(eq(completions.course_id, q.course_id));
  if (q.user_id) where.push(eq(completions.user_id, q.user_id));
  if (q.license_id) where.push(eq(completions.license_id, q.license_id));
  return baseQuery(ctx.db)
    .where(and(...where))
    .orderBy(desc(completions.created_at), desc(completions.completion_id))
    .all();
}

/**
 * Whose completion this is. Agents record only their own; Brokers their own or their brokerage's
 * people's (others answer 404, as if they did not exist); Admins anyone. The person must hold licenses,
 * so must be an Agent or a Broker.
 */
function resolveHolder(ctx: Ctx, requested: number | null | undefined): number {
  const userId = requested ?? ctx.user.user_id;
  if (isAgent(ctx.user) && userId !== ctx.user.user_id) throw forbidden(COMPLETION_MESSAGES.onlyOwn);
  const holder = ctx.db
    .select({ user_id: users.user_id, role_id: users.role_id })
    .from(users)
    .where(and(eq(users.user_id, userId), isNull(users.deleted_at), visibleUsersCondition(ctx.user, users.user_id)))
    .get();
  if (!holder) throw notFound('User');
  if (holder.role_id !== 2 && holder.role_id !== 3) {
    throw badRequest(COMPLETION_MESSAGES.holderRole, [{ path: 'user_id', message: COMPLETION_MESSAGES.holderRole }]);
  }
  return holder.user_id;
}

export function recordCompletion(ctx: Ctx, input: z.output<typeof completionCreateInput>): Completion {
  const userId = resolveHolder(ctx, input.user_id);
  const course = ctx.db.select().from(courses).where(eq(courses.course_id, input.course_id)).get();
  if (!course) throw notFound('Course');
  if (!course.is_active)
    throw badRequest(COMPLETION_MESSAGES.courseInactive, [{ path: 'course_id', message: COMPLETION_MESSAGES.courseInactive }]);
  if (input.completion_date > today()) {
    throw badRequest(COMPLETION_MESSAGES.dateFuture, [{ path: 'completion_date', message: COMPLETION_MESSAGES.dateFuture }]);
  }
  const hours = input.hours ?? course.ce_hours;
  if (hours > course.ce_hours)
    throw badRequest(COMPLETION_MESSAGES.hoursOverCourse, [{ path: 'hours', message: COMPLETION_MESSAGES.hoursOverCourse }]);
  const licenseId = input.license_id ?? null;
  if (licenseId !== null) {
    const license = ctx.db.select({ user_id: licenses.user_id }).from(licenses).where(eq(licenses.license_id, licenseId)).get();
    if (!license || license.user_id !== userId) {
      throw badRequest(COMPLETION_MESSAGES.licenseNotOwned, [{ path: 'license_id', message: COMPLETION_MESSAGES.licenseNotOwned }]);
    }
    // The hours count in the cycle containing the date, so the date must lie in one (docs/decisions.md).
    const { cycles } = ledgerOf(ctx.db, licenseId)!;
    if (!cycleContaining(cycles, input.completion_date)) {
      const message = CE_MESSAGES.completionOutsideCycle(cycles[0]!.counts_from, cycles[cycles.length - 1]!.end_date);
      throw badRequest(message, [{ path: 'completion_date', message }]);
    }
  }

  return ctx.db.transaction((tx) => {
    const duplicate = tx
      .select({ id: completions.completion_id })
      .from(completions)
      .where(
        and(
          eq(completions.user_id, userId),
          eq(completions.course_id, course.course_id),
          eq(completions.completion_date, input.completion_date),
          inArray(completions.status, ['Pending', 'Approved']),
        ),
      )
      .get();
    if (duplicate) throw conflict(COMPLETION_MESSAGES.duplicate);
    const row = tx
      .insert(completions)
      .values({
        user_id: userId,
        course_id: course.course_id,
        license_id: licenseId,
        completion_date: input.completion_date,
        hours,
        rating: input.rating ?? null,
        status: 'Pending',
      })
      .returning({ completion_id: completions.completion_id })
      .get();
    const created = baseQuery(tx).where(eq(completions.completion_id, row.completion_id)).get()!;
    audit(tx, ctx.actor, { action: 'create', table: 'completions', id: created.completion_id, new: created });
    return created;
  });
}

/**
 * Approve, reject or reopen a completion (the course's School or an Admin). The license's CE figures are
 * derived from the Approved completions, so entering Approved adds exactly the hours to the cycle containing
 * the completion date and leaving it takes exactly them back; the cache is refreshed in the same
 * transaction. Taking hours back that would leave that cycle below 0 (because of negative adjustments)
 * answers 409 and changes nothing (docs/decisions.md "CE ledger and cycles").
 */
export function reviewCompletion(ctx: Ctx, input: z.output<typeof completionReviewInput>): Completion {
  const old = found(getVisible(ctx.db, ctx.user, input.id), 'Completion');
  // Only reviewers reach here (roleProcedure), and a School only sees its own courses' completions.
  if (!isAdmin(ctx.user) && !(isSchool(ctx.user) && old.course_school_id === ctx.user.user_id)) throw notFound('Completion');

  const result = ctx.db.transaction((tx) => {
    const ceChange = old.license_id !== null && (old.status === 'Approved') !== (input.status === 'Approved');
    const before = ceChange ? ceBefore(tx, old) : null;
    const reviewed = input.status !== 'Pending';
    tx.update(completions)
      .set({
        status: input.status,
        note: input.note ?? old.note,
        reviewed_by: reviewed ? ctx.user.user_id : null,
        reviewed_at: reviewed ? new Date().toISOString() : null,
      })
      .where(eq(completions.completion_id, input.id))
      .run();
    const after = old.license_id !== null ? refreshCeCache(tx, old.license_id) : null;
    const updated = baseQuery(tx).where(eq(completions.completion_id, input.id)).get()!;
    const ce = before && after ? { before: before.current, after: after.completed } : null;
    const action = input.status === 'Approved' ? 'update_approve' : input.status === 'Rejected' ? 'update_reject' : 'update_reopen';
    audit(tx, ctx.actor, {
      action,
      table: 'completions',
      id: input.id,
      old: { status: old.status, note: old.note, reviewed_by: old.reviewed_by },
      new: {
        status: updated.status,
        note: updated.note,
        reviewed_by: updated.reviewed_by,
        ...(ce ? { license_id: old.license_id, ce_hours_completed: ce } : {}),
      },
    });
    if (ce && before) {
      audit(tx, ctx.actor, {
        action: 'update_ce_hours',
        table: 'licenses',
        id: old.license_id,
        old: { ce_hours_completed: ce.before },
        new: { ce_hours_completed: ce.after, completion_id: input.id, hours: before.change, cycle_start_date: before.cycleStart },
      });
    }
    return updated;
  });
  // course_completed: after the commit, in the background; never fails the review (notifications/events.ts).
  if (result.status === 'Approved' && old.status !== 'Approved') notifyCourseCompleted(ctx, result.completion_id);
  return result;
}

/**
 * Before a review moves a linked completion in or out of Approved: the current cycle's hours, the change
 * to the completion's cycle, and a 409 when taking the hours back would leave that cycle below 0.
 */
function ceBefore(tx: DbOrTx, old: Completion): { current: number; change: number; cycleStart: string | null } | null {
  const ledger = ledgerOf(tx, old.license_id!);
  if (!ledger) return null;
  const change = old.status === 'Approved' ? -old.hours : old.hours;
  const index = ledger.cycles.findIndex((c) => c === cycleContaining(ledger.cycles, old.completion_date));
  const cycleFigures = index >= 0 ? ledger.figures[index]! : null;
  if (cycleFigures && roundHours(cycleFigures.completed + change) < 0) {
    throw conflict(CE_MESSAGES.belowZero(cycleFigures.completed, change));
  }
  return { current: ledger.figures[ledger.figures.length - 1]!.completed, change, cycleStart: cycleFigures?.start_date ?? null };
}

/**
 * The licenses a caller may record completions against: Admin all, Broker its own and its brokerage's,
 * Agent its own. Feeds the Record Completion form (the licenses domain owns the full list).
 */
export function licenseOptions(ctx: Ctx, userId?: number): CompletionLicenseOption[] {
  return ctx.db
    .select({
      license_id: licenses.license_id,
      user_id: licenses.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      license_number: licenses.license_number,
      state: licenses.state,
      status: licenses.status,
      ce_hours_required: licenses.ce_hours_required,
      ce_hours_completed: licenses.ce_hours_completed,
    })
    .from(licenses)
    .innerJoin(users, eq(users.user_id, licenses.user_id))
    .where(
      and(
        isNull(users.deleted_at),
        visibleUsersCondition(ctx.user, licenses.user_id),
        userId !== undefined ? eq(licenses.user_id, userId) : undefined,
      ),
    )
    .orderBy(asc(users.last_name), asc(users.first_name), asc(licenses.license_number))
    .all();
}
