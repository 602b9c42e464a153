/**
 * Courses (docs/product.md "Courses", section 5; docs/decisions.md: a course may belong to a School user).
 * Cost travels in dollars with 2 decimals and is stored in cents.
 */
import { z } from 'zod';
import { multiLine, numberFromText, optionalLine, queryBoolean, singleLine } from './text.ts';
import { COURSE_TYPES } from './domain-constants.ts';
import { idParam, paginationSchema, updatedSinceParam, requiredText, cursorParam } from './common.ts';
import { ceTopicSchema } from './ce.ts';
import { MAX_ID } from './common.ts';

export const COURSE_MESSAGES = {
  nameRequired: 'Course name is required',
  descriptionRequired: 'Description is required',
  providerRequired: 'Provider is required',
  ceHoursPositive: 'CE hours must be greater than 0',
  ceHoursMax: 'CE hours must be 500 or less',
  costNegative: 'Cost cannot be negative',
  costDecimals: 'Cost must have at most 2 decimals',
  notOwner: 'You can only manage your own courses',
  hasCompletions: 'This course has completions and cannot be deleted. Deactivate it instead.',
  schoolInvalid: 'The course owner must be a School user',
  approvalStateFormat: 'Approval state must be a two-letter code',
} as const;

/** The UI strings of the Course Management screen (docs/product.md sections 2 and 8). */
export const COURSE_STRINGS = {
  title: 'Course Management',
  add: 'Add New Course',
  modalAdd: 'Add New Course',
  modalEdit: 'Edit Course',
  submitCreate: 'Create Course',
  submitUpdate: 'Update Course',
  saving: 'Saving...',
  confirmDelete: 'Are you sure you want to delete this course?',
  created: 'Course created successfully!',
  updated: 'Course updated successfully!',
  deleted: 'Course deleted successfully!',
  createFailed: 'Failed to create course',
  updateFailed: 'Failed to update course',
  deleteFailed: 'Failed to delete course',
  empty: 'No courses found',
} as const;

/** Badge colours of the course type (docs/product.md: Online primary, In-Person info, Webinar warning). */
export const COURSE_TYPE_COLORS: Record<(typeof COURSE_TYPES)[number], string> = {
  Online: 'blue',
  'In-Person': 'cyan',
  Webinar: 'yellow',
};

/** What a new course starts with when a field is left out (docs/product.md section 9): the form shows them too. */
export const COURSE_DEFAULTS = { course_type: 'Online', cost: 0, is_active: true } as const;

const hasTwoDecimalsAtMost = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;

/** The course fields without defaults: create adds the defaults, update makes every field optional. */
const courseFields = {
  course_name: requiredText(COURSE_MESSAGES.nameRequired, 200),
  description: multiLine({ max: 2000, required: COURSE_MESSAGES.descriptionRequired }),
  provider: requiredText(COURSE_MESSAGES.providerRequired, 200),
  ce_hours: z
    .number({ error: COURSE_MESSAGES.ceHoursPositive })
    .gt(0, COURSE_MESSAGES.ceHoursPositive)
    .max(500, COURSE_MESSAGES.ceHoursMax),
  course_type: z.enum(COURSE_TYPES, { error: `Course type must be one of ${COURSE_TYPES.join(', ')}` }),
  cost: z
    .number({ error: 'Cost must be a number' })
    .min(0, COURSE_MESSAGES.costNegative)
    .max(100_000, 'Cost must be 100000 or less')
    .refine(hasTwoDecimalsAtMost, COURSE_MESSAGES.costDecimals),
  is_active: z.boolean({ error: 'is_active must be true or false' }),
  /** Only an Admin may set it (a School always owns what it creates); null = an Admin course. */
  school_id: z.number().int().positive().max(MAX_ID).nullable(),
  /** The CE topic the course counts toward (a state rule's required topic); null = general hours. */
  topic: ceTopicSchema.nullable(),
  /**
   * The state's approval number as printed on the course's certificates ("CE-4471"): a certificate is matched to
   * its course by it first (docs/ocr.md "Judge"). "" or absent = none.
   */
  approval_number: optionalLine(50),
  /** The two-letter code of the state that approved the course. "" or absent = none. */
  approval_state: optionalLine(2)
    .refine((v) => v === null || /^[A-Za-z]{2}$/.test(v), COURSE_MESSAGES.approvalStateFormat)
    .transform((v) => v?.toUpperCase() ?? null),
};

export const courseCreateInput = z.object({
  ...courseFields,
  course_type: courseFields.course_type.default(COURSE_DEFAULTS.course_type),
  cost: courseFields.cost.default(COURSE_DEFAULTS.cost),
  is_active: courseFields.is_active.default(COURSE_DEFAULTS.is_active),
  school_id: courseFields.school_id.optional(),
  topic: courseFields.topic.optional(),
});
export type CourseCreateInput = z.input<typeof courseCreateInput>;

export const courseUpdateInput = z.object({ id: idParam }).extend(z.object(courseFields).partial().shape);
export type CourseUpdateInput = z.input<typeof courseUpdateInput>;

/** The list's filters (GET /courses, /courses/page and /courses/export). */
const courseFilters = z.object({
  is_active: queryBoolean.optional(),
  course_type: z.enum(COURSE_TYPES).optional(),
  search: singleLine(200).optional(),
  school_id: idParam.optional(),
  /** Only rows changed after this time (an integrator's sync; docs/api.md "Changes since"). */
  updated_since: updatedSinceParam.optional(),
});

/**
 * GET /courses answers at most COURSE_LIST_MAX courses, newest first (docs/api.md "Courses", docs/security.md
 * "Bounded work per request"): `limit` (1 to 500, default 500) and `offset` (default 0) read further.
 */
export const COURSE_LIST_MAX = 500;
export const courseListQuery = courseFilters
  .extend({
    limit: numberFromText(z.number().int().min(1).max(COURSE_LIST_MAX)).optional(),
    offset: numberFromText(z.number().int().min(0).max(MAX_ID)).optional(),
  })
  .optional();
export type CourseListQuery = z.input<typeof courseListQuery>;

/** The Courses list's sortable columns (the service breaks ties on the id). */
export const COURSE_SORT_COLUMNS = [
  'course_name',
  'provider',
  'course_type',
  'ce_hours',
  'topic',
  'cost',
  'is_active',
  'completion_count',
  'created_at',
] as const;
export type CourseSortColumn = (typeof COURSE_SORT_COLUMNS)[number];

/** GET /courses/page (and the CSV export, which ignores page and limit). Newest first by default. */
export const coursePageQuery = courseFilters.extend({
  sort: z.enum(COURSE_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type CoursePageQuery = z.input<typeof coursePageQuery>;

export const courseSchema = z.object({
  course_id: z.number().int(),
  course_name: z.string(),
  description: z.string(),
  provider: z.string(),
  ce_hours: z.number(),
  course_type: z.enum(COURSE_TYPES),
  /** Dollars with 2 decimals. */
  cost: z.number(),
  is_active: z.boolean(),
  /** The owning School user; null for a course an Admin created. */
  school_id: z.number().int().nullable(),
  /** The owning School's name ('first last'); null for an Admin course. */
  school_name: z.string().nullable(),
  topic: ceTopicSchema.nullable(),
  approval_number: z.string().nullable(),
  approval_state: z.string().nullable(),
  completion_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Course = z.infer<typeof courseSchema>;

export const coursePageOutput = z.object({ courses: z.array(courseSchema), pagination: paginationSchema });
export type CoursePage = z.infer<typeof coursePageOutput>;

/** "$12.50": cost with 2 decimals (docs/product.md). */
export function formatCost(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}
