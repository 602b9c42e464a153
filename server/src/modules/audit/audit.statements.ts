import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { whereAll } from '../../db/sql.ts';
import { col, distinctSql, filterConds, NEWEST_FIRST, sortColumn, usersInRangeSql, type AuditRow, type AuditSql } from './audit.sql.ts';

/** What the audit statements need from an engine. */
export interface AuditDialect {
  /** Runs a raw statement (SQLite: prepared once per connection and reused). */
  rows<T>(db: DbOrTx, query: SQL): Promise<T[]>;
  /** A timestamp column as the ISO 8601 UTC string the app uses. */
  iso(column: SQL): SQL;
}

const num = async (rows: Promise<Array<{ n: number | null }>>) => Number((await rows)[0]?.n ?? 0);

/** The audit statements, written once: `d` supplies what differs per engine (audit.queries.sqlite.ts, .pg.ts). */
export function auditStatements(d: AuditDialect): AuditSql {
  const rawRows = d.rows;
  return {
    async distinctValues(db, column) {
      return (await rawRows<{ x: string | number }>(db, distinctSql(column))).map((r) => r.x);
    },
    async head(db) {
      const [row] = await rawRows<{ log_id: number; timestamp: string }>(
        db,
        sql`SELECT log_id, ${d.iso(sql`"timestamp"`)} AS "timestamp" FROM audit_logs ORDER BY log_id DESC LIMIT 1`,
      );
      return row ?? { log_id: 0, timestamp: '' };
    },
    async timestampAt(db, logId) {
      const [row] = await rawRows<{ t: string }>(db, sql`SELECT ${d.iso(sql`"timestamp"`)} AS t FROM audit_logs WHERE log_id = ${logId}`);
      return row?.t;
    },
    countIds(db, afterId, upToId) {
      return num(rawRows(db, sql`SELECT count(*) AS n FROM audit_logs WHERE log_id > ${afterId} AND log_id <= ${upToId}`));
    },
    async totals(db) {
      // Two scalar subqueries of one statement: the same snapshot, and (SQLite) the bare count(*) still reads
      // the smallest index instead of the table.
      const [row] = await rawRows<{ n: number; m: number | null }>(
        db,
        sql`SELECT (SELECT count(*) FROM audit_logs) AS n, (SELECT max(log_id) FROM audit_logs) AS m`,
      );
      return { count: row?.n ?? 0, maxId: row?.m ?? 0 };
    },
    idsRows(db, afterId, upToId) {
      return rawRows(db, sql`SELECT action, target_table, user_id FROM audit_logs WHERE log_id > ${afterId} AND log_id <= ${upToId}`);
    },
    async groupCounts(db, column) {
      const c = col(column);
      const rows = await rawRows<{ k: string | null; n: number; m: number | null }>(
        db,
        sql`SELECT ${c} AS k, count(*) AS n, (SELECT max(log_id) FROM audit_logs) AS m FROM audit_logs GROUP BY ${c}`,
      );
      return { counts: new Map(rows.filter((r) => r.k !== null).map((r) => [r.k!, r.n])), maxId: rows[0]?.m ?? 0 };
    },
    count(db, f) {
      return num(rawRows(db, sql`SELECT count(*) AS n FROM audit_logs ${whereAll(filterConds(f))}`));
    },
    page(db, f, limit, offset, order = NEWEST_FIRST) {
      // The page picks its log_ids (and sort values) from the index first, then reads only those rows.
      const dir = order.dir === 'asc' ? sql`ASC` : sql`DESC`;
      const key = sortColumn(order);
      const inner = key ? sql`${key} ${dir}, "timestamp" ${dir}, log_id ${dir}` : sql`"timestamp" ${dir}, log_id ${dir}`;
      const outer = key ? sql`p.k ${dir}, p."timestamp" ${dir}, p.log_id ${dir}` : sql`p."timestamp" ${dir}, p.log_id ${dir}`;
      return rawRows<AuditRow>(
        db,
        sql`SELECT a.log_id, ${d.iso(sql`a."timestamp"`)} AS "timestamp", a.user_id, u.first_name, u.last_name, u.email, a.action, a.target_table,
                 a.target_id, a.ip_address, a.old_values, a.new_values
            FROM (SELECT log_id, "timestamp"${key ? sql`, ${key} AS k` : sql``} FROM audit_logs ${whereAll(filterConds(f))}
                   ORDER BY ${inner} LIMIT ${limit} OFFSET ${offset}) AS p
            JOIN audit_logs AS a ON a.log_id = p.log_id
            LEFT JOIN users AS u ON u.user_id = a.user_id
           ORDER BY ${outer}`,
      );
    },
    countUsers(db, fromIso, toIso) {
      return num(rawRows(db, usersInRangeSql(fromIso, toIso)));
    },
  };
}
