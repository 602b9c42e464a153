/** The reports' SQL fragments on SQLite (reports.queries.ts). */
import { sql } from 'drizzle-orm';
import { preparedRows } from '../../db/sqlite/prepared.ts';
import type { ReportsDialect } from './reports.dialect.ts';

export const sqliteReports: ReportsDialect = {
  rows: preparedRows,
  isTrue: (expr) => sql`${expr} = 1`,
  isFalse: (expr) => sql`${expr} = 0`,
  weeksSince: (ts) => sql`max((julianday('now') - julianday(${ts})) / 7.0, 1.0)`,
  daysFromTo: (from, to) => sql`(julianday(${to}) - julianday(${from}))`,
  iso: (ts) => ts,
  dollars: (cents) => sql`printf('%.2f', ${cents} / 100.0)`,
};
