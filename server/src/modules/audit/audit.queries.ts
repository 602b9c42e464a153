/**
 * Read queries over audit_logs, written to stay fast at millions of rows (docs/performance.md):
 * - Rows are listed newest first by (timestamp, log_id) from the timestamp-ending indexes, so each filter
 *   reads its index in order; a page picks its log_ids from the index first and only then reads the rows.
 * - The distinct values of action, target_table and user_id come from a loose index scan (one seek per
 *   distinct value), so an action substring becomes an `action IN (...)` index lookup.
 * - All-time figures (total, per action, per table, users) are counted once and then only for rows
 *   appended since: the log is append-only, so max(log_id) tells what is new.
 * The SQL itself lives in one module per dialect (audit.queries.sqlite.ts, audit.queries.pg.ts) behind
 * the AuditSql interface below.
 */
import { COUNT_CAP } from '@lm/shared';
import { byEngine, type Db, type DbOrTx } from '../../db/client.ts';
import type { AuditFilter, AuditKey, AuditOrder, AuditRow, AuditSql } from './audit.sql.ts';
import { sqliteAuditQueries } from './audit.queries.sqlite.ts';
import { pgAuditQueries } from './audit.queries.pg.ts';

export type { AuditFilter, AuditKey, AuditOrder, AuditRow, AuditSql } from './audit.sql.ts';

const q: AuditSql = byEngine<AuditSql>({ sqlite: sqliteAuditQueries, postgres: pgAuditQueries });

export const distinctActions = async (db: DbOrTx) => (await q.distinctValues(db, 'action')) as string[];
export const distinctTables = async (db: DbOrTx) => (await q.distinctValues(db, 'target_table')) as string[];

/**
 * All-time figures of one database: the row count, the counts per action and per table, and the set of
 * users, as of the row `maxId`. Built once, then kept current from the rows appended since (the log is
 * append-only). The newest row's id and timestamp are checked on every use, so a database that changed
 * underneath (a restore) is recounted.
 *
 * Trust: on SQLite one process writes the file and ids are handed out in commit order, so "log_id >
 * maxId" is exactly what is new. When the database is shared (PostgreSQL, several instances, concurrent
 * transactions), an id can commit after a higher one was already seen, and another instance can restore:
 * the cached figures are then trusted for at most SHARED_TRUST_MS after they were last verified; after
 * that one count(*) of the table either confirms them (append-only: equal counts mean nothing was
 * missed) or has them recounted (docs/performance.md). Figures are always counted up to one fixed log_id, so the
 * steps of one call agree with each other even though other requests run between the awaits.
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
  /** When the figures were last counted in full (Date.now()). */
  countedAt: number;
  /** Counted on first need (summary, action or table filter); the plain total is much cheaper. */
  groups?: Groups;
}
export const SHARED_TRUST_MS = 2_000;
/** Keyed by the Db object: one cache per open database. */
const allTimeCache = new WeakMap<Db | DbOrTx, AllTime>();

function bump(map: Map<string, number>, key: string | null) {
  if (key !== null) map.set(key, (map.get(key) ?? 0) + 1);
}

/** The groups as of row `upToId`: rows the group counts saw beyond it are taken out again. */
async function countGroups(db: DbOrTx, upToId: number): Promise<Groups> {
  const counted = async (column: 'action' | 'target_table') => {
    const { counts, maxId } = await q.groupCounts(db, column);
    if (maxId > upToId) {
      for (const r of await q.idsRows(db, upToId, maxId)) {
        const key = column === 'action' ? r.action : r.target_table;
        if (key !== null) counts.set(key, (counts.get(key) ?? 1) - 1);
      }
    }
    return counts;
  };
  return {
    actions: await counted('action'),
    tables: await counted('target_table'),
    // Users are a set: one appended later and added again by the catch-up changes nothing.
    users: new Set((await q.distinctValues(db, 'user_id')) as number[]),
  };
}

/** The figures brought forward to row `upToId` from the rows appended since (a new object: a concurrent call may still read the old one). */
async function catchUp(db: DbOrTx, t: AllTime, upToId: number, upToTimestamp: string): Promise<AllTime> {
  if (upToId <= t.maxId) return t;
  const next: AllTime = { ...t, maxId: upToId, maxTimestamp: upToTimestamp };
  if (t.groups) {
    const added = await q.idsRows(db, t.maxId, upToId);
    const groups = { actions: new Map(t.groups.actions), tables: new Map(t.groups.tables), users: new Set(t.groups.users) };
    for (const r of added) {
      bump(groups.actions, r.action);
      bump(groups.tables, r.target_table);
      if (r.user_id !== null) groups.users.add(r.user_id);
    }
    next.groups = groups;
    next.count = t.count + added.length;
  } else {
    next.count = t.count + (await q.countIds(db, t.maxId, upToId));
  }
  return next;
}

/**
 * Shared database, figures older than SHARED_TRUST_MS: one count of every row decides. The log is
 * append-only, so if the caught-up count equals the real one no row was missed and every figure is
 * exact again; otherwise (a late commit below maxId, a restore) they are recounted.
 */
async function reverified(db: DbOrTx, t: AllTime): Promise<AllTime | undefined> {
  const totals = await q.totals(db);
  if (totals.maxId < t.maxId) return undefined;
  const ts = totals.maxId === t.maxId ? t.maxTimestamp : await q.timestampAt(db, totals.maxId);
  if (ts === undefined) return undefined;
  const caught = await catchUp(db, t, totals.maxId, ts);
  return caught.count === totals.count ? { ...caught, countedAt: Date.now() } : undefined;
}

export async function allTime(db: DbOrTx, opts: { groups: true }): Promise<AllTime & { groups: Groups }>;
export async function allTime(db: DbOrTx, opts?: { groups?: boolean }): Promise<AllTime>;
export async function allTime(db: DbOrTx, opts: { groups?: boolean } = {}): Promise<AllTime> {
  const head = await q.head(db);
  const shared = 'shared' in db && db.shared;
  let t = allTimeCache.get(db);
  if (t) {
    const still = t.maxId === 0 ? '' : await q.timestampAt(db, t.maxId);
    if (head.log_id < t.maxId || still !== t.maxTimestamp) t = undefined;
  }
  if (t && shared && Date.now() - t.countedAt > SHARED_TRUST_MS) t = await reverified(db, t);
  if (!t) {
    const totals = await q.totals(db);
    const maxTimestamp = totals.maxId === head.log_id ? head.timestamp : ((await q.timestampAt(db, totals.maxId)) ?? '');
    t = { maxId: totals.maxId, maxTimestamp, count: totals.count, countedAt: Date.now() };
  }
  t = await catchUp(db, t, head.log_id, head.timestamp);
  if (opts.groups && !t.groups) t = { ...t, groups: await countGroups(db, t.maxId) };
  const cached = allTimeCache.get(db);
  if (!cached || cached.maxId <= t.maxId) allTimeCache.set(db, t);
  return t;
}

/**
 * A page's total: the entries matching `f`, counted up to COUNT_CAP + 1 (docs/decisions.md "Paging at any size"), so a
 * page costs the same in a log of any length; the summary's exact all-time figures are allTime's.
 */
export function countLogs(db: DbOrTx, f: AuditFilter): Promise<number> {
  return q.count(db, f, COUNT_CAP);
}

export const pageOfLogs = (
  db: DbOrTx,
  f: AuditFilter,
  limit: number,
  offset: number,
  order?: AuditOrder,
  after?: AuditKey,
): Promise<{ rows: AuditRow[]; next: AuditKey | null }> => q.page(db, f, limit, offset, order, after);

/** Rows per value of action or target_table in the range, each counted on its (column, timestamp) index. */
export async function countsBy(
  db: DbOrTx,
  column: 'action' | 'target_table',
  fromIso?: string,
  toIso?: string,
): Promise<Array<{ value: string; count: number }>> {
  const byCount = (a: { value: string; count: number }, b: { value: string; count: number }) =>
    b.count - a.count || a.value.localeCompare(b.value);
  if (fromIso === undefined && toIso === undefined) {
    const { groups } = await allTime(db, { groups: true });
    return [...(column === 'action' ? groups.actions : groups.tables).entries()].map(([value, count]) => ({ value, count })).sort(byCount);
  }
  const out: Array<{ value: string; count: number }> = [];
  for (const value of (await q.distinctValues(db, column)) as string[]) {
    const count = await q.count(db, {
      [column === 'action' ? 'actions' : 'target_table']: column === 'action' ? [value] : value,
      fromIso,
      toIso,
    });
    if (count > 0) out.push({ value, count });
  }
  return out.sort(byCount);
}

/** Distinct users with at least one entry in the range. */
export async function countUsers(db: DbOrTx, fromIso?: string, toIso?: string): Promise<number> {
  if (fromIso === undefined && toIso === undefined) return (await allTime(db, { groups: true })).groups.users.size;
  return q.countUsers(db, fromIso, toIso);
}
