/**
 * Read queries over audit_logs, written to stay fast at millions of rows (docs/performance.md):
 * - Rows are listed newest first by (timestamp, log_id): every index on the table ends in timestamp
 *   and, implicitly, log_id, so each filter reads its index in order and never sorts.
 * - A page picks its log_ids from the index alone (covering, no row reads for skipped rows) and only
 *   then reads the rows of that page.
 * - The distinct values of action, target_table and user_id come from a loose index scan (one
 *   seek per distinct value), so an action substring becomes an `action IN (...)` index lookup.
 * - All-time figures (total, per action, per table, users) are counted once per connection and then
 *   only for rows appended since: the log is append-only, so max(log_id) tells what is new.
 * Statements are prepared once per connection and reused.
 */
import type Database from 'better-sqlite3';
import type { Db } from '../../db/client.ts';
import { stmt } from '../reports/sql.ts';

/** Distinct non-null values of an indexed column, one index seek per value. */
function distinctValues<T extends string | number>(db: Db, column: 'action' | 'target_table' | 'user_id'): T[] {
  const rows = stmt(
    db,
    `WITH RECURSIVE v(x) AS (
       SELECT (SELECT ${column} FROM audit_logs WHERE ${column} IS NOT NULL ORDER BY ${column} LIMIT 1)
       UNION ALL
       SELECT (SELECT ${column} FROM audit_logs WHERE ${column} > v.x ORDER BY ${column} LIMIT 1) FROM v WHERE v.x IS NOT NULL
     ) SELECT x FROM v WHERE x IS NOT NULL`,
  )
    .pluck()
    .all() as T[];
  return rows;
}

export const distinctActions = (db: Db) => distinctValues<string>(db, 'action');
export const distinctTables = (db: Db) => distinctValues<string>(db, 'target_table');

export interface AuditFilter {
  user_id?: number;
  /** Exact actions (already resolved from a substring). */
  actions?: string[];
  target_table?: string;
  /** Inclusive lower and exclusive upper timestamp bounds (ISO). */
  fromIso?: string;
  toIso?: string;
}

function where(f: AuditFilter): { clause: string; params: unknown[] } {
  const conds: string[] = [];
  const params: unknown[] = [];
  if (f.user_id !== undefined) {
    conds.push('user_id = ?');
    params.push(f.user_id);
  }
  if (f.actions) {
    conds.push(f.actions.length === 1 ? 'action = ?' : `action IN (${f.actions.map(() => '?').join(',')})`);
    params.push(...f.actions);
  }
  if (f.target_table !== undefined) {
    conds.push('target_table = ?');
    params.push(f.target_table);
  }
  if (f.fromIso !== undefined) {
    conds.push('timestamp >= ?');
    params.push(f.fromIso);
  }
  if (f.toIso !== undefined) {
    conds.push('timestamp < ?');
    params.push(f.toIso);
  }
  return { clause: conds.length ? `WHERE ${conds.join(' AND ')}` : '', params };
}

/**
 * All-time figures of one database connection: the row count and the counts per action and per
 * table, and the set of users. Built once, then kept current from the rows appended since (the log
 * is append-only). The newest row's id and timestamp are checked on every use, so a database that
 * changed underneath (a restore) is recounted.
 */
interface Groups {
  actions: Map<string, number>;
  tables: Map<string, number>;
  users: Set<number>;
}
interface AllTime {
  maxId: number;
  maxTimestamp: string;
  count: number;
  /** Counted on first need (summary, action or table filter); the plain total is much cheaper. */
  groups?: Groups;
}
const allTimeCache = new WeakMap<Database.Database, AllTime>();

function bump(map: Map<string, number>, key: string | null) {
  if (key !== null) map.set(key, (map.get(key) ?? 0) + 1);
}

function countGroups(db: Db): Groups {
  const group = (column: 'action' | 'target_table') =>
    new Map(
      (
        stmt(db, `SELECT ${column} AS k, count(*) AS n FROM audit_logs WHERE ${column} IS NOT NULL GROUP BY ${column}`).all() as Array<{
          k: string;
          n: number;
        }>
      ).map((r) => [r.k, r.n]),
    );
  return { actions: group('action'), tables: group('target_table'), users: new Set(distinctValues<number>(db, 'user_id')) };
}

// Every read below is synchronous on one connection, so no row can be appended between them.
export function allTime(db: Db, opts: { groups: true }): AllTime & { groups: Groups };
export function allTime(db: Db, opts?: { groups?: boolean }): AllTime;
export function allTime(db: Db, opts: { groups?: boolean } = {}): AllTime {
  const head = (stmt(db, 'SELECT log_id, timestamp FROM audit_logs ORDER BY log_id DESC LIMIT 1').get() as
    { log_id: number; timestamp: string } | undefined) ?? { log_id: 0, timestamp: '' };
  let t = allTimeCache.get(db.$client);
  if (t) {
    const still =
      t.maxId === 0 ? '' : (stmt(db, 'SELECT timestamp FROM audit_logs WHERE log_id = ?').pluck().get(t.maxId) as string | undefined);
    if (head.log_id < t.maxId || still !== t.maxTimestamp) t = undefined;
  }
  if (!t) {
    t = { maxId: head.log_id, maxTimestamp: head.timestamp, count: stmt(db, 'SELECT count(*) FROM audit_logs').pluck().get() as number };
    allTimeCache.set(db.$client, t);
  } else if (head.log_id > t.maxId) {
    if (t.groups) {
      const added = stmt(db, 'SELECT action, target_table, user_id FROM audit_logs WHERE log_id > ?').all(t.maxId) as Array<{
        action: string;
        target_table: string | null;
        user_id: number | null;
      }>;
      for (const r of added) {
        bump(t.groups.actions, r.action);
        bump(t.groups.tables, r.target_table);
        if (r.user_id !== null) t.groups.users.add(r.user_id);
      }
      t.count += added.length;
    } else {
      t.count += stmt(db, 'SELECT count(*) FROM audit_logs WHERE log_id > ?').pluck().get(t.maxId) as number;
    }
    t.maxId = head.log_id;
    t.maxTimestamp = head.timestamp;
  }
  if (opts.groups && !t.groups) t.groups = countGroups(db);
  return t;
}

export function countLogs(db: Db, f: AuditFilter): number {
  const dated = f.fromIso !== undefined || f.toIso !== undefined;
  // Without dates or a user, the all-time figures answer at once.
  if (!dated && f.user_id === undefined) {
    if (!f.actions && f.target_table === undefined) return allTime(db).count;
    if (f.actions && f.target_table === undefined) {
      const { actions } = allTime(db, { groups: true }).groups;
      return f.actions.reduce((sum, a) => sum + (actions.get(a) ?? 0), 0);
    }
    if (!f.actions && f.target_table !== undefined) return allTime(db, { groups: true }).groups.tables.get(f.target_table) ?? 0;
  }
  const w = where(f);
  return stmt(db, `SELECT count(*) FROM audit_logs ${w.clause}`)
    .pluck()
    .get(...w.params) as number;
}

export interface AuditRow {
  log_id: number;
  timestamp: string;
  user_id: number | null;
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

export function pageOfLogs(db: Db, f: AuditFilter, limit: number, offset: number): AuditRow[] {
  const w = where(f);
  return stmt(
    db,
    `SELECT a.log_id, a.timestamp, a.user_id, u.first_name, u.last_name, u.email, a.action, a.target_table,
            a.target_id, a.ip_address, a.old_values, a.new_values
       FROM (SELECT log_id, timestamp FROM audit_logs ${w.clause}
              ORDER BY timestamp DESC, log_id DESC LIMIT ? OFFSET ?) AS p
       JOIN audit_logs AS a ON a.log_id = p.log_id
       LEFT JOIN users AS u ON u.user_id = a.user_id
      ORDER BY p.timestamp DESC, p.log_id DESC`,
  ).all(...w.params, limit, offset) as AuditRow[];
}

function rangeClause(fromIso: string | undefined, toIso: string | undefined) {
  const conds: string[] = [];
  const params: string[] = [];
  if (fromIso !== undefined) {
    conds.push('timestamp >= ?');
    params.push(fromIso);
  }
  if (toIso !== undefined) {
    conds.push('timestamp < ?');
    params.push(toIso);
  }
  return { sql: conds.map((c) => ` AND ${c}`).join(''), params };
}

/** Rows per value of action or target_table in the range, each counted on its (column, timestamp) index. */
export function countsBy(
  db: Db,
  column: 'action' | 'target_table',
  fromIso?: string,
  toIso?: string,
): Array<{ value: string; count: number }> {
  const byCount = (a: { value: string; count: number }, b: { value: string; count: number }) =>
    b.count - a.count || a.value.localeCompare(b.value);
  if (fromIso === undefined && toIso === undefined) {
    const { groups } = allTime(db, { groups: true });
    return [...(column === 'action' ? groups.actions : groups.tables).entries()].map(([value, count]) => ({ value, count })).sort(byCount);
  }
  const r = rangeClause(fromIso, toIso);
  const s = stmt(db, `SELECT count(*) FROM audit_logs WHERE ${column} = ?${r.sql}`).pluck();
  return distinctValues<string>(db, column)
    .map((value) => ({ value, count: s.get(value, ...r.params) as number }))
    .filter((x) => x.count > 0)
    .sort(byCount);
}

/** Distinct users with at least one entry in the range: one seek per distinct user on (user_id, timestamp). */
export function countUsers(db: Db, fromIso?: string, toIso?: string): number {
  if (fromIso === undefined && toIso === undefined) return allTime(db, { groups: true }).groups.users.size;
  const r = rangeClause(fromIso, toIso);
  return stmt(
    db,
    `WITH RECURSIVE v(x) AS (
       SELECT (SELECT user_id FROM audit_logs WHERE user_id IS NOT NULL ORDER BY user_id LIMIT 1)
       UNION ALL
       SELECT (SELECT user_id FROM audit_logs WHERE user_id > v.x ORDER BY user_id LIMIT 1) FROM v WHERE v.x IS NOT NULL
     ) SELECT count(*) FROM v
        WHERE x IS NOT NULL AND EXISTS (SELECT 1 FROM audit_logs WHERE user_id = v.x${r.sql})`,
  )
    .pluck()
    .get(...r.params) as number;
}
