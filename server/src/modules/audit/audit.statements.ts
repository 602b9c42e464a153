import { sql, type SQL } from 'drizzle-orm';
import { splitAuditName } from '@lm/shared';
import type { DbOrTx } from '../../db/client.ts';
import { whereAll } from '../../db/sql.ts';
import {
  col,
  distinctSql,
  filterConds,
  NEWEST_FIRST,
  sortColumn,
  usersInRangeSql,
  type AuditKey,
  type AuditRow,
  type AuditSql,
} from './audit.sql.ts';

/** What the audit statements need from an engine. */
export interface AuditDialect {
  /** Runs a raw statement (SQLite: prepared once per connection and reused). */
  rows<T>(db: DbOrTx, query: SQL): Promise<T[]>;
  /** A timestamp column as the ISO 8601 UTC string the app uses. */
  iso(column: SQL): SQL;
  /** A column as a cursor holds it (db/list.ts keyColumns: PostgreSQL's as text, SQLite's as stored). */
  key(column: SQL): SQL;
  /** Where NULL sort keys go: first ascending, last descending, as SQLite puts them ('' on SQLite). */
  nulls(dir: 'asc' | 'desc'): SQL;
}

/**
 * The rows after a cursor's row: `("timestamp", log_id)` compared as one row value, after the sort key if there
 * is one; a NULL key sorts first ascending and last descending (AuditDialect.nulls).
 */
function afterCond(key: SQL | null, dir: 'asc' | 'desc', after: AuditKey): SQL {
  const [v, ts, id] = key ? after : [null, ...after];
  const op = dir === 'asc' ? sql`>` : sql`<`;
  const rest = sql`("timestamp", log_id) ${op} (${ts}, ${id})`;
  if (!key) return rest;
  if (v === null) return dir === 'asc' ? sql`(${key} IS NOT NULL OR (${key} IS NULL AND ${rest}))` : sql`(${key} IS NULL AND ${rest})`;
  return dir === 'asc'
    ? sql`(${key} > ${v} OR (${key} = ${v} AND ${rest}))`
    : sql`(${key} < ${v} OR ${key} IS NULL OR (${key} = ${v} AND ${rest}))`;
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
    count(db, f, cap) {
      const where = whereAll(filterConds(f));
      const query =
        cap === undefined
          ? sql`SELECT count(*) AS n FROM audit_logs ${where}`
          : sql`SELECT count(*) AS n FROM (SELECT 1 FROM audit_logs ${where} LIMIT ${cap + 1}) AS capped`;
      return num(rawRows(db, query));
    },
    async page(db, f, limit, offset, order = NEWEST_FIRST, after) {
      // The page picks its log_ids (and sort values) from the index first, then reads only those rows; a page
      // asked by cursor starts after the cursor's row (afterCond) instead of skipping rows.
      // Who acted is the name and e-mail stored with each entry, never today's users row (docs/decisions.md
      // "Audit: who acted"), so there is no join.
      const dir = order.dir === 'asc' ? sql`ASC` : sql`DESC`;
      const key = sortColumn(order);
      const nulls = d.nulls(order.dir);
      const inner = key ? sql`${key} ${dir}${nulls}, "timestamp" ${dir}, log_id ${dir}` : sql`"timestamp" ${dir}, log_id ${dir}`;
      const outer = key ? sql`p.k ${dir}${nulls}, p."timestamp" ${dir}, p.log_id ${dir}` : sql`p."timestamp" ${dir}, p.log_id ${dir}`;
      const conds = filterConds(f);
      if (after) conds.push(afterCond(key, order.dir, after));
      const window = after ? sql`LIMIT ${limit}` : sql`LIMIT ${limit} OFFSET ${offset}`;
      const rows = await rawRows<Omit<AuditRow, 'first_name' | 'last_name' | 'email'> & { kk?: string | number | null; kt: string }>(
        db,
        sql`SELECT a.log_id, ${d.iso(sql`a."timestamp"`)} AS "timestamp", a.user_id, a.actor_name, a.actor_email, a.action, a.target_table,
                 a.target_id, a.ip_address, a.old_values, a.new_values, p.kt${key ? sql`, p.kk` : sql``}
            FROM (SELECT log_id, "timestamp", ${d.key(sql`"timestamp"`)} AS kt${key ? sql`, ${key} AS k, ${d.key(key)} AS kk` : sql``}
                    FROM audit_logs ${whereAll(conds)}
                   ORDER BY ${inner} ${window}) AS p
            JOIN audit_logs AS a ON a.log_id = p.log_id
           ORDER BY ${outer}`,
      );
      const last = rows.length === limit ? rows[rows.length - 1] : undefined;
      const next: AuditKey | null = last ? (key ? [last.kk ?? null, last.kt, last.log_id] : [last.kt, last.log_id]) : null;
      // The answer's key order is the shared schema's (auditLogSchema), the earlier name fields from the snapshot.
      const out = rows.map(({ log_id, timestamp, user_id, actor_name, actor_email, kt: _kt, kk: _kk, ...rest }) => ({
        log_id,
        timestamp,
        user_id,
        actor_name,
        actor_email,
        ...splitAuditName(actor_name),
        email: actor_email,
        ...rest,
      }));
      return { rows: out, next };
    },
    countUsers(db, fromIso, toIso) {
      return num(rawRows(db, usersInRangeSql(fromIso, toIso)));
    },
  };
}
