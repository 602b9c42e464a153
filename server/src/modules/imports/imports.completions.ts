/**
 * Completions imports (docs/decisions.md "Imports"): the holder by e-mail or license number + state, the course
 * by state approval number or name (a School: its own courses only), the date and hours. Each row is checked with
 * completionCreateInput and then recorded through the completions module's own recordCompletionIn, each in a
 * savepoint of the batch's transaction: the same validation, cycle and repeat-credit rules and CE ledger refresh as
 * a single completion (a School's own course: approved at once). The preview runs the same path in a transaction
 * that is rolled back, so what it reports is what the commit does.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { can, completionCreateInput, type DateFormat, type ImportMapping, type ImportRowError, type ImportRowWritten } from '@lm/shared';
import { completions, courses, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { AppError } from '../../base/errors.ts';
import { recordCompletionIn } from '../completions/completions.service.ts';
import { isLicenseHolderRole } from '../licenses/licenses.service.ts';
import { chunks, RowValues, type RowResult } from './imports.rows.ts';

type CourseRow = Pick<typeof courses.$inferSelect, 'course_id' | 'course_name' | 'approval_number' | 'school_id'>;

export interface CompletionPlan {
  row: number;
  input: ReturnType<typeof completionCreateInput.parse>;
}

/** Which column a completionCreateInput path (or a service issue's path) is about. */
const FIELD_OF: Record<string, string> = {
  course_id: 'course',
  license_id: 'license_number',
  completion_date: 'completion_date',
  hours: 'hours',
  user_id: 'email',
  credit_cycle_start: 'completion_date',
};

async function lookups(db: DbOrTx, rows: RowValues[]) {
  const emails = [...new Set(rows.map((r) => r.get('email').toLowerCase()).filter(Boolean))];
  const numbers = [...new Set(rows.map((r) => r.get('license_number').toUpperCase()).filter(Boolean))];
  const people = new Map<string, { user_id: number; role_id: number }>();
  const held = new Map<string, { license_id: number; user_id: number }>();
  for (const part of chunks(emails)) {
    const found = await db
      .select({ user_id: users.user_id, role_id: users.role_id, email: users.email })
      .from(users)
      .where(and(inArray(sql`lower(${users.email})`, part), isNull(users.deleted_at)));
    for (const u of found) people.set(u.email.toLowerCase(), u);
  }
  for (const part of chunks(numbers)) {
    const found = await db
      .select({ license_id: licenses.license_id, user_id: licenses.user_id, state: licenses.state, number: licenses.license_number })
      .from(licenses)
      .where(inArray(sql`upper(${licenses.license_number})`, part));
    for (const l of found) held.set(`${l.state}|${l.number.toUpperCase()}`, l);
  }
  const allCourses: CourseRow[] = await db
    .select({
      course_id: courses.course_id,
      course_name: courses.course_name,
      approval_number: courses.approval_number,
      school_id: courses.school_id,
    })
    .from(courses);
  return { people, held, allCourses };
}

/** The rows' holders, courses and inputs; rows already recorded (same person, course and date) are unchanged. */
async function plan(
  ctx: AuthedContext,
  db: DbOrTx,
  headers: string[],
  mapping: ImportMapping,
  data: Array<{ row: number; cells: string[] }>,
  dateFormat: DateFormat,
): Promise<{ results: RowResult[]; plans: CompletionPlan[] }> {
  const rows = data.map((d) => RowValues.of('completions', headers, mapping, d.cells, d.row));
  const { people, held, allCourses } = await lookups(db, rows);
  const byApproval = new Map<string, CourseRow[]>();
  const byName = new Map<string, CourseRow[]>();
  for (const c of allCourses) {
    if (c.approval_number) byApproval.set(c.approval_number.toLowerCase(), [...(byApproval.get(c.approval_number.toLowerCase()) ?? []), c]);
    byName.set(c.course_name.toLowerCase(), [...(byName.get(c.course_name.toLowerCase()) ?? []), c]);
  }
  const results: RowResult[] = [];
  const pending: Array<{ v: RowValues; plan: CompletionPlan; summary: string }> = [];
  for (const v of rows) {
    v.requireFields();
    const date = v.date('completion_date', dateFormat);
    // The holder.
    let userId: number | undefined;
    let licenseId: number | null = null;
    if (v.has('license_number')) {
      const lic = held.get(`${v.get('state').toUpperCase()}|${v.get('license_number').toUpperCase()}`);
      if (!lic) v.fail('license_number', `No license ${v.get('license_number')} in ${v.get('state') || '(no state)'}`);
      else {
        userId = lic.user_id;
        licenseId = lic.license_id;
      }
    }
    if (v.has('email')) {
      const person = people.get(v.get('email').toLowerCase());
      if (!person || !isLicenseHolderRole(person)) v.fail('email', `No Agent or Broker with the email "${v.get('email')}"`);
      else if (userId !== undefined && userId !== person.user_id)
        v.fail('license_number', `License ${v.get('license_number')} is not ${v.get('email')}'s`);
      else userId = person.user_id;
    } else if (!v.has('license_number')) v.fail('email', "Give the person's email, or the license number and state");
    // The course: by approval number, else by name; a School's own only.
    let course: CourseRow | undefined;
    const key = v.has('approval_number') ? 'approval_number' : 'course';
    const wanted = v.get(key);
    if (!wanted) v.fail('course', 'Give the course name or its approval number');
    else {
      const candidates = ((key === 'approval_number' ? byApproval : byName).get(wanted.toLowerCase()) ?? []).filter(
        (c, _i, all) => all.length === 1 || can(ctx.user, 'imports.completions', c),
      );
      if (candidates.length === 0) v.fail(key, `No course ${key === 'course' ? 'named' : 'with the approval number'} "${wanted}"`);
      else if (candidates.length > 1) v.fail(key, `${candidates.length} courses match "${wanted}": use the approval number`);
      else if (!can(ctx.user, 'imports.completions', candidates[0]!)) v.fail(key, `"${wanted}" is not one of your courses`);
      else course = candidates[0];
    }
    const parsed = completionCreateInput.safeParse({
      course_id: course?.course_id ?? 0,
      license_id: licenseId,
      completion_date: date ?? '',
      hours: v.number('hours') ?? null,
      user_id: userId ?? null,
    });
    if (!parsed.success) {
      const issues = parsed.error.issues.filter(
        (i) => !(i.path[0] === 'course_id' && !course) && !(i.path[0] === 'completion_date' && date === null),
      );
      v.issues({ ...parsed.error, issues } as typeof parsed.error, (p) => FIELD_OF[p] ?? p);
    }
    const summary = [v.get('email') || `${v.get('state')} ${v.get('license_number')}`, course?.course_name, date]
      .filter(Boolean)
      .join(' · ');
    if (v.errors.length || !parsed.success) results.push({ row: v.row, action: 'error', summary, errors: v.errors });
    else pending.push({ v, plan: { row: v.row, input: parsed.data }, summary });
  }
  // Recorded already (Pending or Approved): unchanged. Read in bulk by person.
  const recorded = new Set<string>();
  for (const part of chunks([...new Set(pending.map((p) => p.plan.input.user_id!))])) {
    const found = await db
      .select({ user_id: completions.user_id, course_id: completions.course_id, date: completions.completion_date })
      .from(completions)
      .where(and(inArray(completions.user_id, part), inArray(completions.status, ['Pending', 'Approved'])));
    for (const c of found) recorded.add(`${c.user_id}|${c.course_id}|${c.date}`);
  }
  const seen = new Map<string, number>();
  const plans: CompletionPlan[] = [];
  for (const p of pending) {
    const k = `${p.plan.input.user_id}|${p.plan.input.course_id}|${p.plan.input.completion_date}`;
    if (recorded.has(k)) results.push({ row: p.v.row, action: 'unchanged', summary: p.summary, errors: [] });
    else if (seen.has(k)) {
      p.v.fail('completion_date', `The same completion is on row ${seen.get(k)}`);
      results.push({ row: p.v.row, action: 'error', summary: p.summary, errors: p.v.errors });
    } else {
      seen.set(k, p.v.row);
      results.push({ row: p.v.row, action: 'create', summary: p.summary, errors: [] });
      plans.push(p.plan);
    }
  }
  results.sort((a, b) => a.row - b.row);
  return { results, plans };
}

/** A refusal of the completions service as the row's error, on the column it is about. */
function rowError(err: AppError, mapping: ImportMapping): ImportRowError {
  const issue = (err.issues ?? [])[0];
  const field = issue ? (FIELD_OF[String(issue.path)] ?? 'completion_date') : 'course';
  const column = Object.entries(mapping).find(([, id]) => id === field)?.[0] ?? field;
  return { column, message: issue?.message ?? err.message };
}

/**
 * Records the planned rows through recordCompletionIn, each in a savepoint of `tx`: a refusal makes that row an
 * error and the rest go on. Answers what each row wrote and the errors.
 */
export async function writeCompletions(
  ctx: AuthedContext,
  tx: Tx,
  plans: CompletionPlan[],
  mapping: ImportMapping,
): Promise<{ written: Map<number, ImportRowWritten>; failed: Map<number, ImportRowError>; approved: number[] }> {
  const written = new Map<number, ImportRowWritten>();
  const failed = new Map<number, ImportRowError>();
  const approved: number[] = [];
  for (const p of plans) {
    try {
      const c = await ctx.db.transaction((sp) => recordCompletionIn(ctx, sp, p.input));
      const [row] = await tx
        .select({ updated_at: completions.updated_at })
        .from(completions)
        .where(eq(completions.completion_id, c.completion_id));
      written.set(p.row, { created: [{ table: 'completions', id: c.completion_id, updated_at: row!.updated_at }], updated: [] });
      if (c.status === 'Approved') approved.push(c.completion_id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed.set(p.row, rowError(err, mapping));
    }
  }
  return { written, failed, approved };
}

class DryRun extends Error {}

/**
 * The preview: the plan, then the writes in a transaction rolled back at its end, so each row reports what the
 * completions service would answer.
 */
export async function evaluateCompletions(
  ctx: AuthedContext,
  headers: string[],
  mapping: ImportMapping,
  data: Array<{ row: number; cells: string[] }>,
  dateFormat: DateFormat,
): Promise<{ results: RowResult[]; plans: CompletionPlan[] }> {
  let outcome: { results: RowResult[]; plans: CompletionPlan[] } | undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      const planned = await plan(ctx, tx, headers, mapping, data, dateFormat);
      const { failed } = await writeCompletions(ctx, tx, planned.plans, mapping);
      for (const r of planned.results) {
        const e = failed.get(r.row);
        if (e) {
          r.action = 'error';
          r.errors = [e];
        }
      }
      outcome = { results: planned.results, plans: planned.plans.filter((p) => !failed.has(p.row)) };
      throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return outcome!;
}

export { plan as planCompletions };
