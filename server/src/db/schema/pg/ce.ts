/**
 * The CE ledger (docs/decisions.md "CE ledger and cycles"): state CE rules, manual adjustments of a
 * license's cycle, and the closed cycles of a license. Backups put all three in the licenses group.
 */
import { boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { LICENSE_TYPES, type CeRuleTopic, type CycleFigures } from '@lm/shared';
import { users } from './users.ts';
import { licenses } from './licenses.ts';
import { createdAt, isoTimestamp, updatedAt } from './columns.ts';

/** One rule per state and license type: hours per cycle, cycle length, required topics. */
export const ceRules = pgTable(
  'ce_rules',
  {
    rule_id: integer('rule_id').primaryKey().generatedByDefaultAsIdentity(),
    state: text('state').notNull(),
    license_type: text('license_type', { enum: LICENSE_TYPES }).notNull(),
    hours_required: doublePrecision('hours_required').notNull(),
    cycle_years: integer('cycle_years').notNull().default(2),
    /** Whether a course completed again in one cycle counts again (most states forbid it: docs/decisions.md "Compliance"). */
    allow_repeat_credit: boolean('allow_repeat_credit').notNull().default(false),
    /** JSON array of {topic, hours}. */
    topics: jsonb('topics')
      .$type<CeRuleTopic[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    notes: text('notes'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('ce_rules_state_type_unique').on(t.state, t.license_type),
    check('ce_rules_hours_check', sql`${t.hours_required} >= 0 AND ${t.cycle_years} BETWEEN 1 AND 10`),
  ],
);

/** A signed manual change of a cycle's completed hours, with its reason; belongs to the cycle starting on cycle_start_date. */
export const ceAdjustments = pgTable(
  'ce_adjustments',
  {
    adjustment_id: integer('adjustment_id').primaryKey().generatedByDefaultAsIdentity(),
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.license_id, { onDelete: 'cascade' }),
    cycle_start_date: date('cycle_start_date', { mode: 'string' }).notNull(),
    hours: doublePrecision('hours').notNull(),
    reason: text('reason').notNull(),
    created_by: integer('created_by').references(() => users.user_id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [
    index('ce_adjustments_license_idx').on(t.license_id, t.cycle_start_date),
    check('ce_adjustments_hours_check', sql`${t.hours} <> 0`),
  ],
);

/**
 * A closed cycle: written by a renewal. required and the topics' required hours are kept as they were;
 * completed is the figure at closing (the transcript derives the live figure from the sources).
 */
export const licenseCycles = pgTable(
  'license_cycles',
  {
    cycle_id: integer('cycle_id').primaryKey().generatedByDefaultAsIdentity(),
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.license_id, { onDelete: 'cascade' }),
    start_date: date('start_date', { mode: 'string' }).notNull(),
    end_date: date('end_date', { mode: 'string' }).notNull(),
    required: doublePrecision('required').notNull(),
    completed: doublePrecision('completed').notNull(),
    /** JSON snapshot of the figures' topics at closing ({topic, required, completed, remaining}[]). */
    topics: jsonb('topics')
      .$type<CycleFigures['topics']>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** JSON snapshot of the rule that applied ({rule_id, state, license_type}) or null. */
    rule: jsonb('rule').$type<CycleFigures['rule']>(),
    closed_by: integer('closed_by').references(() => users.user_id, { onDelete: 'set null' }),
    closed_at: isoTimestamp('closed_at')
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
    renewed_with_ce_outstanding: boolean('renewed_with_ce_outstanding').notNull().default(false),
  },
  (t) => [
    index('license_cycles_license_idx').on(t.license_id, t.start_date),
    check('license_cycles_dates_check', sql`${t.start_date} <= ${t.end_date}`),
  ],
);
