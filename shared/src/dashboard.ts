/**
 * The dashboard domain: stat objects per role, activity items and expiring licenses (docs/product.md sections
 * 2, 3, 4 and 9), and the screen's strings.
 */
import { z } from 'zod';
import { complianceSchema, COMPLIANCE_STATES } from './compliance.ts';
import { COMPLETION_STATUSES, PAYMENT_STATUSES } from './domain-constants.ts';
import { formatPaymentAmount } from './payments.ts';
import { ROLE } from './roles.ts';

// ---------------------------------------------------------------------------------------------
// Constants (docs/product.md section 9)

export const EXPIRING_WINDOWS = [30, 60, 90] as const;
export const DEFAULT_EXPIRING_WINDOW = 90;
/** The Expiring Licenses card shows at most this many; the API takes a limit. */
export const EXPIRING_CARD_LIMIT = 5;
export const RECENT_ACTIVITY_LIMIT = 10;
/** An expiring item is 'danger' within this many days, otherwise 'warning'. */
export const EXPIRING_DANGER_DAYS = 30;
/** Polling intervals in ms (docs/product.md section 4). */
export const DASHBOARD_REFRESH = { stats: 30_000, activity: 60_000, expiring: 300_000 } as const;

// ---------------------------------------------------------------------------------------------
// Stats by role (docs/product.md section 3); `role` tells the four shapes apart.

export const adminDashboardStats = z.object({
  role: z.literal('Admin'),
  total_users: z.number().int(),
  total_licenses: z.number().int(),
  /** Licenses expiring within settings.license_expiry_warning_days. */
  expiring_licenses: z.number().int(),
  /** The window used for expiring_licenses, in days. */
  expiring_window_days: z.number().int(),
  total_courses: z.number().int(),
  total_completions: z.number().int(),
  pending_completions: z.number().int(),
  /** Licenses in each compliance state (GET /licenses/compliance-summary). */
  compliance: z.object(
    Object.fromEntries(COMPLIANCE_STATES.map((s) => [s, z.number().int()])) as Record<(typeof COMPLIANCE_STATES)[number], z.ZodNumber>,
  ),
});

export const brokerDashboardStats = z.object({
  role: z.literal('Broker'),
  total_agents: z.number().int(),
  agent_licenses: z.number().int(),
  expiring_agent_licenses: z.number().int(),
  expiring_window_days: z.number().int(),
  agent_completions: z.number().int(),
  /** The team's licenses in each compliance state (GET /licenses/compliance-summary). */
  compliance: adminDashboardStats.shape.compliance,
});

export const ceProgressSchema = z.object({
  completed: z.number(),
  required: z.number(),
  /** Expiration date (YYYY-MM-DD) of the license the hours count toward; null without a license. */
  renewal_date: z.string().nullable(),
});
export type CeProgress = z.infer<typeof ceProgressSchema>;

/** One of the Agent's licenses with its CE and compliance, for the dashboard's CE card of that license. */
export const ceLicenseCardSchema = z.object({
  license_id: z.number().int(),
  license_number: z.string(),
  state: z.string(),
  license_type: z.string(),
  expiration_date: z.string(),
  ce_hours_required: z.number(),
  ce_hours_completed: z.number(),
  compliance: complianceSchema,
});
export type CeLicenseCard = z.infer<typeof ceLicenseCardSchema>;

export const agentDashboardStats = z.object({
  role: z.literal('Agent'),
  my_licenses: z.number().int(),
  my_completions: z.number().int(),
  /** Dollars: the sum of the Agent's Completed payments. */
  my_payments: z.number(),
  /** The figures of the license most in need of CE (the first of ce_licenses); zeros without a license. */
  ce_progress: ceProgressSchema,
  /** Every license of the Agent, the one most in need first (at risk, expired, on track, complete). */
  ce_licenses: z.array(ceLicenseCardSchema),
});

export const schoolDashboardStats = z.object({
  role: z.literal('School'),
  my_courses: z.number().int(),
  course_completions: z.number().int(),
  pending_completions: z.number().int(),
  /** Its courses' completions dated on or after month_start (the office's calendar; none is dated in the future). */
  completions_this_month: z.number().int(),
  /** The first day of the office's current month (YYYY-MM-DD). */
  month_start: z.string(),
});

export const dashboardStatsSchema = z.discriminatedUnion('role', [
  adminDashboardStats,
  brokerDashboardStats,
  agentDashboardStats,
  schoolDashboardStats,
]);
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
export type AdminDashboardStats = z.infer<typeof adminDashboardStats>;
export type BrokerDashboardStats = z.infer<typeof brokerDashboardStats>;
export type AgentDashboardStats = z.infer<typeof agentDashboardStats>;
export type SchoolDashboardStats = z.infer<typeof schoolDashboardStats>;

// ---------------------------------------------------------------------------------------------
// Recent activity (docs/product.md section 3: type, timestamp, data)

export const ACTIVITY_TYPES = [
  'user_created',
  'agent_created',
  'license_created',
  'completion_created',
  'course_created',
  'payment_created',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

const personData = { first_name: z.string(), last_name: z.string() };

export const activityItemSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('user_created'),
    timestamp: z.string(),
    data: z.object({ user_id: z.number().int(), ...personData, role_name: z.string() }),
  }),
  z.object({
    type: z.literal('agent_created'),
    timestamp: z.string(),
    data: z.object({ user_id: z.number().int(), ...personData }),
  }),
  z.object({
    type: z.literal('license_created'),
    timestamp: z.string(),
    data: z.object({ license_id: z.number().int(), ...personData, license_number: z.string(), state: z.string() }),
  }),
  z.object({
    type: z.literal('completion_created'),
    timestamp: z.string(),
    data: z.object({
      completion_id: z.number().int(),
      ...personData,
      course_name: z.string(),
      status: z.enum(COMPLETION_STATUSES),
      /** The calendar day the course was completed (YYYY-MM-DD), shown as that day whatever the zone. */
      completion_date: z.string(),
    }),
  }),
  z.object({
    type: z.literal('course_created'),
    timestamp: z.string(),
    data: z.object({ course_id: z.number().int(), course_name: z.string(), provider: z.string() }),
  }),
  z.object({
    type: z.literal('payment_created'),
    timestamp: z.string(),
    data: z.object({
      payment_id: z.number().int(),
      ...personData,
      amount: z.number(),
      payment_type: z.string(),
      status: z.enum(PAYMENT_STATUSES),
    }),
  }),
]);
export type ActivityItem = z.infer<typeof activityItemSchema>;
export const recentActivityOutput = z.array(activityItemSchema);

/**
 * The wording of an activity item, built from its data: a completion says what became of it (recorded and waiting
 * for approval, approved, rejected), a payment that did not go through says so.
 */
export function activityText(item: ActivityItem): string {
  switch (item.type) {
    case 'user_created':
      return `New ${item.data.role_name} ${item.data.first_name} ${item.data.last_name} joined`;
    case 'agent_created':
      return `New agent ${item.data.first_name} ${item.data.last_name} joined the brokerage`;
    case 'license_created':
      return `License ${item.data.license_number} (${item.data.state}) added for ${item.data.first_name} ${item.data.last_name}`;
    case 'completion_created': {
      const who = `${item.data.first_name} ${item.data.last_name}`;
      if (item.data.status === 'Approved') return `Completion of ${item.data.course_name} by ${who} approved`;
      if (item.data.status === 'Rejected') return `Completion of ${item.data.course_name} by ${who} rejected`;
      return `Completion of ${item.data.course_name} by ${who} recorded, awaiting approval`;
    }
    case 'course_created':
      return `New course ${item.data.course_name} by ${item.data.provider}`;
    case 'payment_created': {
      const what = `of ${formatPaymentAmount(item.data.amount)} from ${item.data.first_name} ${item.data.last_name}`;
      // 'Payment of …' when it went through; 'Failed payment of …', 'Pending payment of …', 'Refunded payment of …'.
      return item.data.status === 'Completed' ? `Payment ${what}` : `${item.data.status} payment ${what}`;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Expiring licenses

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** GET /dashboard/expiring-licenses?days=&limit= */
export const expiringLicensesInput = z
  .object({
    days: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'Days must be a number' })
        .int('Days must be a whole number')
        .min(1, 'Days must be at least 1')
        .max(365, 'Days must be at most 365')
        .default(DEFAULT_EXPIRING_WINDOW),
    ),
    limit: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'Limit must be a number' })
        .int('Limit must be a whole number')
        .min(1, 'Limit must be at least 1')
        .max(100, 'Limit must be at most 100')
        .default(EXPIRING_CARD_LIMIT),
    ),
  })
  .optional();
export type ExpiringLicensesInput = z.output<typeof expiringLicensesInput>;

export const expiringLicenseSchema = z.object({
  license_id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  license_number: z.string(),
  state: z.string(),
  expiration_date: z.string(),
  /** Days from the office's today to the expiration date. */
  days_left: z.number().int(),
  compliance: complianceSchema,
});
export type ExpiringLicense = z.infer<typeof expiringLicenseSchema>;
export const expiringLicensesOutput = z.array(expiringLicenseSchema);

/** Badge colour of an expiring item: danger within 30 days, otherwise warning (docs/product.md section 2). */
export function expiringBadgeColor(daysLeft: number): 'red' | 'yellow' {
  return daysLeft <= EXPIRING_DANGER_DAYS ? 'red' : 'yellow';
}

// ---------------------------------------------------------------------------------------------
// Strings

/**
 * Whom the greeting names: a person by first name; a School account by its whole name (a school's name is kept
 * split over first and last name: 'Pacific' + 'Real Estate Academy'), so it is not greeted as 'Pacific'.
 */
export function greetingName(user: { role_id: number; first_name: string; last_name: string }): string {
  return user.role_id === ROLE.School ? `${user.first_name} ${user.last_name}`.trim() : user.first_name;
}

export const DASHBOARD_STRINGS = {
  greeting: (firstName: string) => `Welcome back, ${firstName}!`,
  recentActivity: 'Recent Activity',
  noActivity: 'No recent activity',
  expiringLicenses: 'Expiring Licenses',
  noExpiring: (days: number) => `No licenses expiring in the next ${days} days`,
  viewAllExpiring: (days: number) => `View all expiring within ${days} days`,
  ceProgress: 'Continuing Education Progress',
  things: 'dashboard',
  /** Stat card hints. */
  withinDays: (days: number) => `Within ${days} days`,
  atRiskHint: (days: number) => `CE not done, expiring within ${days} days`,
  expiredHint: 'Past their expiration date',
  completedPayments: 'Completed payments',
  sinceDate: (date: string) => `Since ${date}`,
  /** The date line of a completion in Recent Activity: the day it was completed, not when it was entered. */
  completedOn: (date: string) => `Completed ${date}`,
  pendingApprovals: 'Pending Approvals',
  noPendingApprovals: 'No completions waiting for your approval',
  /** The link under the School's pending approvals to the whole filtered list. */
  allPending: (n: number) => `Review all ${n} pending`,
  /** An Agent's CE card of one license: 'CA Sales · 01234567'. */
  ceLicenseTitle: (state: string, type: string, number: string) => `${state} ${type} · ${number}`,
  /** The hours line under the card's bar: '6 of 24 hours completed'. */
  hoursCompleted: (hoursOf: string) => `${hoursOf} completed`,
  expires: (date: string) => `Expires ${date}`,
  expired: (date: string) => `Expired ${date}`,
  /** Days to the expiration date as the server counts them (negative once past). */
  daysLeft: (days: number) =>
    days < 0 ? `${-days} ${days === -1 ? 'day' : 'days'} ago` : days === 0 ? 'today' : `${days} ${days === 1 ? 'day' : 'days'} left`,
  topicsMissing: 'Topics still needed',
  /** A topic still needed: 'Ethics — 3 h'. */
  topicMissing: (topic: string, hours: string) => `${topic} — ${hours}`,
  /** The pace to finish the cycle in time (shared/src/compliance.ts hoursPerMonth). */
  pace: (hours: string, date: string) => `About ${hours} a month to finish by ${date}`,
  renewalDate: (date: string) => `Renewal date: ${date}`,
  noRenewalDate: 'N/A',
  viewTranscript: 'View transcript',
  viewTranscriptOf: (number: string) => `View transcript of license ${number}`,
} as const;

/** Stat card labels per field. */
export const STAT_LABELS = {
  total_users: 'Total Users',
  total_licenses: 'Total Licenses',
  expiring_licenses: 'Expiring Licenses',
  total_courses: 'Total Courses',
  total_completions: 'Total Completions',
  pending_completions: 'Pending Completions',
  total_agents: 'Total Agents',
  agent_licenses: 'Agent Licenses',
  expiring_agent_licenses: 'Expiring Agent Licenses',
  agent_completions: 'Agent Completions',
  my_licenses: 'My Licenses',
  my_completions: 'My Completions',
  my_payments: 'My Payments',
  my_courses: 'My Courses',
  course_completions: 'Course Completions',
  completions_this_month: 'Completions This Month',
  at_risk: 'At Risk',
  expired: 'Expired',
} as const;
