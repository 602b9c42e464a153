import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One row per run of a background job (e.g. the daily pass once per office day): the instance that inserts
 * (job, run_key) first runs it; the others see the conflict and skip.
 */
export const jobRuns = sqliteTable(
  'job_runs',
  {
    job: text('job').notNull(),
    run_key: text('run_key').notNull(),
    /** ISO 8601 UTC timestamp. */
    started_at: text('started_at'),
    instance: text('instance'),
  },
  (t) => [primaryKey({ columns: [t.job, t.run_key] })],
);
