/**
 * CE as a ledger, per cycle (docs/decisions.md "CE ledger and cycles"): state CE rules, manual
 * adjustments, the renewal preview and the transcript of a license.
 *
 * A license's current cycle runs from `cycle_start_date` to `expiration_date`. The hours completed
 * in a cycle are derived: Approved completions linked to the license dated inside the cycle, plus
 * the cycle's adjustments. The boundary day (a renewal's previous expiration date) belongs to the
 * cycle that ends on it, so a renewed cycle counts completions dated strictly after its start date.
 */
import { z } from 'zod';
import { optionalLine, singleLine } from './text.ts';
import { idParam, paginationSchema, cursorParam } from './common.ts';
import { LICENSE_TYPES } from './domain-constants.ts';
import { licenseSchema } from './licenses.ts';

// ---------------------------------------------------------------------------------------------
// Topics

import { CE_TOPICS, roundHours } from './domain-constants.ts';

/** Cycle length in years where no state rule says otherwise (the renewal period of docs/decisions.md). */
export const DEFAULT_CYCLE_YEARS = 2;

/** The reason recorded when the license form's "CE hours completed" field is changed. */
export const FORM_ADJUSTMENT_REASON = 'edited on the license form';
/** The reason of the adjustments the CE ledger migration wrote for counters it could not explain. */
export const CARRIED_OVER_REASON = 'carried over from before the CE ledger';

// ---------------------------------------------------------------------------------------------
// Strings

export const CE_MESSAGES = {
  topicInvalid: `Topic must be one of ${CE_TOPICS.join(', ')}`,
  /** A rule's topic row without a topic: a missing choice, not a wrong one. */
  topicRequired: 'Choose a topic',
  topicDuplicate: 'Each topic may appear only once in a rule',
  topicHoursPositive: 'Topic hours must be greater than 0',
  topicsOverTotal: "The topics' hours cannot exceed the hours required per cycle",
  hoursRequiredNumber: 'Hours required must be a number from 0 to 1000',
  cycleYearsRange: 'Cycle length must be a whole number of years from 1 to 10',
  stateFormat: 'State must be a two-letter code',
  ruleDuplicate: (state: string, type: string) => `A CE rule for ${state} ${type} licenses already exists`,
  ruleNotFound: 'CE rule not found',
  adjustmentHoursNonZero: 'Hours must be a number other than 0',
  adjustmentReasonRequired: 'Reason is required',
  /** A negative adjustment (or a review change) that would leave the cycle below 0 hours. */
  belowZero: (inCycle: number, change: number) =>
    `This cycle has ${inCycle} CE ${inCycle === 1 ? 'hour' : 'hours'}; taking ${Math.abs(change)} away would leave it below 0.`,
  incomplete: (completed: number, required: number) =>
    `CE for this cycle is incomplete: ${completed} of ${required} hours completed. Renew anyway to continue.`,
  completionOutsideCycle: (from: string, to: string) =>
    `Completion date must fall within a CE cycle of the license (from ${from} to ${to})`,
  expirationBeforeCycle: (start: string) => `Expiration date must be after the current CE cycle's start (${start})`,
  lateNeedsLicense: 'A late completion must name the license whose cycle it completes',
  lateNoCycle: (start: string) => `No CE cycle of this license starts on ${start}`,
  lateNotLate: (end: string) => `This completion is dated within that cycle (it ends ${end}): it counts there without late credit`,
  lateCycleComplete: (from: string, to: string) =>
    `The CE cycle from ${from} to ${to} is already complete: late credit is only for a cycle that is short`,
} as const;

export const CE_STRINGS = {
  rulesTitle: 'State CE Rules',
  addRule: 'Add CE Rule',
  editRule: 'Edit CE Rule',
  ruleCreated: 'CE rule created successfully!',
  ruleUpdated: 'CE rule updated successfully!',
  ruleDeleted: 'CE rule deleted successfully!',
  confirmDeleteRule: 'Are you sure you want to delete this CE rule?',
  seededNote: "Seeded from the state's published requirements; edit to match your office's reading.",
  transcript: 'CE Transcript',
  adjust: 'Adjust CE Hours',
  adjusted: 'CE hours adjusted successfully!',
  renewConfirm: 'Renew License',
  renewAnyway: 'Renew anyway',
  renewOutstanding: 'Renew with CE outstanding',
  createRule: 'Create Rule',
  updateRule: 'Update Rule',
  adjustFailed: 'Failed to adjust CE hours',
  downloadFailed: 'Failed to download the transcript',
  saveRuleFailed: 'Failed to save CE rule',
  deleteRuleFailed: 'Failed to delete CE rule',
} as const;

/** transcript_{license_number}_{date}.csv, with characters a file name cannot hold replaced. */
export function transcriptFileName(licenseNumber: string, date: string): string {
  return `transcript_${licenseNumber.replace(/[^A-Za-z0-9._-]/g, '_')}_${date}.csv`;
}

// ---------------------------------------------------------------------------------------------
// State CE rules

export const ceTopicSchema = z.enum(CE_TOPICS, { error: CE_MESSAGES.topicInvalid });

const topicHours = z
  .number({ error: CE_MESSAGES.topicHoursPositive })
  .gt(0, CE_MESSAGES.topicHoursPositive)
  .max(1000, CE_MESSAGES.topicHoursPositive);

export const ceRuleTopicSchema = z.object({
  topic: z.enum(CE_TOPICS, { error: (issue) => (issue.input == null ? CE_MESSAGES.topicRequired : CE_MESSAGES.topicInvalid) }),
  hours: topicHours,
});
export type CeRuleTopic = z.infer<typeof ceRuleTopicSchema>;

export const ceRuleSchema = z.object({
  rule_id: z.number().int(),
  state: z.string(),
  license_type: z.enum(LICENSE_TYPES),
  hours_required: z.number(),
  cycle_years: z.number().int(),
  topics: z.array(ceRuleTopicSchema),
  /** A course completed again within one cycle counts again (most states say no: docs/decisions.md "Compliance"). */
  allow_repeat_credit: z.boolean(),
  notes: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CeRule = z.infer<typeof ceRuleSchema>;

/** The CE rules list's sortable columns (the service breaks ties on the id); topics is a list and does not sort. */
export const CE_RULE_SORT_COLUMNS = ['state', 'license_type', 'hours_required', 'cycle_years', 'topic_count', 'notes'] as const;
export type CeRuleSortColumn = (typeof CE_RULE_SORT_COLUMNS)[number];

/** GET /ce-rules/page (and the CSV export, which ignores page and limit). By state, then license type, by default. */
export const ceRulePageQuery = z.object({
  state: singleLine(2).toUpperCase().optional(),
  license_type: z.enum(LICENSE_TYPES).optional(),
  sort: z.enum(CE_RULE_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type CeRulePageQuery = z.input<typeof ceRulePageQuery>;

export const ceRulePageOutput = z.object({ rules: z.array(ceRuleSchema), pagination: paginationSchema });
export type CeRulePage = z.infer<typeof ceRulePageOutput>;

const topicsList = z
  .array(ceRuleTopicSchema)
  .max(CE_TOPICS.length)
  .refine((ts) => new Set(ts.map((t) => t.topic)).size === ts.length, CE_MESSAGES.topicDuplicate);

const ruleFields = {
  state: singleLine({ max: 2, required: CE_MESSAGES.stateFormat, tooLong: CE_MESSAGES.stateFormat })
    .regex(/^[A-Za-z]{2}$/, CE_MESSAGES.stateFormat)
    .toUpperCase(),
  license_type: z.enum(LICENSE_TYPES),
  hours_required: z
    .number({ error: CE_MESSAGES.hoursRequiredNumber })
    .min(0, CE_MESSAGES.hoursRequiredNumber)
    .max(1000, CE_MESSAGES.hoursRequiredNumber),
  cycle_years: z
    .number({ error: CE_MESSAGES.cycleYearsRange })
    .int(CE_MESSAGES.cycleYearsRange)
    .min(1, CE_MESSAGES.cycleYearsRange)
    .max(10, CE_MESSAGES.cycleYearsRange),
  topics: topicsList,
  allow_repeat_credit: z.boolean(),
  notes: optionalLine(1000, 'multi'),
};

/** True when the topics' hours fit in the hours required per cycle. */
export function topicsFit(topics: readonly CeRuleTopic[], hoursRequired: number): boolean {
  return roundHours(topics.reduce((s, t) => s + t.hours, 0)) <= hoursRequired;
}

/** POST /ce-rules (the rule form validates with this too). */
export const ceRuleCreateInput = z
  .object({
    ...ruleFields,
    license_type: ruleFields.license_type.default('Sales'),
    cycle_years: ruleFields.cycle_years.default(DEFAULT_CYCLE_YEARS),
    topics: ruleFields.topics.default([]),
    allow_repeat_credit: ruleFields.allow_repeat_credit.default(false),
  })
  .refine((r) => topicsFit(r.topics, r.hours_required), { message: CE_MESSAGES.topicsOverTotal, path: ['topics'] });
export type CeRuleCreateInput = z.input<typeof ceRuleCreateInput>;

/** PUT /ce-rules/{id}: any subset; the server checks the topics against the merged hours. */
export const ceRuleUpdateInput = z.object({ id: idParam }).extend(z.object(ruleFields).partial().shape);
export type CeRuleUpdateInput = z.input<typeof ceRuleUpdateInput>;

// ---------------------------------------------------------------------------------------------
// Adjustments

export const ceAdjustmentSchema = z.object({
  adjustment_id: z.number().int(),
  license_id: z.number().int(),
  /** Signed: negative takes hours away. */
  hours: z.number(),
  reason: z.string(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type CeAdjustment = z.infer<typeof ceAdjustmentSchema>;

/** POST /licenses/{id}/adjustments: a signed, non-zero number of hours with a reason. */
export const ceAdjustInput = z.object({
  id: idParam,
  hours: z
    .number({ error: CE_MESSAGES.adjustmentHoursNonZero })
    .min(-10_000, CE_MESSAGES.adjustmentHoursNonZero)
    .max(10_000, CE_MESSAGES.adjustmentHoursNonZero)
    .refine((h) => roundHours(h) !== 0, CE_MESSAGES.adjustmentHoursNonZero),
  reason: singleLine({ max: 500, required: CE_MESSAGES.adjustmentReasonRequired, tooLong: 'Reason must be 500 characters or less' }),
});
export type CeAdjustInput = z.input<typeof ceAdjustInput>;

// ---------------------------------------------------------------------------------------------
// Cycle figures, transcript, renewal preview

export const cycleTopicFiguresSchema = z.object({
  topic: ceTopicSchema,
  required: z.number(),
  completed: z.number(),
  remaining: z.number(),
});
export type CycleTopicFigures = z.infer<typeof cycleTopicFiguresSchema>;

export const cycleFiguresSchema = z.object({
  start_date: z.string(),
  end_date: z.string(),
  required: z.number(),
  completed: z.number(),
  /** max(0, required - completed). */
  remaining: z.number(),
  /** Hours and every topic done. */
  complete: z.boolean(),
  /** The state rule the topics come from (null: the license's own required hours, no topics). */
  rule: z.object({ rule_id: z.number().int(), state: z.string(), license_type: z.enum(LICENSE_TYPES) }).nullable(),
  topics: z.array(cycleTopicFiguresSchema),
});
export type CycleFigures = z.infer<typeof cycleFiguresSchema>;

export const transcriptCompletionSchema = z.object({
  completion_id: z.number().int(),
  course_id: z.number().int(),
  course_name: z.string(),
  provider: z.string(),
  topic: ceTopicSchema.nullable(),
  completion_date: z.string(),
  hours: z.number(),
  /** The hours this completion counts in its cycle: 0 for a repeat of a course already credited in the cycle. */
  credited_hours: z.number(),
  /** The same course was already credited in this cycle and the state rule does not allow repeat credit. */
  repeat: z.boolean(),
  /** A late completion: dated after its cycle ended, applied to that cycle (docs/decisions.md "Compliance"). */
  late: z.boolean(),
});
export type TranscriptCompletion = z.infer<typeof transcriptCompletionSchema>;

export const transcriptCurrentCycleSchema = cycleFiguresSchema.extend({
  completions: z.array(transcriptCompletionSchema),
  adjustments: z.array(ceAdjustmentSchema),
});
export type TranscriptCurrentCycle = z.infer<typeof transcriptCurrentCycleSchema>;

export const transcriptClosedCycleSchema = transcriptCurrentCycleSchema.extend({
  cycle_id: z.number().int(),
  closed_at: z.string(),
  closed_by: z.number().int().nullable(),
  closed_by_name: z.string().nullable(),
  renewed_with_ce_outstanding: z.boolean(),
});
export type TranscriptClosedCycle = z.infer<typeof transcriptClosedCycleSchema>;

/** GET /licenses/{id}/transcript: the current cycle and every closed one, newest first. */
export const transcriptSchema = z.object({
  license: licenseSchema,
  current: transcriptCurrentCycleSchema,
  closed: z.array(transcriptClosedCycleSchema),
});
export type Transcript = z.infer<typeof transcriptSchema>;

/** GET /licenses/{id}/renewal-preview: what Renew would do, for the confirmation. */
export const renewalPreviewSchema = z.object({
  license_id: z.number().int(),
  current_expiration_date: z.string(),
  new_expiration_date: z.string(),
  cycle_years: z.number().int(),
  required: z.number(),
  completed: z.number(),
  remaining: z.number(),
  complete: z.boolean(),
  outstanding_topics: z.array(z.object({ topic: ceTopicSchema, remaining: z.number() })),
  /** The hours the next cycle will require (the state rule's, or the license's own). */
  next_required: z.number(),
});
export type RenewalPreview = z.infer<typeof renewalPreviewSchema>;
