/**
 * Dashboard figures per role (docs/product.md section 3), each computed inside the caller's scope
 * (docs/decisions.md): Admin everything, Broker its brokerage, Agent itself, School its courses.
 * Read-only queries straight on the tables; every count is served by an index.
 */
import { and, count, desc, eq, gte, inArray, isNull, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  daysBetween,
  DEFAULT_EXPIRING_WINDOW,
  EXPIRING_CARD_LIMIT,
  RECENT_ACTIVITY_LIMIT,
  roleName,
  ROLE,
  toDollars,
  type ActivityItem,
  type DashboardStats,
  type ExpiringLicense,
  type ExpiringLicensesInput,
} from '@lm/shared';
import { completions, courses, licenses, payments, users } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { sumOf } from '../../db/sql.ts';
import { today } from '../../core/dates.ts';
import { getSettings } from '../../core/settings.ts';
import { isAdmin, isAgent, isBroker, isSchool, visibleUsersCondition } from '../../core/scope.ts';
import type { AuthUser } from '../../core/identity.ts';
import type { AuthedContext } from '../../core/trpc.ts';

/** What the dashboard reads need of the signed-in context (bench/run.ts builds one from a session). */
export type DashboardCtx = Pick<AuthedContext, 'db' | 'user'>;

/** Statuses that no longer "expire": an Inactive or already Expired license is not counted as expiring. */
const NOT_EXPIRING = ['Inactive', 'Expired'] as const;

const one = (rows: Array<{ n: number | null }>) => Number(rows[0]?.n ?? 0);

/** Licenses of live holders expiring between the office's today and today + days, in the caller's scope. */
function expiringCondition(user: AuthUser, days: number): SQL | undefined {
  const from = today();
  return and(
    gte(licenses.expiration_date, from),
    lte(licenses.expiration_date, addDays(from, days)),
    notInArray(licenses.status, [...NOT_EXPIRING]),
    isNull(users.deleted_at),
    visibleUsersCondition(user, licenses.user_id),
  );
}

async function countExpiring(db: Db, user: AuthUser, days: number): Promise<number> {
  return one(
    await db
      .select({ n: count() })
      .from(licenses)
      .innerJoin(users, eq(users.user_id, licenses.user_id))
      .where(expiringCondition(user, days)),
  );
}

export async function stats(ctx: DashboardCtx): Promise<DashboardStats> {
  const { db, user } = ctx;
  const warningDays = (await getSettings(db)).license_expiry_warning_days;

  if (isAdmin(user)) {
    return {
      role: 'Admin',
      total_users: one(await db.select({ n: count() }).from(users).where(isNull(users.deleted_at))),
      total_licenses: one(await db.select({ n: count() }).from(licenses)),
      expiring_licenses: await countExpiring(db, user, warningDays),
      expiring_window_days: warningDays,
      total_courses: one(await db.select({ n: count() }).from(courses)),
      total_completions: one(await db.select({ n: count() }).from(completions)),
      pending_completions: one(await db.select({ n: count() }).from(completions).where(eq(completions.status, 'Pending'))),
    };
  }

  if (isBroker(user)) {
    const scope = visibleUsersCondition(user, licenses.user_id);
    const agents =
      user.brokerage_id === null
        ? 0
        : one(
            await db
              .select({ n: count() })
              .from(users)
              .where(and(eq(users.brokerage_id, user.brokerage_id), eq(users.role_id, ROLE.Agent), isNull(users.deleted_at))),
          );
    return {
      role: 'Broker',
      total_agents: agents,
      agent_licenses: one(await db.select({ n: count() }).from(licenses).where(scope)),
      expiring_agent_licenses: await countExpiring(db, user, warningDays),
      expiring_window_days: warningDays,
      agent_completions: one(await db.select({ n: count() }).from(completions).where(visibleUsersCondition(user, completions.user_id))),
    };
  }

  if (isAgent(user)) {
    const [paid] = await db
      .select({ cents: sumOf(payments.amount_cents) })
      .from(payments)
      .where(and(eq(payments.user_id, user.user_id), eq(payments.status, 'Completed')));
    return {
      role: 'Agent',
      my_licenses: one(await db.select({ n: count() }).from(licenses).where(eq(licenses.user_id, user.user_id))),
      my_completions: one(await db.select({ n: count() }).from(completions).where(eq(completions.user_id, user.user_id))),
      my_payments: toDollars(Number(paid?.cents ?? 0)),
      ce_progress: await ceProgress(db, user.user_id),
    };
  }

  // School: its own courses and their completions.
  const ownCourses = eq(courses.school_id, user.user_id);
  return {
    role: 'School',
    my_courses: one(await db.select({ n: count() }).from(courses).where(ownCourses)),
    course_completions: one(
      await db.select({ n: count() }).from(completions).innerJoin(courses, eq(courses.course_id, completions.course_id)).where(ownCourses),
    ),
    pending_completions: one(
      await db
        .select({ n: count() })
        .from(completions)
        .innerJoin(courses, eq(courses.course_id, completions.course_id))
        .where(and(ownCourses, eq(completions.status, 'Pending'))),
    ),
  };
}

/**
 * The Agent's CE progress: the hours of the license it is working toward, i.e. the current license
 * (not Inactive or Expired) with the nearest expiration on or after today; without one, the license
 * that expired last. No license: zeros and no renewal date.
 */
async function ceProgress(db: Db, userId: number) {
  const columns = {
    completed: licenses.ce_hours_completed,
    required: licenses.ce_hours_required,
    renewal_date: licenses.expiration_date,
  };
  const [current] = await db
    .select(columns)
    .from(licenses)
    .where(and(eq(licenses.user_id, userId), gte(licenses.expiration_date, today()), notInArray(licenses.status, [...NOT_EXPIRING])))
    .orderBy(licenses.expiration_date)
    .limit(1);
  const row =
    current ??
    (await db.select(columns).from(licenses).where(eq(licenses.user_id, userId)).orderBy(desc(licenses.expiration_date)).limit(1))[0];
  return row ?? { completed: 0, required: 0, renewal_date: null };
}

export async function expiringLicenses(ctx: DashboardCtx, input: ExpiringLicensesInput): Promise<ExpiringLicense[]> {
  const days = input?.days ?? DEFAULT_EXPIRING_WINDOW;
  const limit = input?.limit ?? EXPIRING_CARD_LIMIT;
  const from = today();
  const rows = await ctx.db
    .select({
      license_id: licenses.license_id,
      user_id: licenses.user_id,
      first_name: users.first_name,
      last_name: users.last_name,
      license_number: licenses.license_number,
      state: licenses.state,
      expiration_date: licenses.expiration_date,
    })
    .from(licenses)
    .innerJoin(users, eq(users.user_id, licenses.user_id))
    .where(expiringCondition(ctx.user, days))
    .orderBy(licenses.expiration_date, licenses.license_id)
    .limit(Number(limit));
  return rows.map((r) => ({ ...r, days_left: daysBetween(from, r.expiration_date) }));
}

/**
 * The newest events in the caller's scope, at most 10, newest first. Each source is read newest
 * first through its created_at index, limited to 10, then merged.
 */
export async function recentActivity(ctx: DashboardCtx): Promise<ActivityItem[]> {
  const { db, user } = ctx;
  const n = RECENT_ACTIVITY_LIMIT;
  const items: ActivityItem[] = [];

  if (isAdmin(user)) {
    for (const r of await db
      .select({
        user_id: users.user_id,
        first_name: users.first_name,
        last_name: users.last_name,
        role_id: users.role_id,
        created_at: users.created_at,
      })
      .from(users)
      .where(isNull(users.deleted_at))
      .orderBy(desc(users.created_at))
      .limit(n)) {
      const { created_at, role_id, ...rest } = r;
      items.push({ type: 'user_created', timestamp: created_at, data: { ...rest, role_name: roleName(role_id) } });
    }
  }

  if (isBroker(user) && user.brokerage_id !== null) {
    for (const r of await db
      .select({ user_id: users.user_id, first_name: users.first_name, last_name: users.last_name, created_at: users.created_at })
      .from(users)
      .where(and(eq(users.brokerage_id, user.brokerage_id), eq(users.role_id, ROLE.Agent), isNull(users.deleted_at)))
      .orderBy(desc(users.created_at))
      .limit(n)) {
      const { created_at, ...data } = r;
      items.push({ type: 'agent_created', timestamp: created_at, data });
    }
  }

  if (!isSchool(user)) {
    for (const r of await db
      .select({
        license_id: licenses.license_id,
        first_name: users.first_name,
        last_name: users.last_name,
        license_number: licenses.license_number,
        state: licenses.state,
        created_at: licenses.created_at,
      })
      .from(licenses)
      .innerJoin(users, eq(users.user_id, licenses.user_id))
      .where(visibleUsersCondition(user, licenses.user_id))
      .orderBy(desc(licenses.created_at))
      .limit(n)) {
      const { created_at, ...data } = r;
      items.push({ type: 'license_created', timestamp: created_at, data });
    }

    for (const r of await db
      .select({
        payment_id: payments.payment_id,
        first_name: users.first_name,
        last_name: users.last_name,
        amount_cents: payments.amount_cents,
        payment_type: payments.payment_type,
        created_at: payments.created_at,
      })
      .from(payments)
      .innerJoin(users, eq(users.user_id, payments.user_id))
      .where(visibleUsersCondition(user, payments.user_id))
      // payment_id grows with created_at and is the table's own order: no sort over every payment.
      .orderBy(desc(payments.payment_id))
      .limit(n)) {
      const { created_at, amount_cents, ...data } = r;
      items.push({ type: 'payment_created', timestamp: created_at, data: { ...data, amount: toDollars(amount_cents) } });
    }
  }

  // Completions: the scope's people, or for a School the completions of its courses.
  const completionScope = isSchool(user)
    ? inArray(completions.course_id, sql`(SELECT ${courses.course_id} FROM ${courses} WHERE ${courses.school_id} = ${user.user_id})`)
    : visibleUsersCondition(user, completions.user_id);
  for (const r of await db
    .select({
      completion_id: completions.completion_id,
      first_name: users.first_name,
      last_name: users.last_name,
      course_name: courses.course_name,
      status: completions.status,
      created_at: completions.created_at,
    })
    .from(completions)
    .innerJoin(users, eq(users.user_id, completions.user_id))
    .innerJoin(courses, eq(courses.course_id, completions.course_id))
    .where(completionScope)
    .orderBy(desc(completions.created_at))
    .limit(n)) {
    const { created_at, ...data } = r;
    items.push({ type: 'completion_created', timestamp: created_at, data });
  }

  // Courses: Admin sees every new course, a School its own.
  if (isAdmin(user) || isSchool(user)) {
    for (const r of await db
      .select({
        course_id: courses.course_id,
        course_name: courses.course_name,
        provider: courses.provider,
        created_at: courses.created_at,
      })
      .from(courses)
      .where(isSchool(user) ? eq(courses.school_id, user.user_id) : undefined)
      .orderBy(desc(courses.created_at))
      .limit(n)) {
      const { created_at, ...data } = r;
      items.push({ type: 'course_created', timestamp: created_at, data });
    }
  }

  return items.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0)).slice(0, n);
}
