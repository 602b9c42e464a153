import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  can,
  CE_MESSAGES,
  COMPLETION_MESSAGES,
  COMPLETION_PEOPLE_LIMIT,
  roundHours,
  type Completion,
  type CompletionPage,
  type CompletionSortColumn,
  type completionPageQuery,
  type CompletionLicenseOption,
  type CompletionPerson,
  type CompletionStatus,
  type completionCreateInput,
  type completionPeopleQuery,
  type completionListQuery,
  type completionReviewInput,
} from '@lm/shared';
import type { z } from 'zod';
import { completions, courses, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { caseInsensitive, containsText, countOf, personNameOrder } from '../../db/sql.ts';
import { licensesMatching, peopleMatching, peopleWithLicenseMatching, searchTerms } from '../../db/search.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { isAgent, isBroker, isSchool, type AuthUser } from '../../core/identity.ts';
import { audit } from '../../core/audit.ts';
import { today } from '../../core/dates.ts';
import { badRequest, conflict, forbidden, notFound } from '../../base/errors.ts';
import { found, visibleUsersCondition } from '../../core/scope.ts';
import { cycleContaining, ledgerOf, refreshCeCache } from '../licenses/ce-ledger.ts';
import { assertHolder, assertLicenseOfHolder, licenseHolderCondition } from '../licenses/licenses.service.ts';
import { notifyCourseCompleted } from '../notification-management/events.ts';
import { notifyUser, type NotificationMessage } from '../notifications/notify.ts';
import { emitEvent } from '../webhooks/events.ts';
import { cappedCount, directionOf, keyColumns, orderOf, pageWhere, readPage, UNPAGED_LIST_MAX, type ListOrder } from '../../db/list.ts';

/**
 * Who sees which completions (docs/decisions.md): Admin all; Broker its own and its brokerage's people's;
 * Agent its own; School those of its own courses.
 */
/**
 * The completions a caller sees, as a condition on the completion's own columns (no join needed, so a count reads
 * completions alone): a School's are those of its courses.
 */
function scopeCondition(actor: AuthUser): SQL | undefined {
  if (isSchool(actor)) {
    return inArray(completions.course_id, sql`(SELECT ${courses.course_id} FROM ${courses} WHERE ${courses.school_id} = ${actor.user_id})`);
  }
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
  credit_cycle_start: completions.credit_cycle_start,
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
export async function getVisible(db: DbOrTx, actor: AuthUser, id: number): Promise<Completion | undefined> {
  const [row] = await baseQuery(db).where(and(eq(completions.completion_id, id), scopeCondition(actor)));
  return row;
}

/** GET /completions/{id}: one completion in the caller's scope, or 404. */
export async function getVisibleCompletion(ctx: AuthedContext, id: number): Promise<Completion> {
  return found(await getVisible(ctx.db, ctx.user, id), 'Completion');
}

/** A completion just written in this transaction. */
async function written(tx: Tx, id: number): Promise<Completion> {
  const [row] = await baseQuery(tx).where(eq(completions.completion_id, id));
  return row!;
}

function whereOf(ctx: Pick<AuthedContext, 'user'>, q: z.output<typeof completionPageQuery> | undefined): SQL | undefined {
  const where: Array<SQL | undefined> = [scopeCondition(ctx.user)];
  if (q?.status) where.push(eq(completions.status, q.status));
  if (q?.course_id) where.push(eq(completions.course_id, q.course_id));
  if (q?.user_id) where.push(eq(completions.user_id, q.user_id));
  if (q?.license_id) where.push(eq(completions.license_id, q.license_id));
  if (q?.completed_from) where.push(gte(completions.completion_date, q.completed_from));
  if (q?.completed_to) where.push(lte(completions.completion_date, q.completed_to));
  if (q?.updated_since) where.push(gt(completions.updated_at, q.updated_since));
  if (q?.search) {
    const terms = searchTerms(q.search);
    where.push(
      or(
        peopleMatching(completions.user_id, terms),
        inArray(
          completions.course_id,
          sql`(SELECT ${courses.course_id} FROM ${courses} WHERE ${containsText(courses.course_name, q.search)})`,
        ),
        licensesMatching(completions.license_id, terms, 'number'),
      ),
    );
  }
  return and(...where);
}

export async function listCompletions(ctx: AuthedContext, query: z.output<typeof completionListQuery>): Promise<Completion[]> {
  return baseQuery(ctx.db)
    .where(whereOf(ctx, query))
    .orderBy(desc(completions.created_at), desc(completions.completion_id))
    .limit(UNPAGED_LIST_MAX);
}

/** The sort keys of the Completions list; missing values (no license, rating, note) sort first on both engines. */
const SORTS: Record<CompletionSortColumn, SQL[]> = {
  name: personNameOrder(users),
  course_name: [caseInsensitive(courses.course_name)],
  license_number: [sql`coalesce(${licenses.license_number}, '')`],
  completion_date: [sql`${completions.completion_date}`],
  hours: [sql`${completions.hours}`],
  rating: [sql`coalesce(${completions.rating}, 0)`],
  status: [sql`${completions.status}`],
  note: [sql`coalesce(${completions.note}, '')`],
  created_at: [sql`${completions.created_at}`],
};

/** How many of the caller's completions match `where` (the list's total). */
/**
 * A count of completions: every condition of whereOf is on the completion's own columns (the scope and the search
 * bring their own subqueries), and its person and course always exist (NOT NULL foreign keys), so it reads
 * completions alone.
 */
async function countWhere(db: DbOrTx, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: countOf() }).from(completions).where(where);
  return Number(row?.n ?? 0);
}

/** How many completions in the caller's scope match the list's filters (the list's total; the dashboard's counts). */
export async function countCompletions(
  ctx: Pick<AuthedContext, 'db' | 'user'>,
  q: z.output<typeof completionPageQuery> = {},
): Promise<number> {
  return countWhere(ctx.db, whereOf(ctx, q));
}

/** GET /completions/page: one page of the caller's completions in the chosen order (the id breaks ties), and the total. */
export async function pageCompletions(ctx: AuthedContext, q: z.output<typeof completionPageQuery> = {}): Promise<CompletionPage> {
  const where = whereOf(ctx, q);
  const order: ListOrder = { sort: SORTS[q.sort ?? 'created_at'], order: directionOf(q, 'created_at'), id: completions.completion_id };
  const { rows, pagination } = await readPage(q, {
    order,
    // At most COUNT_CAP + 1 rows read (db/list.ts cappedCount).
    count: async () =>
      (
        await cappedCount(
          ctx.db,
          ctx.db
            .select({ one: sql<number>`1`.as('one') })
            .from(completions)
            .where(where),
        )
      )[0]?.n,
    rows: (window) =>
      ctx.db
        .select({ ...completionSelection, ...keyColumns(order) })
        .from(completions)
        .innerJoin(users, eq(users.user_id, completions.user_id))
        .innerJoin(courses, eq(courses.course_id, completions.course_id))
        .leftJoin(licenses, eq(licenses.license_id, completions.license_id))
        .where(pageWhere(where, order, window))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(window.limit)
        .offset(window.offset),
  });
  return { completions: rows, pagination };
}

/**
 * Whose completion this is. Agents record only their own (403); Brokers their own or their brokerage's
 * people's (others answer 404, as if they did not exist); Admins anyone. The person must hold licenses,
 * so must be an Agent or a Broker (the licenses module's holder check). A School names the person (400
 * without one) and has no brokerage scope: it reports who took its course, so any live Agent or Broker.
 */
async function resolveHolder(ctx: AuthedContext, tx: Tx, requested: number | null | undefined): Promise<number> {
  if (isSchool(ctx.user)) {
    if (requested === null || requested === undefined) {
      throw badRequest(COMPLETION_MESSAGES.personRequired, [{ path: 'user_id', message: COMPLETION_MESSAGES.personRequired }]);
    }
    return assertLiveHolder(tx, requested);
  }
  const userId = requested ?? ctx.user.user_id;
  // The policy's rule of completions.create: an Agent records only its own.
  if (!can(ctx.user, 'completions.create', { user_id: userId })) throw forbidden(COMPLETION_MESSAGES.onlyOwn);
  return (await assertHolder(tx, ctx.user, userId, COMPLETION_MESSAGES.holderRole)).user_id;
}

/**
 * The holder check of a School's completion, without a scope: the person exists, is not deleted and is an
 * Agent or a Broker. Anyone else answers 404 'User', as if it did not exist: the people a School may name are
 * the live license holders (docs/decisions.md "Who may do what"), so it learns nothing of other accounts.
 */
async function assertLiveHolder(tx: Tx, userId: number): Promise<number> {
  const [person] = await tx
    .select({ user_id: users.user_id, role_id: users.role_id })
    .from(users)
    .where(and(eq(users.user_id, userId), isNull(users.deleted_at)));
  if (!person || !(isAgent(person) || isBroker(person))) throw notFound('User');
  return person.user_id;
}

/**
 * Records a completion: Pending, or Approved at once when a School records one of its own courses (see
 * recordCompletionIn). Every check that decides the insert (holder, course, license, the license's cycles,
 * duplicates) reads inside the inserting transaction.
 */
export async function recordCompletion(ctx: AuthedContext, input: z.output<typeof completionCreateInput>): Promise<Completion> {
  const created = await ctx.db.transaction((tx) => recordCompletionIn(ctx, tx, input));
  // course_completed, as after an approval: after the commit, in the background (notification-management/events.ts).
  if (created.status === 'Approved') notifyCourseCompleted(ctx, created.completion_id);
  return created;
}

/**
 * recordCompletion's rules and insert inside the caller's transaction (a certificate's completion links its
 * document in the same transaction, docs/ocr.md).
 *
 * A School records only completions of its own courses (another School's course or an Admin's answers 404,
 * as if it did not exist) and, being the course's provider and reviewer, records them approved: the
 * completion is created (its `create` entry) and approved by the School in the same transaction through
 * the review's own step (applyReview: reviewed_by and reviewed_at, the CE ledger's cache refreshed, the
 * review's audit entries and the holder's notice), so the license's hours move exactly as on approval.
 */
export async function recordCompletionIn(ctx: AuthedContext, tx: Tx, input: z.output<typeof completionCreateInput>): Promise<Completion> {
  if (input.completion_date > today()) {
    throw badRequest(COMPLETION_MESSAGES.dateFuture, [{ path: 'completion_date', message: COMPLETION_MESSAGES.dateFuture }]);
  }
  const userId = await resolveHolder(ctx, tx, input.user_id);
  const [course] = await tx.select().from(courses).where(eq(courses.course_id, input.course_id));
  if (!course || (isSchool(ctx.user) && course.school_id !== ctx.user.user_id)) throw notFound('Course');
  if (!course.is_active)
    throw badRequest(COMPLETION_MESSAGES.courseInactive, [{ path: 'course_id', message: COMPLETION_MESSAGES.courseInactive }]);
  const hours = input.hours ?? course.ce_hours;
  if (hours > course.ce_hours)
    throw badRequest(COMPLETION_MESSAGES.hoursOverCourse, [{ path: 'hours', message: COMPLETION_MESSAGES.hoursOverCourse }]);
  const licenseId = input.license_id ?? null;
  if (licenseId !== null) {
    await assertLicenseOfHolder(tx, licenseId, userId, COMPLETION_MESSAGES.licenseNotOwned);
    const ledger = (await ledgerOf(tx, licenseId))!;
    if (input.credit_cycle_start) assertLateCredit(ledger, input.credit_cycle_start, input.completion_date);
    // The hours count in the cycle containing the date, so the date must lie in one (docs/decisions.md).
    else if (!cycleContaining(ledger.cycles, input.completion_date)) {
      const message = CE_MESSAGES.completionOutsideCycle(ledger.cycles[0]!.counts_from, ledger.cycles[ledger.cycles.length - 1]!.end_date);
      throw badRequest(message, [{ path: 'completion_date', message }]);
    }
  } else if (input.credit_cycle_start) {
    const message = CE_MESSAGES.lateNeedsLicense;
    throw badRequest(message, [{ path: 'license_id', message }]);
  }
  const [duplicate] = await tx
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
    .limit(1);
  if (duplicate) throw conflict(COMPLETION_MESSAGES.duplicate);
  const [row] = await tx
    .insert(completions)
    .values({
      user_id: userId,
      course_id: course.course_id,
      license_id: licenseId,
      completion_date: input.completion_date,
      credit_cycle_start: input.credit_cycle_start ?? null,
      hours,
      rating: input.rating ?? null,
      status: 'Pending',
    })
    .returning({ completion_id: completions.completion_id });
  const created = await written(tx, row!.completion_id);
  await audit(tx, ctx.actor, { action: 'create', table: 'completions', id: created.completion_id, new: created });
  if (isSchool(ctx.user)) return applyReview(ctx, tx, created, 'Approved', created.note);
  return created;
}

/**
 * A late completion (docs/decisions.md "Compliance"): CE finished after a cycle ended, applied to that cycle. The
 * cycle must exist, have ended before the completion's date (else the date already counts in it) and be short.
 */
function assertLateCredit(ledger: NonNullable<Awaited<ReturnType<typeof ledgerOf>>>, cycleStart: string, date: string): void {
  const index = ledger.cycles.findIndex((c) => c.start_date === cycleStart);
  const fail = (message: string): never => {
    throw badRequest(message, [{ path: 'credit_cycle_start', message }]);
  };
  if (index < 0) fail(CE_MESSAGES.lateNoCycle(cycleStart));
  const cycle = ledger.cycles[index]!;
  if (date <= cycle.end_date) fail(CE_MESSAGES.lateNotLate(cycle.end_date));
  if (ledger.figures[index]!.complete) fail(CE_MESSAGES.lateCycleComplete(cycle.start_date, cycle.end_date));
}

/** The holder's in-app notification of a review (docs/decisions.md "Notification centre"). */
function reviewNotice(c: Completion): NotificationMessage {
  const approved = c.status === 'Approved';
  const hours = `${c.hours} CE hour${c.hours === 1 ? '' : 's'}`;
  return {
    user_id: c.user_id,
    event: approved ? 'completion_approved' : 'completion_rejected',
    title: approved ? `Completion approved: ${c.course_name}` : `Completion rejected: ${c.course_name}`,
    body: approved
      ? `Your completion of "${c.course_name}" on ${c.completion_date} was approved (${hours}).`
      : `Your completion of "${c.course_name}" on ${c.completion_date} was rejected.${c.note ? ` Note: ${c.note}` : ''}`,
    link: `/courses?tab=completions&search=${encodeURIComponent(c.course_name)}`,
    object_type: 'completion',
    object_id: c.completion_id,
  };
}

/**
 * Approve, reject or reopen a completion (the course's School or an Admin). The license's CE figures are
 * derived from the Approved completions, so entering Approved adds exactly the hours to the cycle containing
 * the completion date and leaving it takes exactly them back; the cache is refreshed in the same
 * transaction. Taking hours back that would leave that cycle below 0 (because of negative adjustments)
 * answers 409 and changes nothing (docs/decisions.md "CE ledger and cycles").
 *
 * The completion is read inside the reviewing transaction, so of two concurrent approvals the second sees
 * it Approved and credits nothing; a review that would change nothing (same status, no new note) is a
 * no-op: no write, no audit entry.
 */
export async function reviewCompletion(ctx: AuthedContext, input: z.output<typeof completionReviewInput>): Promise<Completion> {
  const { result, approvedNow } = await ctx.db.transaction(async (tx) => {
    const old = found(await getVisible(tx, ctx.user, input.id), 'Completion');
    // Only reviewers reach here (policyProcedure); the policy's rule: a School reviews only its own courses' completions.
    if (!can(ctx.user, 'completions.review', old)) throw notFound('Completion');
    const note = input.note ?? old.note;
    if (old.status === input.status && note === old.note) return { result: old, approvedNow: false };
    const updated = await applyReview(ctx, tx, old, input.status, note);
    return { result: updated, approvedNow: updated.status === 'Approved' && old.status !== 'Approved' };
  });
  // course_completed: after the commit, in the background; never fails the review (notification-management/events.ts).
  if (approvedNow) notifyCourseCompleted(ctx, result.completion_id);
  return result;
}

/**
 * The review's writes inside the caller's transaction (a review, and a School's own recording, which is
 * approved at once): the new status and note with the reviewer and time, the license's CE cache refreshed
 * (refreshCeCache, licenses/ce-ledger.ts), the review's audit entry (and the license's `update_ce_hours` when
 * its hours move) and the holder's in-app notice. The caller has checked that the reviewer may review it.
 */
async function applyReview(
  ctx: AuthedContext,
  tx: Tx,
  old: Completion,
  status: CompletionStatus,
  note: string | null,
): Promise<Completion> {
  const ceChange = old.license_id !== null && (old.status === 'Approved') !== (status === 'Approved');
  const before = ceChange ? await ceBefore(tx, old) : null;
  const reviewed = status !== 'Pending';
  await tx
    .update(completions)
    .set({
      status,
      note,
      reviewed_by: reviewed ? ctx.user.user_id : null,
      reviewed_at: reviewed ? new Date().toISOString() : null,
    })
    .where(eq(completions.completion_id, old.completion_id));
  const after = old.license_id !== null ? await refreshCeCache(tx, old.license_id) : null;
  const updated = await written(tx, old.completion_id);
  const ce = before && after ? { before: before.current, after: after.completed } : null;
  const action = status === 'Approved' ? 'update_approve' : status === 'Rejected' ? 'update_reject' : 'update_reopen';
  await audit(tx, ctx.actor, {
    action,
    table: 'completions',
    id: old.completion_id,
    old: { status: old.status, note: old.note, reviewed_by: old.reviewed_by },
    new: {
      status: updated.status,
      note: updated.note,
      reviewed_by: updated.reviewed_by,
      ...(ce ? { license_id: old.license_id, ce_hours_completed: ce } : {}),
    },
  });
  if (ce && before) {
    await audit(tx, ctx.actor, {
      action: 'update_ce_hours',
      table: 'licenses',
      id: old.license_id,
      old: { ce_hours_completed: ce.before },
      new: { ce_hours_completed: ce.after, completion_id: old.completion_id, hours: before.change, cycle_start_date: before.cycleStart },
    });
  }
  if (updated.status !== old.status && updated.status !== 'Pending' && updated.user_id !== ctx.user.user_id) {
    await notifyUser(tx, reviewNotice(updated));
  }
  if (updated.status === 'Approved' && old.status !== 'Approved') await emitEvent(tx, 'completion.approved', updated);
  return updated;
}

/**
 * Before a review moves a linked completion in or out of Approved: the current cycle's hours, the change
 * to the completion's cycle, and a 409 when taking the hours back would leave that cycle below 0.
 */
async function ceBefore(tx: Tx, old: Completion): Promise<{ current: number; change: number; cycleStart: string | null } | null> {
  const ledger = await ledgerOf(tx, old.license_id!);
  if (!ledger) return null;
  const change = old.status === 'Approved' ? -old.hours : old.hours;
  const index = old.credit_cycle_start
    ? ledger.cycles.findIndex((c) => c.start_date === old.credit_cycle_start)
    : ledger.cycles.findIndex((c) => c === cycleContaining(ledger.cycles, old.completion_date));
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
export async function licenseOptions(ctx: AuthedContext, userId?: number): Promise<CompletionLicenseOption[]> {
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
    .orderBy(...personNameOrder(users), asc(licenses.license_number));
}

/**
 * GET /completions/people: the live (active, not deleted) Agents and Brokers whose name or license number
 * contains `search`, at most COMPLETION_PEOPLE_LIMIT by name, each with its licenses. The Record Completion
 * form's person and license choices for a School, which has no brokerage scope but may name anyone who took
 * one of its courses (docs/decisions.md "Who may do what"); an Admin may use it too.
 */
export async function completionPeople(ctx: AuthedContext, q: z.output<typeof completionPeopleQuery> = {}): Promise<CompletionPerson[]> {
  const search = q.search || undefined;
  const people = await ctx.db
    .select({ user_id: users.user_id, first_name: users.first_name, last_name: users.last_name })
    .from(users)
    .where(
      and(
        licenseHolderCondition(!search),
        eq(users.is_active, true),
        isNull(users.deleted_at),
        search
          ? or(peopleMatching(users.user_id, searchTerms(search)), peopleWithLicenseMatching(users.user_id, searchTerms(search)))
          : undefined,
      ),
    )
    .orderBy(...personNameOrder(users), asc(users.user_id))
    .limit(Math.min(q.limit ?? COMPLETION_PEOPLE_LIMIT, COMPLETION_PEOPLE_LIMIT));
  if (people.length === 0) return [];
  const held = await ctx.db
    .select({
      user_id: licenses.user_id,
      license_id: licenses.license_id,
      license_number: licenses.license_number,
      state: licenses.state,
      status: licenses.status,
    })
    .from(licenses)
    .where(
      inArray(
        licenses.user_id,
        people.map((p) => p.user_id),
      ),
    )
    .orderBy(asc(licenses.license_number), asc(licenses.license_id));
  return people.map((p) => ({
    ...p,
    licenses: held
      .filter((l) => l.user_id === p.user_id)
      .map((l) => ({ license_id: l.license_id, license_number: l.license_number, state: l.state, status: l.status })),
  }));
}
