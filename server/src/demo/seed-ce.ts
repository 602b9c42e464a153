/**
 * Demo CE rules and ledger (docs/decisions.md "CE ledger and cycles"): rules for CA, TX, FL and NY
 * from each state's published requirements, and licenses in every state of a cycle: complete (hours and
 * topics), behind, with adjustments, and renewed with a closed cycle in their history.
 */
import { asc } from 'drizzle-orm';
import { addDays, CE_STRINGS, type CeRuleTopic, type CeTopic, type LicenseType } from '@lm/shared';
import { ceAdjustments, ceRules, completions, courses, licenseCycles, licenses } from '../db/schema/index.ts';
import type { Tx } from '../db/client.ts';
import { audit } from '../core/audit.ts';
import { today } from '../core/dates.ts';
import { refreshAllCeCaches, toCeRule } from '../modules/licenses/ce-ledger.ts';
import type { DemoContext } from './context.ts';

interface DemoRule {
  state: string;
  license_type: LicenseType;
  hours_required: number;
  cycle_years: number;
  topics: CeRuleTopic[];
}

const CA_TOPICS: CeRuleTopic[] = [
  { topic: 'Ethics', hours: 3 },
  { topic: 'Agency', hours: 3 },
  { topic: 'Fair Housing', hours: 3 },
  { topic: 'Trust Fund Handling', hours: 3 },
  { topic: 'Risk Management', hours: 3 },
  { topic: 'Management and Supervision', hours: 3 },
  { topic: 'Implicit Bias', hours: 2 },
  { topic: 'Consumer Protection', hours: 18 },
];
const TX_TOPICS: CeRuleTopic[] = [
  { topic: 'Legal Update I', hours: 4 },
  { topic: 'Legal Update II', hours: 4 },
  { topic: 'Contracts', hours: 3 },
];
const FL_TOPICS: CeRuleTopic[] = [
  { topic: 'Core Law', hours: 3 },
  { topic: 'Ethics and Business Practices', hours: 3 },
];
const NY_TOPICS: CeRuleTopic[] = [
  { topic: 'Fair Housing', hours: 3 },
  { topic: 'Ethics', hours: 2.5 },
  { topic: 'Cultural Competency', hours: 2 },
  { topic: 'Implicit Bias', hours: 2 },
  { topic: 'Agency', hours: 1 },
  { topic: 'Recent Legal Matters', hours: 1 },
];

/** CA: 45 hours per 4 years; TX: 18 per 2 (brokers who supervise add Broker Responsibility); FL: 14 per 2; NY: 22.5 per 2. */
export const DEMO_CE_RULES: DemoRule[] = [
  { state: 'CA', license_type: 'Sales', hours_required: 45, cycle_years: 4, topics: CA_TOPICS },
  { state: 'CA', license_type: 'Broker', hours_required: 45, cycle_years: 4, topics: CA_TOPICS },
  { state: 'TX', license_type: 'Sales', hours_required: 18, cycle_years: 2, topics: TX_TOPICS },
  {
    state: 'TX',
    license_type: 'Broker',
    hours_required: 18,
    cycle_years: 2,
    topics: [...TX_TOPICS.filter((t) => t.topic !== 'Contracts'), { topic: 'Broker Responsibility', hours: 6 }],
  },
  { state: 'FL', license_type: 'Sales', hours_required: 14, cycle_years: 2, topics: FL_TOPICS },
  { state: 'FL', license_type: 'Broker', hours_required: 14, cycle_years: 2, topics: FL_TOPICS },
  { state: 'NY', license_type: 'Sales', hours_required: 22.5, cycle_years: 2, topics: NY_TOPICS },
  { state: 'NY', license_type: 'Broker', hours_required: 22.5, cycle_years: 2, topics: NY_TOPICS },
];

/** The seeded rules, marked as the office's to edit. */
export async function seedCeRules(db: Tx, ctx: DemoContext): Promise<void> {
  for (const r of DEMO_CE_RULES) {
    const row = (
      await db
        .insert(ceRules)
        .values({ ...r, notes: CE_STRINGS.seededNote, created_at: ctx.daysAgo(400) })
        .returning()
    )[0]!;
    await audit(db, { userId: ctx.adminId, ip: '127.0.0.1' }, { action: 'create', table: 'ce_rules', id: row.rule_id, new: toCeRule(row) });
  }
}

export function demoRuleFor(state: string, type: LicenseType): DemoRule | undefined {
  return DEMO_CE_RULES.find((r) => r.state === state && r.license_type === type);
}

/**
 * After the courses and their completions: renewed licenses get their closed cycle (completed with
 * topic courses), some current cycles are completed the same way, some get adjustments, and every
 * cache is computed from the ledger.
 */
export async function seedCeLedger(db: Tx, ctx: DemoContext): Promise<void> {
  const now = today();
  const ip = '127.0.0.1';
  const admin = { userId: ctx.adminId, ip };
  // One in-house course per topic (and one general), for the demo's completed cycles.
  const topicCourse = new Map<CeTopic | null, { course_id: number; ce_hours: number }>();
  const courseFor = async (topic: CeTopic | null, hours: number) => {
    const existing = topicCourse.get(topic);
    if (existing && existing.ce_hours >= hours) return existing;
    const row = (
      await db
        .insert(courses)
        .values({
          course_name: topic ? `${topic} (in-house)` : 'Real Estate Practice Electives (in-house)',
          description: topic
            ? `In-house course covering the state's ${topic} requirement.`
            : 'Elective hours: market trends, financing and technology.',
          provider: 'In-house training',
          ce_hours: Math.max(hours, 3),
          course_type: 'Webinar',
          cost_cents: 0,
          school_id: null,
          topic,
          created_at: ctx.daysAgo(1500),
        })
        .returning()
    )[0]!;
    await audit(db, admin, { action: 'create', table: 'courses', id: row.course_id, new: row });
    topicCourse.set(topic, row);
    return row;
  };
  const approved = async (userId: number, licenseId: number, topic: CeTopic | null, hours: number, date: string) => {
    const course = await courseFor(topic, hours);
    const row = (
      await db
        .insert(completions)
        .values({
          user_id: userId,
          course_id: course.course_id,
          license_id: licenseId,
          completion_date: date,
          hours,
          status: 'Approved',
          reviewed_by: ctx.adminId,
          reviewed_at: `${date}T16:00:00.000Z`,
          note: 'Certificate verified',
          created_at: `${date}T12:00:00.000Z`,
        })
        .returning()
    )[0]!;
    await audit(db, admin, { action: 'update_approve', table: 'completions', id: row.completion_id, new: row });
  };
  /** Approved completions covering every topic and the rest of the hours, dated inside [from, to]. */
  const complete = async (userId: number, licenseId: number, required: number, topics: CeRuleTopic[], from: string, to: string) => {
    let day = 0;
    const next = () => {
      const d = addDays(from, 5 + day * 11);
      day++;
      return d > to ? to : d;
    };
    let rest = required;
    for (const t of topics) {
      await approved(userId, licenseId, t.topic, t.hours, next());
      rest -= t.hours;
    }
    while (rest > 0) {
      const h = Math.min(rest, 6);
      await approved(userId, licenseId, null, h, next());
      rest = Math.round((rest - h) * 100) / 100;
    }
  };

  const all = await db.select().from(licenses).orderBy(asc(licenses.license_id));
  for (const [i, l] of all.entries()) {
    const rule = demoRuleFor(l.state, l.license_type);
    const topics = rule?.topics ?? [];
    // Renewed with history: seedLicensing started the current cycle on the previous expiration date.
    if (l.cycle_start_date !== l.issue_date) {
      const closedAt = l.renewed_at ?? `${l.cycle_start_date}T10:00:00.000Z`;
      const cycle = (
        await db
          .insert(licenseCycles)
          .values({
            license_id: l.license_id,
            start_date: l.issue_date,
            end_date: l.cycle_start_date,
            required: l.ce_hours_required,
            completed: l.ce_hours_required,
            topics: topics.map((t) => ({ topic: t.topic, required: t.hours, completed: t.hours, remaining: 0 })),
            rule: null,
            closed_by: ctx.adminId,
            closed_at: closedAt,
            renewed_with_ce_outstanding: false,
          })
          .returning()
      )[0]!;
      await audit(db, admin, { action: 'close_cycle', table: 'license_cycles', id: cycle.cycle_id, new: cycle });
      await complete(l.user_id, l.license_id, l.ce_hours_required, topics, l.issue_date, addDays(l.cycle_start_date, -10));
    }
    // The current cycle counts from the day after a renewal's boundary (docs/decisions.md).
    const countsFrom = l.cycle_start_date !== l.issue_date ? addDays(l.cycle_start_date, 1) : l.cycle_start_date;
    const to = l.expiration_date < now ? l.expiration_date : now;
    // Complete: every fifth license, ready for its renewal.
    if (i % 5 === 1 && countsFrom < to) {
      await complete(l.user_id, l.license_id, l.ce_hours_required, topics, countsFrom, to);
      continue;
    }
    // With adjustments: every third license, one credit and now and then a correction.
    if (i % 3 === 0) {
      const credit = Math.min(l.ce_hours_required, Math.max(1, Math.round(l.ce_hours_required * 0.3 * 2) / 2));
      if (credit > 0) {
        const row = (
          await db
            .insert(ceAdjustments)
            .values({
              license_id: l.license_id,
              cycle_start_date: l.cycle_start_date,
              hours: credit,
              reason: 'Out-of-state course certificates accepted by the office',
              created_by: ctx.adminId,
              created_at: `${addDays(countsFrom, 20) < to ? addDays(countsFrom, 20) : to}T15:00:00.000Z`,
            })
            .returning()
        )[0]!;
        await audit(db, admin, { action: 'create', table: 'ce_adjustments', id: row.adjustment_id, new: row });
        if (i % 2 === 0 && credit >= 1) {
          const fix = (
            await db
              .insert(ceAdjustments)
              .values({
                license_id: l.license_id,
                cycle_start_date: l.cycle_start_date,
                hours: -1,
                reason: 'Duplicate certificate counted twice',
                created_by: ctx.adminId,
                created_at: `${to}T09:30:00.000Z`,
              })
              .returning()
          )[0]!;
          await audit(db, admin, { action: 'create', table: 'ce_adjustments', id: fix.adjustment_id, new: fix });
        }
      }
    }
  }
  await refreshAllCeCaches(db);
}
