import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { isoTimestamp } from './columns.ts';

/**
 * One row per run of a background job (e.g. the daily pass once per office day): the instance that inserts
 * (job, run_key) first runs it; the others see the conflict and skip.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    run_key: text('run_key').notNull(),
    started_at: isoTimestamp('started_at'),
    instance: text('instance'),
  },
  (t) => [primaryKey({ columns: [t.job, t.run_key] })],
);
