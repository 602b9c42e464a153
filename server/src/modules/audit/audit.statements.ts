import { sql, type SQL } from 'drizzle-orm';
import { splitAuditName } from '@lm/shared';
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
    async page(db, f, limit, offset, order = NEWEST_FIRST) {
      // The page picks its log_ids (and sort values) from the index first, then reads only those rows.
      // Who acted is the name and e-mail stored with each entry, never today's users row (docs/decisions.md
      // "Audit: who acted"), so there is no join.
      const dir = order.dir === 'asc' ? sql`ASC` : sql`DESC`;
      const key = sortColumn(order);
      const inner = key ? sql`${key} ${dir}, "timestamp" ${dir}, log_id ${dir}` : sql`"timestamp" ${dir}, log_id ${dir}`;
      const outer = key ? sql`p.k ${dir}, p."timestamp" ${dir}, p.log_id ${dir}` : sql`p."timestamp" ${dir}, p.log_id ${dir}`;
      const rows = await rawRows<Omit<AuditRow, 'first_name' | 'last_name' | 'email'>>(
        db,
        sql`SELECT a.log_id, ${d.iso(sql`a."timestamp"`)} AS "timestamp", a.user_id, a.actor_name, a.actor_email, a.action, a.target_table,
                 a.target_id, a.ip_address, a.old_values, a.new_values
            FROM (SELECT log_id, "timestamp"${key ? sql`, ${key} AS k` : sql``} FROM audit_logs ${whereAll(filterConds(f))}
                   ORDER BY ${inner} LIMIT ${limit} OFFSET ${offset}) AS p
            JOIN audit_logs AS a ON a.log_id = p.log_id
           ORDER BY ${outer}`,
      );
      // The answer's key order is the shared schema's (auditLogSchema), the earlier name fields from the snapshot.
      return rows.map(({ log_id, timestamp, user_id, actor_name, actor_email, ...rest }) => ({
        log_id,
        timestamp,
        user_id,
        actor_name,
        actor_email,
        ...splitAuditName(actor_name),
        email: actor_email,
        ...rest,
      }));
    },
    countUsers(db, fromIso, toIso) {
      return num(rawRows(db, usersInRangeSql(fromIso, toIso)));
    },
  };
}
