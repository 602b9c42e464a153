import { check, index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { CE_TOPICS, COMPLETION_STATUSES, COURSE_TYPES } from '@lm/shared';
import { users } from './users.ts';
import { licenses } from './licenses.ts';
import { createdAt, updatedAt } from './columns.ts';

export const courses = sqliteTable(
  'courses',
  {
    course_id: integer('course_id').primaryKey({ autoIncrement: true }),
    course_name: text('course_name').notNull(),
    description: text('description').notNull(),
    provider: text('provider').notNull(),
    ce_hours: real('ce_hours').notNull(),
    course_type: text('course_type', { enum: COURSE_TYPES }).notNull().default('Online'),
    cost_cents: integer('cost_cents').notNull().default(0),
    is_active: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    /** The School user who owns the course; null when an Admin created it. */
    school_id: integer('school_id').references(() => users.user_id, { onDelete: 'restrict' }),
    /** The CE topic the course counts toward (a state rule's required topic); null = general hours. */
    topic: text('topic', { enum: CE_TOPICS }),
    /** The state's approval number of the course as printed on its certificates ("CE-4471"); matched first (docs/ocr.md). */
    approval_number: text('approval_number'),
    /** Two-letter code of the state that approved the course (with approval_number). */
    approval_state: text('approval_state'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('courses_school_idx').on(t.school_id),
    index('courses_created_at_idx').on(t.created_at),
    check('courses_ce_hours_check', sql`${t.ce_hours} > 0`),
    check('courses_cost_check', sql`${t.cost_cents} >= 0`),
  ],
);

export const completions = sqliteTable(
  'completions',
  {
    completion_id: integer('completion_id').primaryKey({ autoIncrement: true }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'restrict' }),
    // A course with completions cannot be deleted (409); deactivate it instead.
    course_id: integer('course_id')
      .notNull()
      .references(() => courses.course_id, { onDelete: 'restrict' }),
    // Deleting a license keeps the completion record, unlinked.
    license_id: integer('license_id').references(() => licenses.license_id, { onDelete: 'set null' }),
    completion_date: text('completion_date').notNull(),
    hours: real('hours').notNull(),
    /** A late completion: the start of the (ended, short) cycle it counts toward instead of the cycle of its date. */
    credit_cycle_start: text('credit_cycle_start'),
    status: text('status', { enum: COMPLETION_STATUSES }).notNull().default('Pending'),
    rating: integer('rating'),
    reviewed_by: integer('reviewed_by').references(() => users.user_id, { onDelete: 'set null' }),
    reviewed_at: text('reviewed_at'),
    note: text('note'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('completions_user_idx').on(t.user_id, t.created_at),
    index('completions_course_idx').on(t.course_id),
    index('completions_license_idx').on(t.license_id),
    index('completions_status_idx').on(t.status),
    index('completions_created_at_idx').on(t.created_at),
    check('completions_hours_check', sql`${t.hours} > 0`),
    check('completions_rating_check', sql`${t.rating} IS NULL OR ${t.rating} BETWEEN 1 AND 5`),
  ],
);
