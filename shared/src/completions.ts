/**
 * CE completions (docs/decisions.md "Completion"): a person finished a course; the hours count toward one of
 * their licenses once the course's School (or an Admin) approves it.
 */
import { z } from 'zod';
import { optionalLine, singleLine } from './text.ts';
import { COMPLETION_STATUSES, type CompletionStatus } from './domain-constants.ts';
import { dateString, idParam, paginationSchema, updatedSinceParam, cursorParam } from './common.ts';
import { MAX_ID } from './common.ts';

export const COMPLETION_MESSAGES = {
  courseRequired: 'Course is required',
  dateRequired: 'Completion date is required',
  dateFuture: 'Completion date cannot be in the future',
  hoursPositive: 'Hours must be greater than 0',
  hoursOverCourse: "Hours cannot exceed the course's CE hours",
  ratingRange: 'Rating must be a whole number from 1 to 5',
  courseInactive: 'This course is not active',
  licenseNotOwned: 'The license must belong to the person who completed the course',
  holderRole: 'Completions can only be recorded for Agents and Brokers',
  onlyOwn: 'You can only record your own completions',
  duplicate: 'This completion has already been recorded',
  statusRequired: 'Status must be Approved, Rejected or Pending',
  personRequired: 'Person is required',
} as const;

/** How many people one search of the Record Completion form's person select returns at most. */
export const COMPLETION_PEOPLE_LIMIT = 20;

export const COMPLETION_STRINGS = {
  tab: 'Completions',
  record: 'Record Completion',
  modalTitle: 'Record Completion',
  submit: 'Record Completion',
  saving: 'Saving...',
  recorded: 'Completion recorded successfully!',
  /** A School records completions of its own courses as their provider: approved at once. */
  recordedApproved: 'Completion recorded and approved!',
  providerNote: 'As the course provider, the completion you record is approved at once and its hours count.',
  person: 'Person',
  personPlaceholder: 'Search by name or license number',
  personEmpty: 'No Agents or Brokers found',
  recordFailed: 'Failed to record completion',
  approve: 'Approve',
  reject: 'Reject',
  reset: 'Move back to Pending',
  approveTitle: 'Approve Completion',
  rejectTitle: 'Reject Completion',
  resetTitle: 'Move Completion back to Pending',
  approved: 'Completion approved successfully!',
  rejected: 'Completion rejected successfully!',
  reopened: 'Completion moved back to Pending',
  reviewFailed: 'Failed to review completion',
  empty: 'No completions found',
} as const;

export const COMPLETION_STATUS_COLORS: Record<CompletionStatus, string> = {
  Pending: 'yellow',
  Approved: 'green',
  Rejected: 'red',
};

export const completionCreateInput = z.object({
  course_id: z.number({ error: COMPLETION_MESSAGES.courseRequired }).int().positive(COMPLETION_MESSAGES.courseRequired).max(MAX_ID),
  /** The license the hours count toward (optional); it must belong to the completion's user. */
  license_id: z.number().int().positive().max(MAX_ID).nullish(),
  completion_date: z.string({ error: COMPLETION_MESSAGES.dateRequired }).min(1, COMPLETION_MESSAGES.dateRequired).pipe(dateString),
  /** Defaults to the course's CE hours. */
  hours: z.number({ error: COMPLETION_MESSAGES.hoursPositive }).gt(0, COMPLETION_MESSAGES.hoursPositive).nullish(),
  /**
   * A late completion: the start date of the ended, short cycle of `license_id` it counts toward, instead of the
   * cycle of its date (docs/decisions.md "Compliance"), so a lapsed license can be cured.
   */
  credit_cycle_start: dateString.nullish(),
  rating: z
    .number({ error: COMPLETION_MESSAGES.ratingRange })
    .int(COMPLETION_MESSAGES.ratingRange)
    .min(1, COMPLETION_MESSAGES.ratingRange)
    .max(5, COMPLETION_MESSAGES.ratingRange)
    .nullish(),
  /**
   * Whose completion: Agents only themselves (default), Brokers their brokerage's Agents, Admins any Agent or
   * Broker, a School any Agent or Broker (required: it records for those who took its own courses).
   */
  user_id: z.number().int().positive().max(MAX_ID).nullish(),
});
export type CompletionCreateInput = z.input<typeof completionCreateInput>;

/**
 * The Record Completion form of a caller who names the person (an Admin, who holds no licenses itself, a
 * Broker, or a School): the same rules with the person required. The server reads a missing user_id as the
 * caller (a School must name one).
 */
export const completionForPersonInput = completionCreateInput.extend({
  user_id: z.number({ error: COMPLETION_MESSAGES.personRequired }).int().positive(COMPLETION_MESSAGES.personRequired).max(MAX_ID),
});

export const completionReviewInput = z.object({
  id: idParam,
  status: z.enum(COMPLETION_STATUSES, { error: COMPLETION_MESSAGES.statusRequired }),
  note: optionalLine(1000, 'multi'),
});
export type CompletionReviewInput = z.input<typeof completionReviewInput>;

/** The list's filters (GET /completions, /completions/page and /completions/export). */
const completionFilters = z.object({
  status: z.enum(COMPLETION_STATUSES).optional(),
  course_id: idParam.optional(),
  user_id: idParam.optional(),
  license_id: idParam.optional(),
  /** completion_date on or after (the School dashboard's "this month" opens the list with it). */
  completed_from: dateString.optional(),
  /** completion_date on or before. */
  completed_to: dateString.optional(),
  /** Only rows changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});

export const completionListQuery = completionFilters.optional();
export type CompletionListQuery = z.input<typeof completionListQuery>;

/** The Completions list's sortable columns (the service breaks ties on the id). */
export const COMPLETION_SORT_COLUMNS = [
  'name',
  'course_name',
  'license_number',
  'completion_date',
  'hours',
  'rating',
  'status',
  'note',
  'created_at',
] as const;
export type CompletionSortColumn = (typeof COMPLETION_SORT_COLUMNS)[number];

/** GET /completions/page (and the CSV export, which ignores page and limit). Newest first by default. */
export const completionPageQuery = completionFilters.extend({
  /** Holder name, course name or license number, case-insensitive substring. */
  search: singleLine(200).optional(),
  sort: z.enum(COMPLETION_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type CompletionPageQuery = z.input<typeof completionPageQuery>;

export const completionSchema = z.object({
  completion_id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  course_id: z.number().int(),
  course_name: z.string(),
  /** The School that owns the course (it reviews the completion); null for an Admin course. */
  course_school_id: z.number().int().nullable(),
  license_id: z.number().int().nullable(),
  license_number: z.string().nullable(),
  license_state: z.string().nullable(),
  completion_date: z.string(),
  /** Set for a late completion: the start of the cycle it counts toward. */
  credit_cycle_start: z.string().nullable(),
  hours: z.number(),
  status: z.enum(COMPLETION_STATUSES),
  rating: z.number().int().nullable(),
  reviewed_by: z.number().int().nullable(),
  reviewed_at: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type Completion = z.infer<typeof completionSchema>;

export const completionPageOutput = z.object({ completions: z.array(completionSchema), pagination: paginationSchema });
export type CompletionPage = z.infer<typeof completionPageOutput>;

/** A license a caller may record completions against (the Record Completion form's choices). */
export const completionLicenseOptionSchema = z.object({
  license_id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  license_number: z.string(),
  state: z.string(),
  status: z.string(),
  ce_hours_required: z.number(),
  ce_hours_completed: z.number(),
});
export type CompletionLicenseOption = z.infer<typeof completionLicenseOptionSchema>;

/**
 * GET /completions/people: the people a School (or an Admin) may name on the Record Completion form, live
 * Agents and Brokers matching `search` (name or license number, case-insensitive substring), at most
 * COMPLETION_PEOPLE_LIMIT, by last and first name.
 */
export const completionPeopleQuery = z.object({
  search: singleLine(200).optional(),
  limit: z.coerce.number().int().min(1).max(COMPLETION_PEOPLE_LIMIT).optional(),
});
export type CompletionPeopleQuery = z.input<typeof completionPeopleQuery>;

/** One person of GET /completions/people with the licenses a completion may count toward. */
export const completionPersonSchema = z.object({
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  licenses: z.array(
    z.object({
      license_id: z.number().int(),
      license_number: z.string(),
      state: z.string(),
      status: z.string(),
    }),
  ),
});
export type CompletionPerson = z.infer<typeof completionPersonSchema>;
