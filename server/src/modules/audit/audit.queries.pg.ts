/** The audit statements on PostgreSQL: raw selects of a timestamptz get PostgreSQL's text form, so format it. */
import { sql } from 'drizzle-orm';
import { rawRows } from '../../db/raw.ts';
import { auditStatements } from './audit.statements.ts';

export const pgAuditQueries = auditStatements({
  rows: rawRows,
  iso: (column) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
});
