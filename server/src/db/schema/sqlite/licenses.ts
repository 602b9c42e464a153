import { check, index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { LICENSE_STATUSES, LICENSE_TYPES, type CeTopic } from '@lm/shared';
import { users } from './users.ts';
import { createdAt, updatedAt } from './columns.ts';

export const licenses = sqliteTable(
  'licenses',
  {
    license_id: integer('license_id').primaryKey({ autoIncrement: true }),
    // A holder with licenses is never hard-deleted (users are soft-deleted).
    user_id: integer('user_id')
      .notNull()
      .references(() => users.user_id, { onDelete: 'restrict' }),
    license_number: text('license_number').notNull(),
    /** Two-letter state code, stored upper-case. */
    state: text('state').notNull(),
    license_type: text('license_type', { enum: LICENSE_TYPES }).notNull().default('Sales'),
    issue_date: text('issue_date').notNull(),
    expiration_date: text('expiration_date').notNull(),
    status: text('status', { enum: LICENSE_STATUSES }).notNull().default('Active'),
    ce_hours_required: real('ce_hours_required').notNull().default(0),
    /**
     * An exact cache of the current cycle's ledger sum (Approved linked completions in the cycle plus its
     * adjustments), rewritten by refreshCeCache in every transaction that changes a source. Never set directly.
     */
    ce_hours_completed: real('ce_hours_completed').notNull().default(0),
    /**
     * Caches of the current cycle's topic figures, rewritten with ce_hours_completed by refreshCeCache: the hours
     * still missing in the rule's required topics (their sum, and each topic) (docs/decisions.md "Compliance").
     */
    ce_topic_hours_missing: real('ce_topic_hours_missing').notNull().default(0),
    ce_topics_missing: text('ce_topics_missing', { mode: 'json' })
      .$type<Array<{ topic: CeTopic; hours: number }>>()
      .notNull()
      .default(sql`'[]'`),
    /**
     * The current CE cycle's start: the issue date, then each renewal's previous expiration date
     * (docs/decisions.md "CE ledger and cycles"). An insert that leaves it '' gets the issue date from
     * the licenses_cycle_start_default trigger (migration 0001).
     */
    cycle_start_date: text('cycle_start_date').notNull().default(''),
    /** Set by renew: feeds "Renewed This Period". */
    renewed_at: text('renewed_at'),
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
