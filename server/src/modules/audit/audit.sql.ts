import type { DbOrTx } from '../../db/client.ts';
/**
 * SQL fragments of the audit queries that read the same on SQLite and PostgreSQL (the per-dialect
 * modules audit.queries.sqlite.ts / audit.queries.pg.ts build their statements from them).
 */
import { sql, type SQL } from 'drizzle-orm';
import { andAll } from '../../db/sql.ts';

/** The indexed columns whose distinct values and counts the audit screen uses. */
export type AuditColumn = 'action' | 'target_table' | 'user_id';

export interface AuditFilter {
  user_id?: number;
  /** Exact actions (already resolved from a substring). */
  actions?: string[];
  target_table?: string;
  /** Inclusive lower and exclusive upper timestamp bounds (ISO). */
  fromIso?: string;
  toIso?: string;
}

/** One entry as the list answers it (shared auditLogSchema). */
export interface AuditRow {
  log_id: number;
  timestamp: string;
  user_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  action: string;
  target_table: string | null;
  target_id: number | null;
  ip_address: string | null;
  old_values: string | null;
  new_values: string | null;
}

export const col = (column: AuditColumn): SQL => sql`${sql.identifier(column)}`;

/** The conditions of a filter (no WHERE keyword); an always-true condition when there are none. */
export function filterConds(f: AuditFilter): SQL[] {
  const conds: SQL[] = [];
  if (f.user_id !== undefined) conds.push(sql`user_id = ${f.user_id}`);
  if (f.actions) {
    conds.push(
      f.actions.length === 1
        ? sql`action = ${f.actions[0]}`
        : sql`action IN (${sql.join(
            f.actions.map((a) => sql`${a}`),
            sql`, `,
          )})`,
    );
  }
  if (f.target_table !== undefined) conds.push(sql`target_table = ${f.target_table}`);
  conds.push(...rangeConds(f.fromIso, f.toIso));
  return conds;
}

export function rangeConds(fromIso: string | undefined, toIso: string | undefined): SQL[] {
  const conds: SQL[] = [];
  if (fromIso !== undefined) conds.push(sql`"timestamp" >= ${fromIso}`);
  if (toIso !== undefined) conds.push(sql`"timestamp" < ${toIso}`);
  return conds;
}

/** Distinct non-null values of an indexed column, one index seek per value (a loose index scan). */
export function distinctSql(column: AuditColumn): SQL {
  const c = col(column);
  return sql`WITH RECURSIVE v(x) AS (
       SELECT (SELECT ${c} FROM audit_logs WHERE ${c} IS NOT NULL ORDER BY ${c} LIMIT 1)
       UNION ALL
       SELECT (SELECT ${c} FROM audit_logs WHERE ${c} > v.x ORDER BY ${c} LIMIT 1) FROM v WHERE v.x IS NOT NULL
     ) SELECT x FROM v WHERE x IS NOT NULL`;
}

/** Distinct users with an entry in the range: one seek per distinct user on (user_id, timestamp). */
export function usersInRangeSql(fromIso: string | undefined, toIso: string | undefined): SQL {
  return sql`WITH RECURSIVE v(x) AS (
       SELECT (SELECT user_id FROM audit_logs WHERE user_id IS NOT NULL ORDER BY user_id LIMIT 1)
       UNION ALL
       SELECT (SELECT user_id FROM audit_logs WHERE user_id > v.x ORDER BY user_id LIMIT 1) FROM v WHERE v.x IS NOT NULL
     ) SELECT count(*) AS n FROM v
        WHERE x IS NOT NULL AND EXISTS (SELECT 1 FROM audit_logs WHERE user_id = v.x${andAll(rangeConds(fromIso, toIso))})`;
}

/** A page's order: a sort key of the list (shared AUDIT_SORT_COLUMNS) and its direction. */
export interface AuditOrder {
  sort: 'timestamp' | 'user' | 'action' | 'target_table' | 'target_id' | 'ip_address';
  dir: 'asc' | 'desc';
}
/** A cursor's values on the audit log: the sort key (when the sort is not the timestamp), the timestamp, the log_id. */
export type AuditKey = Array<string | number | null>;

export const NEWEST_FIRST: AuditOrder = { sort: 'timestamp', dir: 'desc' };

/**
 * The sort key's column, or null for timestamp. Every key is followed by "timestamp" and log_id in the same
 * direction, so action, target_table and user_id walk their (column, timestamp, log_id) index in order (no sort
 * step, either direction); target_id and ip_address have no index: a bounded top-N sort (docs/decisions.md).
 */
export function sortColumn(o: AuditOrder): SQL | null {
  switch (o.sort) {
    case 'timestamp':
      return null;
    case 'user':
      return sql`user_id`;
    default:
      return sql`${sql.identifier(o.sort)}`;
  }
}

/** The statements each dialect provides. Timestamps come back as ISO 8601 UTC strings on both. */
export interface AuditSql {
  distinctValues(db: DbOrTx, column: AuditColumn): Promise<Array<string | number>>;
  /** The newest row's id and timestamp (0 and '' for an empty log). */
  head(db: DbOrTx): Promise<{ log_id: number; timestamp: string }>;
  /** The timestamp of one row, undefined when it is gone. */
  timestampAt(db: DbOrTx, logId: number): Promise<string | undefined>;
  /** Rows with afterId < log_id <= upToId (the catch-up after the cached figures). */
  countIds(db: DbOrTx, afterId: number, upToId: number): Promise<number>;
  /** Every row, and the highest log_id, read by one statement (so they agree). */
  totals(db: DbOrTx): Promise<{ count: number; maxId: number }>;
  /** action, target_table and user_id of the rows with afterId < log_id <= upToId. */
  idsRows(
    db: DbOrTx,
    afterId: number,
    upToId: number,
  ): Promise<Array<{ action: string; target_table: string | null; user_id: number | null }>>;
  /** Rows per non-null value of the column, and the highest log_id, read by one statement. */
  groupCounts(db: DbOrTx, column: 'action' | 'target_table'): Promise<{ counts: Map<string, number>; maxId: number }>;
  /** The rows matching `f`; with `cap`, counted up to cap + 1 (db/list.ts cappedCount: the same cost at any size). */
  count(db: DbOrTx, f: AuditFilter, cap?: number): Promise<number>;
  /**
   * A page in the order: `offset` rows skipped, or (with `after`, a cursor's values: the sort key if any, the
   * timestamp, the log_id) the rows after that row by a keyset condition, no OFFSET. `next` holds the last row's
   * values when the page is full.
   */
  page(
    db: DbOrTx,
    f: AuditFilter,
    limit: number,
    offset: number,
    order?: AuditOrder,
    after?: AuditKey,
  ): Promise<{ rows: AuditRow[]; next: AuditKey | null }>;
  /** Distinct users with at least one entry in the range. */
  countUsers(db: DbOrTx, fromIso: string | undefined, toIso: string | undefined): Promise<number>;
}
