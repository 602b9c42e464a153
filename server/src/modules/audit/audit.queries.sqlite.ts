/** The audit statements on SQLite: timestamps are stored as ISO text already. */
import { sql } from 'drizzle-orm';
import { preparedRows } from '../../db/sqlite/prepared.ts';
import { auditStatements } from './audit.statements.ts';

export const sqliteAuditQueries = auditStatements({
  rows: preparedRows,
  iso: (column) => column,
  key: (column) => column,
  nulls: () => sql``,
});
