/**
 * The CE ledger (docs/decisions.md "CE ledger and cycles"): state CE rules, manual adjustments of a
 * license's cycle, and the closed cycles of a license. Backups put all three in the licenses group.
 */
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { LICENSE_TYPES, type CeRuleTopic, type CycleFigures } from '@lm/shared';
import { users } from './users.ts';
import { licenses } from './licenses.ts';
import { createdAt, updatedAt } from './columns.ts';

/** One rule per state and license type: hours per cycle, cycle length, required topics. */
export const ceRules = sqliteTable(
  'ce_rules',
  {
    rule_id: integer('rule_id').primaryKey({ autoIncrement: true }),
    state: text('state').notNull(),
    license_type: text('license_type', { enum: LICENSE_TYPES }).notNull(),
    hours_required: real('hours_required').notNull(),
    cycle_years: integer('cycle_years').notNull().default(2),
    /** Whether a course completed again in one cycle counts again (most states forbid it: docs/decisions.md "Compliance"). */
    allow_repeat_credit: integer('allow_repeat_credit', { mode: 'boolean' }).notNull().default(false),
    /** JSON array of {topic, hours}. */
    topics: text('topics', { mode: 'json' })
      .$type<CeRuleTopic[]>()
      .notNull()
      .default(sql`'[]'`),
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
export const ceAdjustments = sqliteTable(
  'ce_adjustments',
  {
    adjustment_id: integer('adjustment_id').primaryKey({ autoIncrement: true }),
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.license_id, { onDelete: 'cascade' }),
    cycle_start_date: text('cycle_start_date').notNull(),
    hours: real('hours').notNull(),
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
export const licenseCycles = sqliteTable(
  'license_cycles',
  {
    cycle_id: integer('cycle_id').primaryKey({ autoIncrement: true }),
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.license_id, { onDelete: 'cascade' }),
    start_date: text('start_date').notNull(),
    end_date: text('end_date').notNull(),
    required: real('required').notNull(),
    completed: real('completed').notNull(),
    /** JSON snapshot of the figures' topics at closing ({topic, required, completed, remaining}[]). */
    topics: text('topics', { mode: 'json' })
      .$type<CycleFigures['topics']>()
      .notNull()
      .default(sql`'[]'`),
    /** JSON snapshot of the rule that applied ({rule_id, state, license_type}) or null. */
    rule: text('rule', { mode: 'json' }).$type<CycleFigures['rule']>(),
    closed_by: integer('closed_by').references(() => users.user_id, { onDelete: 'set null' }),
    closed_at: text('closed_at')
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
    renewed_with_ce_outstanding: integer('renewed_with_ce_outstanding', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    index('license_cycles_license_idx').on(t.license_id, t.start_date),
    check('license_cycles_dates_check', sql`${t.start_date} <= ${t.end_date}`),
  ],
);
