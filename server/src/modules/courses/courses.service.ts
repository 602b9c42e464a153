import { and, desc, eq, getTableColumns, gt, or, sql, type SQL } from 'drizzle-orm';
import {
  can,
  COURSE_LIST_MAX,
  COURSE_MESSAGES,
  toCents,
  toDollars,
  type Course,
  type CoursePage,
  type CourseSortColumn,
  type courseCreateInput,
  type coursePageQuery,
  type courseListQuery,
  type courseUpdateInput,
} from '@lm/shared';
import type { z } from 'zod';
import { completions, courses, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { caseInsensitive, containsText, countOf } from '../../db/sql.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { isSchool, type AuthUser } from '../../core/identity.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, conflict, forbidden } from '../../base/errors.ts';
import { found } from '../../core/scope.ts';
import { cappedCountOf, directionOf, keyColumns, orderOf, pageWhere, readPage, type ListOrder } from '../../db/list.ts';
import { assertIfMatch } from '../../http/etag.ts';
import { recordDeletion } from '../deletions/deletions.service.ts';
type CourseRow = typeof courses.$inferSelect;

/*
 * Correlated subqueries spelled with their own aliases: in a select from one table the query builder writes
 * columns without their table, so `course_id = course_id` inside the subquery would compare a column with itself.
 */
const completionCount = sql<number>`(SELECT COUNT(*) FROM completions AS cc WHERE cc.course_id = courses.course_id)`.mapWith(Number);

/** The owning School's name, null for an Admin course. */
const schoolName = sql<string | null>`(SELECT su.first_name || ' ' || su.last_name FROM users AS su WHERE su.user_id = courses.school_id)`;

function toCourse(row: CourseRow & { completion_count: number; school_name: string | null }): Course {
  return {
    course_id: row.course_id,
    course_name: row.course_name,
    description: row.description,
    provider: row.provider,
    ce_hours: row.ce_hours,
    course_type: row.course_type,
    cost: toDollars(row.cost_cents),
    is_active: row.is_active,
    school_id: row.school_id,
    school_name: row.school_name ?? null,
    topic: row.topic,
    approval_number: row.approval_number,
    approval_state: row.approval_state,
    completion_count: Number(row.completion_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const selection = () => ({ ...getTableColumns(courses), completion_count: completionCount, school_name: schoolName });

export async function getCourse(db: DbOrTx, id: number): Promise<Course | undefined> {
  const [row] = await db.select(selection()).from(courses).where(eq(courses.course_id, id));
  return row ? toCourse(row) : undefined;
}

/** GET /courses/{id}: every signed-in user reads every course; 404 when there is none. */
export async function getVisibleCourse(ctx: AuthedContext, id: number): Promise<Course> {
  return found(await getCourse(ctx.db, id), 'Course');
}

function whereOf(q: z.output<typeof courseListQuery>): SQL | undefined {
  const where: Array<SQL | undefined> = [];
  if (q?.is_active !== undefined) where.push(eq(courses.is_active, q.is_active));
  if (q?.course_type) where.push(eq(courses.course_type, q.course_type));
  if (q?.school_id) where.push(eq(courses.school_id, q.school_id));
  if (q?.updated_since) where.push(gt(courses.updated_at, q.updated_since));
  if (q?.search) {
    where.push(
      or(
        containsText(courses.course_name, q.search),
        containsText(courses.provider, q.search),
        containsText(courses.description, q.search),
      ),
    );
  }
  return and(...where);
}

/** Every signed-in user reads every course (docs/decisions.md); the filters narrow the list, limit/offset page it. */
export async function listCourses(ctx: AuthedContext, query: z.output<typeof courseListQuery>): Promise<Course[]> {
  const rows = await ctx.db
    .select(selection())
    .from(courses)
    .where(whereOf(query))
    .orderBy(desc(courses.created_at), desc(courses.course_id))
    // Never unbounded (docs/security.md "Bounded work per request"): at most COURSE_LIST_MAX a call.
    .limit(query?.limit ?? COURSE_LIST_MAX)
    .offset(query?.offset ?? 0);
  return rows.map(toCourse);
}

/** The sort keys of the Courses list; a missing topic sorts as '' on both engines. */
const SORTS: Record<CourseSortColumn, SQL[]> = {
  course_name: [caseInsensitive(courses.course_name)],
  provider: [caseInsensitive(courses.provider)],
  course_type: [sql`${courses.course_type}`],
  ce_hours: [sql`${courses.ce_hours}`],
  topic: [sql`coalesce(${courses.topic}, '')`],
  cost: [sql`${courses.cost_cents}`],
  is_active: [sql`${courses.is_active}`],
  completion_count: [completionCount],
  created_at: [sql`${courses.created_at}`],
};

const countWhere = async (db: DbOrTx, where: SQL | undefined) =>
  Number((await db.select({ n: countOf() }).from(courses).where(where))[0]?.n ?? 0);

/** How many courses match the list's filters (the list's total; the dashboard's counts). */
export async function countCourses(ctx: Pick<AuthedContext, 'db'>, q: z.output<typeof coursePageQuery> = {}): Promise<number> {
  return countWhere(ctx.db, whereOf(q));
}

/** GET /courses/page: one page of the filtered list in the chosen order (the id breaks ties), and the total. */
export async function pageCourses(ctx: AuthedContext, q: z.output<typeof coursePageQuery> = {}): Promise<CoursePage> {
  const where = whereOf(q);
  const order: ListOrder = { sort: SORTS[q.sort ?? 'created_at'], order: directionOf(q, 'created_at'), id: courses.course_id };
  const { rows, pagination } = await readPage(q, {
    order,
    count: () => cappedCountOf(ctx.db, courses, where),
    rows: (window) =>
      ctx.db
        .select({ ...selection(), ...keyColumns(order) })
        .from(courses)
        .where(pageWhere(where, order, window))
        .orderBy(...orderOf(order.sort, order.order, order.id))
        .limit(window.limit)
        .offset(window.offset),
  });
  return { courses: rows.map(toCourse), pagination };
}

/**
 * A School may manage only its own courses (the policy's rule of courses.update and courses.delete): 403, since
 * the course is visible to it and 404 would be a lie.
 */
function assertCanManage(actor: AuthUser, action: 'courses.update' | 'courses.delete', course: Course) {
  if (!can(actor, action, course)) throw forbidden(COURSE_MESSAGES.notOwner);
}

/** The owner an Admin names must be an active School user (400 otherwise). */
async function assertSchoolOwner(tx: Tx, schoolId: number): Promise<void> {
  const [u] = await tx.select({ role_id: users.role_id, deleted_at: users.deleted_at }).from(users).where(eq(users.user_id, schoolId));
  if (!u || !isSchool(u) || u.deleted_at) {
    throw badRequest(COURSE_MESSAGES.schoolInvalid, [{ path: 'school_id', message: COURSE_MESSAGES.schoolInvalid }]);
  }
}

export async function createCourse(ctx: AuthedContext, input: z.output<typeof courseCreateInput>): Promise<Course> {
  return ctx.db.transaction(async (tx) => {
    let schoolId: number | null;
    if (isSchool(ctx.user)) schoolId = ctx.user.user_id;
    else {
      schoolId = input.school_id ?? null;
      if (schoolId !== null) await assertSchoolOwner(tx, schoolId);
    }
    const [row] = await tx
      .insert(courses)
      .values({
        course_name: input.course_name,
        description: input.description,
        provider: input.provider,
        ce_hours: input.ce_hours,
        course_type: input.course_type,
        cost_cents: toCents(input.cost),
        is_active: input.is_active,
        school_id: schoolId,
        topic: input.topic ?? null,
        approval_number: input.approval_number ?? null,
        approval_state: input.approval_state ?? null,
      })
      .returning({ course_id: courses.course_id });
    const course = (await getCourse(tx, row!.course_id))!;
    await audit(tx, ctx.actor, { action: 'create', table: 'courses', id: course.course_id, new: course });
    return course;
  });
}

/** The course, its owner and the new owner are read inside the updating transaction. */
export async function updateCourse(ctx: AuthedContext, { id, ...input }: z.output<typeof courseUpdateInput>): Promise<Course> {
  const { cost, ...rest } = input;
  return ctx.db.transaction(async (tx) => {
    const old = found(await getCourse(tx, id), 'Course');
    assertCanManage(ctx.user, 'courses.update', old);
    // If-Match (REST): `old` is the course as GET /courses/{id} answers it, read in this transaction (http/etag.ts).
    await assertIfMatch(ctx, async () => old);
    if (input.school_id !== undefined) {
      // Ownership is the Admin's to give (courses.assignSchool); a School cannot hand its course to someone else.
      if (input.school_id !== old.school_id && !can(ctx.user, 'courses.assignSchool')) throw forbidden(COURSE_MESSAGES.notOwner);
      if (input.school_id !== null) await assertSchoolOwner(tx, input.school_id);
    }
    const values = { ...rest, ...(cost !== undefined ? { cost_cents: toCents(cost) } : {}) };
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    if (Object.keys(values).length > 0) await tx.update(courses).set(values).where(eq(courses.course_id, id));
    const course = (await getCourse(tx, id))!;
    await audit(tx, ctx.actor, { action: 'update', table: 'courses', id, old, new: course });
    return course;
  });
}

export async function deleteCourse(ctx: AuthedContext, id: number): Promise<{ success: true }> {
  return ctx.db.transaction(async (tx) => {
    const old = found(await getCourse(tx, id), 'Course');
    assertCanManage(ctx.user, 'courses.delete', old);
    // Checked inside the transaction, so a completion recorded meanwhile cannot slip past it.
    const [used] = await tx.select({ n: countOf() }).from(completions).where(eq(completions.course_id, id));
    if (used && used.n > 0) throw conflict(COURSE_MESSAGES.hasCompletions);
    await tx.delete(courses).where(eq(courses.course_id, id));
    await recordDeletion(tx, 'courses', id, null);
    await audit(tx, ctx.actor, { action: 'delete', table: 'courses', id, old });
    return { success: true as const };
  });
}
