/**
 * The CE ledger (docs/decisions.md "CE ledger and cycles"): the one module that computes a license's
 * cycle figures. Nothing here stores a free counter: the hours completed in a cycle are the Approved
 * completions linked to the license dated inside the cycle plus the cycle's adjustments.
 * `licenses.ce_hours_completed` is an exact cache of the current cycle's sum, rewritten by
 * refreshCeCache inside every transaction that changes one of its sources.
 *
 * Cycles: the first runs from the issue date to the first expiration date, both days included; each
 * renewed cycle starts on the previous expiration date but counts from the day after it, so the
 * boundary day belongs to the cycle that ends on it (exactly one cycle).
 *
 * What counts (docs/decisions.md "Compliance"): only completions of the license's holder (CE belongs to the
 * person who earned it); a late completion (credit_cycle_start set) counts in the cycle it names instead of the
 * cycle of its date; a course counts once per cycle unless the state rule allows repeat credit (a repeat is
 * listed with 0 credited hours).
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  DEFAULT_CYCLE_YEARS,
  roundHours,
  type CeAdjustment,
  type CeRule,
  type CeRuleTopic,
  type CeTopic,
  type CycleFigures,
  type Transcript,
  type TranscriptClosedCycle,
  type TranscriptCompletion,
  type TopicMissing,
} from '@lm/shared';
import { ceAdjustments, ceRules, completions, courses, licenseCycles, licenses, users } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { conflict } from '../../base/errors.ts';
import { preparedShapes } from '../../db/prepared.ts';

type LicenseRow = typeof licenses.$inferSelect;
type CycleRow = typeof licenseCycles.$inferSelect;
type RuleRow = typeof ceRules.$inferSelect;

/** One cycle of a license: closed (a license_cycles row) or the current one. */
export interface Cycle {
  start_date: string;
  end_date: string;
  /** The first day whose completions count: the start itself for the first cycle, the day after for renewed ones. */
  counts_from: string;
  closed: CycleRow | null;
}

/** A completion as the ledger reads it, before its cycle decides what it is credited. */
type LedgerCompletion = Omit<TranscriptCompletion, 'credited_hours' | 'repeat' | 'late'> & { credit_cycle_start: string | null };

interface LedgerSources {
  license: LicenseRow;
  closed: CycleRow[];
  completions: LedgerCompletion[];
  adjustments: Array<CeAdjustment & { cycle_start_date: string }>;
  rule: RuleRow | undefined;
}

const nameOf = (first: string | null, last: string | null) => (first === null ? null : `${first} ${last ?? ''}`.trim());

// ---------------------------------------------------------------------------------------------
// Rules

/** The state CE rule of a state and license type, if the office keeps one. */
/** The rule of a state and license type, prepared once per connection (every license create and renewal reads it). */
const ruleRead = preparedShapes<'rule', { state: string; type: string }, RuleRow[]>('ce_rule_for', (d) =>
  d
    .select()
    .from(ceRules)
    .where(and(eq(ceRules.state, sql.placeholder('state')), eq(ceRules.license_type, sql.placeholder('type')))),
);

export async function ruleFor(db: DbOrTx, state: string, licenseType: LicenseRow['license_type']): Promise<RuleRow | undefined> {
  const [row] = await ruleRead(db, 'rule', { state, type: licenseType });
  return row;
}

export function toCeRule(row: RuleRow): CeRule {
  return { ...row, topics: row.topics ?? [] };
}

/** Cycle length in years: the rule's, else two. */
export function cycleYearsOf(rule: RuleRow | undefined): number {
  return rule?.cycle_years ?? DEFAULT_CYCLE_YEARS;
}

// ---------------------------------------------------------------------------------------------
// Loading

function loadCompletions(db: DbOrTx, licenseIds: number[]) {
  return (
    db
      .select({
        license_id: completions.license_id,
        completion_id: completions.completion_id,
        course_id: completions.course_id,
        course_name: courses.course_name,
        provider: courses.provider,
        topic: courses.topic,
        completion_date: completions.completion_date,
        hours: completions.hours,
        credit_cycle_start: completions.credit_cycle_start,
      })
      .from(completions)
      .innerJoin(courses, eq(courses.course_id, completions.course_id))
      // CE belongs to the person who earned it: a completion counts toward a license only while its holder took it.
      .innerJoin(licenses, and(eq(licenses.license_id, completions.license_id), eq(licenses.user_id, completions.user_id)))
      .where(and(inArray(completions.license_id, licenseIds), eq(completions.status, 'Approved')))
      .orderBy(asc(completions.completion_date), asc(completions.completion_id))
  );
}

function loadAdjustments(db: DbOrTx, licenseIds: number[]) {
  return db
    .select({
      adjustment_id: ceAdjustments.adjustment_id,
      license_id: ceAdjustments.license_id,
      cycle_start_date: ceAdjustments.cycle_start_date,
      hours: ceAdjustments.hours,
      reason: ceAdjustments.reason,
      created_by: ceAdjustments.created_by,
      first_name: users.first_name,
      last_name: users.last_name,
      created_at: ceAdjustments.created_at,
    })
    .from(ceAdjustments)
    .leftJoin(users, eq(users.user_id, ceAdjustments.created_by))
    .where(inArray(ceAdjustments.license_id, licenseIds))
    .orderBy(asc(ceAdjustments.created_at), asc(ceAdjustments.adjustment_id));
}

function loadClosed(db: DbOrTx, licenseIds: number[]) {
  return db
    .select()
    .from(licenseCycles)
    .where(inArray(licenseCycles.license_id, licenseIds))
    .orderBy(asc(licenseCycles.start_date), asc(licenseCycles.cycle_id));
}

type AdjustmentRow = Awaited<ReturnType<typeof loadAdjustments>>[number];

function toAdjustment(a: AdjustmentRow): CeAdjustment & { cycle_start_date: string } {
  return {
    adjustment_id: a.adjustment_id,
    license_id: a.license_id,
    cycle_start_date: a.cycle_start_date,
    hours: a.hours,
    reason: a.reason,
    created_by: a.created_by,
    created_by_name: nameOf(a.first_name, a.last_name),
    created_at: a.created_at,
  };
}

function groupBy<T>(rows: T[], key: (r: T) => number | null): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    if (k === null) continue;
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** Everything the figures of some licenses derive from, in four queries whatever the count. */
async function loadSources(db: DbOrTx, licenseRows: LicenseRow[]): Promise<LedgerSources[]> {
  if (licenseRows.length === 0) return [];
  const ids = licenseRows.map((l) => l.license_id);
  const all: LedgerSources[] = [];
  // SQLite limits bound parameters; chunks keep a restore of many licenses within it.
  const rules = await db.select().from(ceRules);
  const ruleKey = (state: string, type: string) => `${state}|${type}`;
  const ruleMap = new Map(rules.map((r) => [ruleKey(r.state, r.license_type), r]));
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const closed = groupBy(await loadClosed(db, chunk), (r) => r.license_id);
    const comps = groupBy(await loadCompletions(db, chunk), (r) => r.license_id);
    const adjs = groupBy(await loadAdjustments(db, chunk), (r) => r.license_id);
    for (const license of licenseRows.slice(i, i + 500)) {
      all.push({
        license,
        closed: closed.get(license.license_id) ?? [],
        completions: (comps.get(license.license_id) ?? []).map(({ license_id: _l, ...c }) => ({
          ...c,
          topic: c.topic as CeTopic | null,
        })),
        adjustments: (adjs.get(license.license_id) ?? []).map(toAdjustment),
        rule: ruleMap.get(ruleKey(license.state, license.license_type)),
      });
    }
  }
  return all;
}

// ---------------------------------------------------------------------------------------------
// Figures

/** The cycles of a license, oldest first; the last is the current one. */
export function cyclesOf(license: LicenseRow, closed: CycleRow[]): Cycle[] {
  const cycles: Cycle[] = closed.map((c, i) => ({
    start_date: c.start_date,
    end_date: c.end_date,
    counts_from: i === 0 ? c.start_date : addDays(c.start_date, 1),
    closed: c,
  }));
  cycles.push({
    start_date: license.cycle_start_date,
    end_date: license.expiration_date,
    counts_from: closed.length === 0 ? license.cycle_start_date : addDays(license.cycle_start_date, 1),
    closed: null,
  });
  return cycles;
}

/** The cycle a date falls in, if any. */
export function cycleContaining(cycles: Cycle[], date: string): Cycle | undefined {
  return cycles.find((c) => c.counts_from <= date && date <= c.end_date);
}

interface ComputedCycle {
  cycle: Cycle;
  figures: CycleFigures;
  completions: TranscriptCompletion[];
  adjustments: CeAdjustment[];
}

/** Whether a completion belongs to a cycle: the cycle it names if late, else the cycle of its date. */
function inCycle(c: LedgerCompletion, cycle: Cycle): boolean {
  if (c.credit_cycle_start !== null) return c.credit_cycle_start === cycle.start_date;
  return cycle.counts_from <= c.completion_date && c.completion_date <= cycle.end_date;
}

/** A cycle's completions with what each is credited: a course counts once per cycle unless repeats are allowed. */
function credited(comps: LedgerCompletion[], allowRepeats: boolean): TranscriptCompletion[] {
  const seen = new Set<number>();
  return comps.map(({ credit_cycle_start, ...c }) => {
    const repeat = !allowRepeats && seen.has(c.course_id);
    seen.add(c.course_id);
    return { ...c, credited_hours: repeat ? 0 : c.hours, repeat, late: credit_cycle_start !== null };
  });
}

function figuresOf(
  cycle: Cycle,
  required: number,
  topicRequirements: Array<{ topic: CeTopic; required: number }>,
  rule: CycleFigures['rule'],
  comps: TranscriptCompletion[],
  adjs: CeAdjustment[],
): CycleFigures {
  const completed = roundHours(comps.reduce((s, c) => s + c.credited_hours, 0) + adjs.reduce((s, a) => s + a.hours, 0));
  const topics = topicRequirements.map((t) => {
    const done = roundHours(comps.filter((c) => c.topic === t.topic).reduce((s, c) => s + c.credited_hours, 0));
    return { topic: t.topic, required: t.required, completed: done, remaining: roundHours(Math.max(0, t.required - done)) };
  });
  const remaining = roundHours(Math.max(0, required - completed));
  return {
    start_date: cycle.start_date,
    end_date: cycle.end_date,
    required,
    completed,
    remaining,
    complete: remaining === 0 && topics.every((t) => t.remaining === 0),
    rule,
    topics,
  };
}

const ruleRef = (r: RuleRow | undefined): CycleFigures['rule'] =>
  r ? { rule_id: r.rule_id, state: r.state, license_type: r.license_type } : null;

const topicRequirementsOf = (topics: CeRuleTopic[]) => topics.map((t) => ({ topic: t.topic, required: t.hours }));

/** Every cycle of a license with its figures, oldest first (the last is the current one). */
function compute(src: LedgerSources): ComputedCycle[] {
  const cycles = cyclesOf(src.license, src.closed);
  const allowRepeats = src.rule?.allow_repeat_credit ?? false;
  return cycles.map((cycle) => {
    const comps = credited(
      src.completions.filter((c) => inCycle(c, cycle)),
      allowRepeats,
    );
    const adjs = src.adjustments
      .filter((a) => a.cycle_start_date === cycle.start_date)
      .map(({ cycle_start_date: _c, ...a }) => a as CeAdjustment);
    const figures = cycle.closed
      ? figuresOf(
          cycle,
          cycle.closed.required,
          (cycle.closed.topics ?? []).map((t) => ({ topic: t.topic, required: t.required })),
          cycle.closed.rule ?? null,
          comps,
          adjs,
        )
      : figuresOf(cycle, src.license.ce_hours_required, topicRequirementsOf(src.rule?.topics ?? []), ruleRef(src.rule), comps, adjs);
    return { cycle, figures, completions: comps, adjustments: adjs };
  });
}

async function licenseRow(db: DbOrTx, licenseId: number): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(licenses).where(eq(licenses.license_id, licenseId));
  return row;
}

async function computeOne(db: DbOrTx, licenseId: number): Promise<ComputedCycle[] | null> {
  const row = await licenseRow(db, licenseId);
  if (!row) return null;
  return compute((await loadSources(db, [row]))[0]!);
}

/** The current cycle's figures of a license (null when it does not exist). */
export async function cycleFigures(db: DbOrTx, licenseId: number): Promise<CycleFigures | null> {
  const computed = await computeOne(db, licenseId);
  return computed ? computed[computed.length - 1]!.figures : null;
}

/** The cycles of a license with their figures, for checks that need the cycle of a date. */
export async function ledgerOf(db: DbOrTx, licenseId: number): Promise<{ cycles: Cycle[]; figures: CycleFigures[] } | null> {
  const computed = await computeOne(db, licenseId);
  return computed ? { cycles: computed.map((c) => c.cycle), figures: computed.map((c) => c.figures) } : null;
}

/** The transcript body (the license itself is added by the service, with its holder's names). */
export async function transcriptOf(db: DbOrTx, licenseId: number): Promise<Omit<Transcript, 'license'> | null> {
  const computed = await computeOne(db, licenseId);
  if (!computed) return null;
  const current = computed[computed.length - 1]!;
  const closers = new Map(
    (
      await db
        .select({ user_id: users.user_id, first_name: users.first_name, last_name: users.last_name })
        .from(users)
        .where(
          inArray(
            users.user_id,
            computed.map((c) => c.cycle.closed?.closed_by ?? -1),
          ),
        )
    ).map((u) => [u.user_id, nameOf(u.first_name, u.last_name)]),
  );
  const closed: TranscriptClosedCycle[] = computed
    .slice(0, -1)
    .reverse()
    .map((c) => ({
      ...c.figures,
      completions: c.completions,
      adjustments: c.adjustments,
      cycle_id: c.cycle.closed!.cycle_id,
      closed_at: c.cycle.closed!.closed_at,
      closed_by: c.cycle.closed!.closed_by,
      closed_by_name: c.cycle.closed!.closed_by === null ? null : (closers.get(c.cycle.closed!.closed_by) ?? null),
      renewed_with_ce_outstanding: c.cycle.closed!.renewed_with_ce_outstanding,
    }));
  return { current: { ...current.figures, completions: current.completions, adjustments: current.adjustments }, closed };
}

// ---------------------------------------------------------------------------------------------
// The cache

/** The 409 of a change that would leave a cycle below 0 hours (nothing is clamped). */
export function belowZeroError(figures: CycleFigures) {
  return conflict(
    `This change would leave the CE cycle from ${figures.start_date} to ${figures.end_date} at ${figures.completed} hours; a cycle cannot go below 0. Record a positive adjustment or undo an earlier one first.`,
  );
}

/** The current cycle's figures, after checking that no cycle is below 0 hours. */
function checkedCurrent(computed: ComputedCycle[]): CycleFigures {
  for (const c of computed) if (c.figures.completed < 0) throw belowZeroError(c.figures);
  return computed[computed.length - 1]!.figures;
}

/** The current cycle's required topics still missing, with their hours (the licenses.ce_topics_missing cache). */
export function topicsMissingOf(figures: Pick<CycleFigures, 'topics'>): TopicMissing[] {
  return figures.topics.filter((t) => t.remaining > 0).map((t) => ({ topic: t.topic, hours: t.remaining }));
}

/** The cached columns of a license's current cycle (what compliance reads), from its figures. */
export function ceCacheOf(figures: CycleFigures) {
  const missing = topicsMissingOf(figures);
  return {
    ce_hours_completed: figures.completed,
    ce_topics_missing: missing,
    ce_topic_hours_missing: roundHours(missing.reduce((s, t) => s + t.hours, 0)),
  };
}

const sameCache = (row: LicenseRow, cache: ReturnType<typeof ceCacheOf>) =>
  row.ce_hours_completed === cache.ce_hours_completed &&
  row.ce_topic_hours_missing === cache.ce_topic_hours_missing &&
  JSON.stringify(row.ce_topics_missing) === JSON.stringify(cache.ce_topics_missing);

async function writeCache(tx: Tx, row: LicenseRow, figures: CycleFigures, touch = true): Promise<boolean> {
  const cache = ceCacheOf(figures);
  if (sameCache(row, cache)) return false;
  // updated_at moves too: the hours and compliance are part of the license's answer, so a sync's updated_since
  // (docs/api.md "Changes since") sees the change. A restore's or a migration's recomputation (touch false) repairs
  // derived figures of the rows it brought back as they were, and keeps their updated_at.
  await tx
    .update(licenses)
    .set(touch ? cache : { ...cache, updated_at: sql`${licenses.updated_at}` })
    .where(eq(licenses.license_id, row.license_id));
  return true;
}

/**
 * Rewrites the current cycle's caches on the license (ce_hours_completed and the topics still missing) from the
 * ledger. Call it inside the transaction of every change to a source (completion review, adjustment, renewal,
 * license dates, state or type, restore). Throws 409 (the caller's transaction rolls back) when any cycle of the
 * license would go below 0 hours. Returns the current cycle's figures, or null when the license does not exist.
 */
export async function refreshCeCache(tx: Tx, licenseId: number): Promise<CycleFigures | null> {
  const row = await licenseRow(tx, licenseId);
  if (!row) return null;
  const figures = checkedCurrent(compute((await loadSources(tx, [row]))[0]!));
  await writeCache(tx, row, figures);
  return figures;
}

/** refreshCeCache for many licenses (all of them when no condition is given): returns how many caches changed. */
export async function refreshCeCaches(tx: Tx, where?: SQL, touch = true): Promise<number> {
  const rows = await tx.select().from(licenses).where(where);
  let changed = 0;
  for (const src of await loadSources(tx, rows)) {
    if (await writeCache(tx, src.license, checkedCurrent(compute(src)), touch)) changed++;
  }
  return changed;
}

/** refreshCeCache for every license (after a restore, a migration), keeping updated_at: how many caches changed. */
export function refreshAllCeCaches(tx: Tx): Promise<number> {
  return refreshCeCaches(tx, undefined, false);
}

/** The licenses a state rule applies to (their current cycles read its topics). */
export function ruleLicenses(state: string, licenseType: LicenseRow['license_type']): SQL {
  return and(eq(licenses.state, state), eq(licenses.license_type, licenseType))!;
}

/** The derived sums of every license's current cycle, for tests and checks: license_id → completed. */
export async function derivedCurrentSums(db: DbOrTx): Promise<Map<number, number>> {
  const rows = await db.select().from(licenses);
  return new Map((await loadSources(db, rows)).map((src) => [src.license.license_id, compute(src).at(-1)!.figures.completed]));
}
