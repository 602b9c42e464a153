/**
 * Dashboard figures per role (docs/product.md section 3), each computed inside the caller's scope
 * (docs/decisions.md): Admin everything, Broker its brokerage, Agent itself, School its courses.
 * Every figure is the total of the list its card opens, counted by that list's own count (countLicenses,
 * countUsers, countCourses, countCompletions, paymentSummary) with the filters the card's link carries
 * (docs/decisions.md "Dashboards: every figure a way in"), so a card and its list never disagree.
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  DEFAULT_EXPIRING_WINDOW,
  EXPIRING_CARD_LIMIT,
  RECENT_ACTIVITY_LIMIT,
  roleName,
  ROLE,
  startOfMonth,
  toDollars,
  type ActivityItem,
  type DashboardStats,
  type ExpiringLicense,
  type ExpiringLicensesInput,
  type AgentDashboardStats,
} from '@lm/shared';
import { complianceSummary, countLicenses, listLicenses } from '../licenses/licenses.service.ts';
import { countUsers } from '../users/users.service.ts';
import { countCourses } from '../courses/courses.service.ts';
import { countCompletions } from '../completions/completions.service.ts';
import { paymentSummary } from '../payments/payments.service.ts';
import { completions, courses, licenses, payments, users } from '../../db/schema/index.ts';
import { getSettings } from '../../core/settings.ts';
import { today } from '../../core/dates.ts';
import { keptUntilChange } from '../../db/prepared.ts';
import type { DbOrTx } from '../../db/types.ts';
import { isAdmin, isAgent, isBroker, isSchool, visibleUsersCondition } from '../../core/scope.ts';
import type { AuthedContext } from '../../core/trpc.ts';

/** What the dashboard reads need of the signed-in context (bench/run.ts builds one from a session). */
export type DashboardCtx = Pick<AuthedContext, 'db' | 'user'>;

/**
 * Expiring, expired, at risk: the licenses list's own filters answer every license figure here (docs/decisions.md
 * "Compliance"), so a card and the list it opens count the same licenses.
 */
const countExpiring = (ctx: DashboardCtx, days: number) => countLicenses(ctx, { expiring_within: days });

/**
 * The figures of one person's dashboard on the office's date, kept until the database changes (db/prepared.ts
 * keptUntilChange; on PostgreSQL every call counts): each figure is its list's own count, and a dashboard polled
 * by many people does not count every table again while nothing commits (docs/performance.md "API throughput").
 */
const keptStats = keptUntilChange((db: DbOrTx, _shape: 'stats', p: { user: DashboardCtx['user']; day: string }) =>
  // The handle given below, ctx.db, handed back as it was.
  countStats({ db: db as DashboardCtx['db'], user: p.user }),
);

export function stats(ctx: DashboardCtx): Promise<DashboardStats> {
  return keptStats(ctx.db, 'stats', { user: ctx.user, day: today() });
}

async function countStats(ctx: DashboardCtx): Promise<DashboardStats> {
  const { db, user } = ctx;
  const warningDays = (await getSettings(db)).license_expiry_warning_days;

  if (isAdmin(user)) {
    return {
      role: 'Admin',
      total_users: await countUsers(ctx),
      total_licenses: await countLicenses(ctx),
      expiring_licenses: await countExpiring(ctx, warningDays),
      expiring_window_days: warningDays,
      total_courses: await countCourses(ctx),
      total_completions: await countCompletions(ctx),
      pending_completions: await countCompletions(ctx, { status: 'Pending' }),
      compliance: await complianceSummary(ctx),
    };
  }

  if (isBroker(user)) {
    return {
      role: 'Broker',
      // The users list's scope for a Broker is its brokerage (itself alone without one): its Agents there.
      total_agents: await countUsers(ctx, { role: ROLE.Agent }),
      agent_licenses: await countLicenses(ctx),
      expiring_agent_licenses: await countExpiring(ctx, warningDays),
      expiring_window_days: warningDays,
      agent_completions: await countCompletions(ctx),
      compliance: await complianceSummary(ctx),
    };
  }

  if (isAgent(user)) {
    // Revenue of the payments list's summary: the exact sum of the Completed payments in the caller's scope.
    const paid = await paymentSummary(ctx, { status: 'Completed' });
    return {
      role: 'Agent',
      my_licenses: await countLicenses(ctx),
      my_completions: await countCompletions(ctx),
      my_payments: paid.total_revenue,
      ...(await ceCards(ctx)),
    };
  }

  // School: its own courses and their completions (the completions list's scope for a School). A completion date
  // is never in the future (the completion schema), so "this month" is every completion from the month's first day.
  const monthStart = startOfMonth(today());
  return {
    role: 'School',
    my_courses: await countCourses(ctx, { school_id: user.user_id }),
    course_completions: await countCompletions(ctx),
    pending_completions: await countCompletions(ctx, { status: 'Pending' }),
    completions_this_month: await countCompletions(ctx, { completed_from: monthStart }),
    month_start: monthStart,
  };
}

/**
 * The Agent's CE cards: every license it holds, the one most in need first (the list's compliance sort: at risk,
 * expired, on track, complete, each by expiration date). ce_progress is the first card's figures (zeros without one).
 */
async function ceCards(ctx: DashboardCtx): Promise<Pick<AgentDashboardStats, 'ce_progress' | 'ce_licenses'>> {
  const ce_licenses = (await listLicenses(ctx, { sort: 'compliance', limit: 100 })).map((l) => ({
    license_id: l.license_id,
    license_number: l.license_number,
    state: l.state,
    license_type: l.license_type,
    expiration_date: l.expiration_date,
    ce_hours_required: l.ce_hours_required,
    ce_hours_completed: l.ce_hours_completed,
    compliance: l.compliance,
  }));
  const first = ce_licenses[0];
  return {
    ce_licenses,
    ce_progress: first
      ? { completed: first.ce_hours_completed, required: first.ce_hours_required, renewal_date: first.expiration_date }
      : { completed: 0, required: 0, renewal_date: null },
  };
}

export async function expiringLicenses(ctx: DashboardCtx, input: ExpiringLicensesInput): Promise<ExpiringLicense[]> {
  const days = input?.days ?? DEFAULT_EXPIRING_WINDOW;
  const limit = input?.limit ?? EXPIRING_CARD_LIMIT;
  const rows = await listLicenses(ctx, { expiring_within: days, sort: 'expiration_date', limit: Number(limit) });
  return rows.map((l) => ({
    license_id: l.license_id,
    user_id: l.user_id,
    first_name: l.first_name,
    last_name: l.last_name,
    license_number: l.license_number,
    state: l.state,
    expiration_date: l.expiration_date,
    days_left: l.compliance.days_left,
    compliance: l.compliance,
  }));
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
        status: payments.status,
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
      completion_date: completions.completion_date,
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
