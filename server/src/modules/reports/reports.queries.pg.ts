/** The reports' SQL fragments on PostgreSQL (reports.queries.ts): booleans, timestamptz arithmetic, formatting. */
import { sql } from 'drizzle-orm';
import { rawRows } from '../../db/raw.ts';
import type { ReportsDialect } from './reports.dialect.ts';

export const pgReports: ReportsDialect = {
  rows: rawRows,
  isTrue: (expr) => sql`${expr} = true`,
  isFalse: (expr) => sql`${expr} = false`,
  weeksSince: (ts) => sql`greatest(extract(epoch from (now() - ${ts})) / 604800.0, 1.0)`,
  daysFromTo: (from, to) => sql`(extract(epoch from (${to} - ${from})) / 86400.0)`,
  // A raw select of a timestamptz gets PostgreSQL's text form: the app's ISO 8601 UTC string instead.
  iso: (ts) => sql`to_char(${ts} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  dollars: (cents) => sql`to_char(${cents} / 100.0, 'FM999999999990.00')`,
};
