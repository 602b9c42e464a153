import { and, desc, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';
import {
  COURSE_MESSAGES,
  toCents,
  toDollars,
  type Course,
  type courseCreateInput,
  type courseListQuery,
  type courseUpdateInput,
} from '@lm/shared';
import type { z } from 'zod';
import { completions, courses, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, conflict, forbidden } from '../../core/errors.ts';
import { found, isAdmin, isSchool } from '../../core/scope.ts';
import type { AuthUser } from '../auth/sessions.ts';

type Ctx = Context & { user: AuthUser };
type CourseRow = typeof courses.$inferSelect;

const completionCount = sql<number>`(SELECT COUNT(*) FROM ${completions} WHERE ${completions.course_id} = ${courses.course_id})`;

function toCourse(row: CourseRow & { completion_count: number }): Course {
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
    topic: row.topic,
    completion_count: Number(row.completion_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const selection = () => ({ ...getTableColumns(courses), completion_count: completionCount });

export function getCourse(db: DbOrTx, id: number): Course | undefined {
  const row = db.select(selection()).from(courses).where(eq(courses.course_id, id)).get();
  return row ? toCourse(row) : undefined;
}

/** Every signed-in user reads every course (docs/decisions.md); the filters narrow the list. */
export function listCourses(ctx: Ctx, query: z.output<typeof courseListQuery>): Course[] {
  const q = query ?? {};
  const where: SQL[] = [];
  if (q.is_active !== undefined) where.push(eq(courses.is_active, q.is_active));
  if (q.course_type) where.push(eq(courses.course_type, q.course_type));
  if (q.school_id) where.push(eq(courses.school_id, q.school_id));
  if (q.search) {
    const term = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const cond = or(
      sql`${courses.course_name} LIKE ${term} ESCAPE '\\'`,
      sql`${courses.provider} LIKE ${term} ESCAPE '\\'`,
      sql`${courses.description} LIKE ${term} ESCAPE '\\'`,
    );
    if (cond) where.push(cond);
  }
  return ctx.db
    .select(selection())
    .from(courses)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(courses.created_at), desc(courses.course_id))
    .all()
    .map(toCourse);
}

/** A School may manage only its own courses: 403 (the course is visible to it, so 404 would be a lie). */
function assertCanManage(actor: AuthUser, course: Course) {
  if (isAdmin(actor)) return;
  if (isSchool(actor) && course.school_id === actor.user_id) return;
  throw forbidden(COURSE_MESSAGES.notOwner);
}

/** The owner an Admin names must be an active School user (400 otherwise). */
function assertSchoolOwner(db: DbOrTx, schoolId: number) {
  const u = db.select({ role_id: users.role_id, deleted_at: users.deleted_at }).from(users).where(eq(users.user_id, schoolId)).get();
  if (!u || u.role_id !== 4 || u.deleted_at) {
    throw badRequest(COURSE_MESSAGES.schoolInvalid, [{ path: 'school_id', message: COURSE_MESSAGES.schoolInvalid }]);
  }
}

export function createCourse(ctx: Ctx, input: z.output<typeof courseCreateInput>): Course {
  let schoolId: number | null;
  if (isSchool(ctx.user)) schoolId = ctx.user.user_id;
  else {
    schoolId = input.school_id ?? null;
    if (schoolId !== null) assertSchoolOwner(ctx.db, schoolId);
  }
  return ctx.db.transaction((tx) => {
    const row = tx
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
      })
      .returning({ course_id: courses.course_id })
      .get();
    const course = getCourse(tx, row.course_id)!;
    audit(tx, ctx.actor, { action: 'create', table: 'courses', id: course.course_id, new: course });
    return course;
  });
}

export function updateCourse(ctx: Ctx, { id, ...input }: z.output<typeof courseUpdateInput>): Course {
  const old = found(getCourse(ctx.db, id), 'Course');
  assertCanManage(ctx.user, old);
  if (input.school_id !== undefined) {
    // Ownership is the Admin's to give; a School cannot hand its course to someone else.
    if (!isAdmin(ctx.user) && input.school_id !== old.school_id) throw forbidden(COURSE_MESSAGES.notOwner);
    if (input.school_id !== null) assertSchoolOwner(ctx.db, input.school_id);
  }
  const { cost, ...rest } = input;
  return ctx.db.transaction((tx) => {
    const values = { ...rest, ...(cost !== undefined ? { cost_cents: toCents(cost) } : {}) };
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    if (Object.keys(values).length > 0) tx.update(courses).set(values).where(eq(courses.course_id, id)).run();
    const course = getCourse(tx, id)!;
    audit(tx, ctx.actor, { action: 'update', table: 'courses', id, old, new: course });
    return course;
  });
}

export function deleteCourse(ctx: Ctx, id: number): { success: true } {
  const old = found(getCourse(ctx.db, id), 'Course');
  assertCanManage(ctx.user, old);
  return ctx.db.transaction((tx) => {
    // Checked inside the transaction, so a completion recorded meanwhile cannot slip past it.
    const used = tx
      .select({ n: sql<number>`COUNT(*)` })
      .from(completions)
      .where(eq(completions.course_id, id))
      .get();
    if (used && Number(used.n) > 0) throw conflict(COURSE_MESSAGES.hasCompletions);
    tx.delete(courses).where(eq(courses.course_id, id)).run();
    audit(tx, ctx.actor, { action: 'delete', table: 'courses', id, old });
    return { success: true as const };
  });
}
