import { check, date, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { LICENSE_STATUSES, LICENSE_TYPES, type CeTopic } from '@lm/shared';
import { users } from './users.ts';
import { createdAt, cycleStartDate, isoTimestamp, updatedAt } from './columns.ts';

export const licenses = pgTable(
  'licenses',
  {
    license_id: integer('license_id').primaryKey().generatedByDefaultAsIdentity(),
    // A holder with licenses is never hard-deleted (users are soft-deleted).
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'restrict' }),
    license_number: text('license_number').notNull(),
    /** Two-letter state code, stored upper-case. */
    state: text('state').notNull(),
    license_type: text('license_type', { enum: LICENSE_TYPES }).notNull().default('Sales'),
    issue_date: date('issue_date', { mode: 'string' }).notNull(),
    expiration_date: date('expiration_date', { mode: 'string' }).notNull(),
    status: text('status', { enum: LICENSE_STATUSES }).notNull().default('Active'),
    ce_hours_required: doublePrecision('ce_hours_required').notNull().default(0),
    /**
     * An exact cache of the current cycle's ledger sum (Approved linked completions in the cycle plus its
     * adjustments), rewritten by refreshCeCache in every transaction that changes a source. Never set directly.
     */
    ce_hours_completed: doublePrecision('ce_hours_completed').notNull().default(0),
    /**
     * Caches of the current cycle's topic figures, rewritten with ce_hours_completed by refreshCeCache: the hours
     * still missing in the rule's required topics (their sum, and each topic) (docs/decisions.md "Compliance").
     */
    ce_topic_hours_missing: doublePrecision('ce_topic_hours_missing').notNull().default(0),
    ce_topics_missing: jsonb('ce_topics_missing')
      .$type<Array<{ topic: CeTopic; hours: number }>>()
      .notNull()
      .default(sql`'[]'`),
    /**
     * The current CE cycle's start: the issue date, then each renewal's previous expiration date
     * (docs/decisions.md "CE ledger and cycles"). `date NOT NULL` without an SQL default: an insert that omits it
     * or passes '' sends NULL, and the licenses_cycle_start_default BEFORE INSERT trigger (drizzle/pg) sets the
     * issue date.
     */
    cycle_start_date: cycleStartDate('cycle_start_date')
      .notNull()
      .$defaultFn(() => ''),
    /** Set by renew: feeds "Renewed This Period". */
    renewed_at: isoTimestamp('renewed_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('licenses_state_number_unique').on(t.state, sql`upper(${t.license_number})`),
    index('licenses_expiration_idx').on(t.expiration_date, t.license_id),
    index('licenses_status_expiration_idx').on(t.status, t.expiration_date),
    index('licenses_state_idx').on(t.state),
    index('licenses_user_idx').on(t.user_id, t.expiration_date),
    index('licenses_renewed_at_idx').on(t.renewed_at),
    index('licenses_created_at_idx').on(t.created_at),
    index('licenses_updated_at_idx').on(t.updated_at),
    check('licenses_ce_check', sql`${t.ce_hours_required} >= 0 AND ${t.ce_hours_completed} >= 0`),
    check('licenses_dates_check', sql`${t.issue_date} <= ${t.expiration_date}`),
  ],
);
