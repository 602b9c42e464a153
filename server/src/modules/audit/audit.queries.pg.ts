/** The audit statements on PostgreSQL: raw selects of a timestamptz get PostgreSQL's text form, so format it. */
import { sql } from 'drizzle-orm';
import { rawRows } from '../../db/raw.ts';
import { auditStatements } from './audit.statements.ts';

export const pgAuditQueries = auditStatements({
  rows: rawRows,
  iso: (column) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  // A cursor's values as text: a timestamp keeps its microseconds, and reads back through a parameter of its type.
  key: (column) => sql`(${column})::text`,
  // NULL sort keys where SQLite puts them (first ascending, last descending), so both engines page alike.
  nulls: (dir) => (dir === 'asc' ? sql` NULLS FIRST` : sql` NULLS LAST`),
});
