/**
 * The one way a list answers a page (docs/architecture.md "Lists"): the window a query asks for (page, limit, one
 * default size), the order (the chosen sort, then the table's id so pages never overlap), and the answer
 * `{rows, pagination}` from a count and a read of the window. Services say what to count and what to read; the
 * prepared reads of the busiest lists (db/prepared.ts) plug in here the same way as a plain query.
 *
 * Paging at any size (docs/decisions.md "Paging at any size"): a page asked by `cursor` (the `next_cursor` of the
 * page before) reads the rows after that page's last row by a keyset condition on the list's ORDER BY, never by
 * OFFSET; a count reads at most COUNT_CAP + 1 rows (`cappedCount`).
 */
import { and, asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { COUNT_CAP, DEFAULT_PAGE_SIZE, makePagination, type Pagination } from '@lm/shared';
import { badRequest } from '../base/errors.ts';
import { driverCode } from '../base/driver-code.ts';
import { ENGINE } from './engine.ts';
import { decoded } from './prepared.ts';
import { countOf } from './sql.ts';
import type { Drizzle } from './types.ts';

export { COUNT_CAP, DEFAULT_PAGE_SIZE };

/**
 * The most rows a list answers when it is asked without a page (GET /licenses, /payments, /completions without
 * `limit`; docs/security.md "Bounded work per request"): the first rows in the list's order, never the whole table.
 */
export const UNPAGED_LIST_MAX = 2000;

/** The rows a page covers. */
export interface PageWindow {
  page: number;
  limit: number;
  /** 0 when the page is asked by cursor. */
  offset: number;
  /** The sort values, then the id, of the row the page starts after (a decoded `cursor`), if any. */
  after?: CursorValue[] | undefined;
}

/** The 400 of a cursor that does not decode, or does not fit the list's order. */
export const CURSOR_INVALID = 'This page link is no longer valid; start from the first page.';

/** The 400 for a cursor this list cannot read (garbled, another sort's, or values of the wrong type). */
export const invalidCursor = () => badRequest(CURSOR_INVALID, [{ path: 'cursor', message: CURSOR_INVALID }]);

/** The 400 of a page number beyond the counted rows (docs/api.md "Paging"). */
export const PAST_COUNT_CAP = `Page numbers reach the first ${COUNT_CAP.toLocaleString('en-US')} rows only; use cursor (each page's next_cursor) to page further.`;

/** The page a query asks for (1 and the default size when it does not say); a cursor is decoded here (400 when garbled). */
export function pageWindow(
  q: { page?: number; limit?: number; cursor?: string | undefined },
  defaultLimit: number = DEFAULT_PAGE_SIZE,
): PageWindow {
  const page = q.page ?? 1;
  const limit = q.limit ?? defaultLimit;
  if (q.cursor) return { page, limit, offset: 0, after: decodeCursor(q.cursor) };
  // OFFSET stays within the counted rows: a deeper page is read by cursor (bounded work per request).
  if ((page - 1) * limit >= COUNT_CAP && page > 1) throw badRequest(PAST_COUNT_CAP, [{ path: 'page', message: PAST_COUNT_CAP }]);
  return { page, limit, offset: (page - 1) * limit };
}

/** One value of a cursor: a sort value or the id of the row a page starts after. */
export type CursorValue = string | number | null;

/** A page's `next_cursor`: base64url of the JSON array of the last row's sort values, then its id. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of a cursor; a 400 with a human message when it is not one this server made. */
export function decodeCursor(s: string): CursorValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  const ok =
    Array.isArray(values) &&
    values.length > 0 &&
    values.length <= 8 &&
    values.every((v) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  if (!ok) throw invalidCursor();
  return values as CursorValue[];
}

export type SortOrder = 'asc' | 'desc';

/**
 * The direction a list sorts in: as asked; else newest first when it sorts by its time column (`timeSort`, also its
 * default sort), and ascending by any other column.
 */
export function directionOf(q: { sort?: string; order?: SortOrder }, timeSort: string): SortOrder {
  return q.order ?? ((q.sort ?? timeSort) === timeSort ? 'desc' : 'asc');
}

/** ORDER BY of a list: the sort's expressions in `order`, then `tiebreak` (the id) in the same direction. */
export function orderOf(sort: ReadonlyArray<SQL | AnyColumn>, order: SortOrder, tiebreak: AnyColumn): SQL[] {
  const dir = order === 'desc' ? desc : asc;
  return [...sort.map((c) => dir(c)), dir(tiebreak)];
}

/**
 * What a list is ordered by: the sort's expressions (none of them NULL: a nullable column is sorted through
 * COALESCE, so both engines order it alike and a keyset comparison never meets NULL), the direction, then the id.
 */
export interface ListOrder {
  sort: ReadonlyArray<SQL | AnyColumn>;
  order: SortOrder;
  id: AnyColumn;
}

/**
 * A nullable sort column as a key that is never NULL and sorts first ascending on both engines (SQLite puts NULL
 * first, PostgreSQL last): text as '', a timestamp as the earliest time.
 */
export function nullsFirst(expr: SQL | AnyColumn, kind: 'text' | 'time'): SQL {
  if (kind === 'time' && ENGINE === 'postgres') return sql`coalesce(${expr}, '-infinity'::timestamptz)`;
  return sql`coalesce(${expr}, '')`;
}

/** One prepared read per sort, made on first use: a page's key columns (keyColumns) depend on the sort. */
export function perSort<K, R>(make: (sort: K) => R): (sort: K) => R {
  const made = new Map<K, R>();
  return (sort) => {
    let read = made.get(sort);
    if (read === undefined) made.set(sort, (read = make(sort)));
    return read;
  };
}

const keyExprs = (o: ListOrder): Array<SQL | AnyColumn> => [...o.sort, o.id];

/**
 * The rows after a cursor in the list's order: `(sort…, id) > (values…)` ascending, `<` descending; a row-value
 * comparison both engines read as one index range. `values` are the cursor's values, or `'placeholders'` for a
 * prepared read (placeholders `k0`, `k1`, … filled by `keyValues`). A cursor of another arity is a 400.
 */
export function afterKey(o: ListOrder, values: ReadonlyArray<CursorValue> | 'placeholders'): SQL {
  const exprs = keyExprs(o);
  if (values !== 'placeholders' && values.length !== exprs.length) throw invalidCursor();
  const right = exprs.map((_, i) => (values === 'placeholders' ? sql.placeholder(`k${i}`) : sql`${values[i]}`));
  return sql`(${sql.join(
    exprs.map((e) => sql`${e}`),
    sql`, `,
  )}) ${o.order === 'desc' ? sql`<` : sql`>`} (${sql.join(right, sql`, `)})`;
}

/** A plain query's condition for a window: `where`, and the keyset condition when the page is asked by cursor. */
export function pageWhere(where: SQL | undefined, order: ListOrder, window: PageWindow): SQL | undefined {
  return window.after ? and(where, afterKey(order, window.after)) : where;
}

/**
 * A read after a cursor whose values the database cannot take as the sort's type (a cursor made for another sort,
 * or edited: PostgreSQL's data exceptions, class 22) answers the cursor's 400, never a 500.
 */
export async function readAfter<T>(after: unknown, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (after && driverCode(err)?.startsWith('22')) throw invalidCursor();
    throw err;
  }
}

/** A prepared read's placeholder values (`k0`, …) for a cursor's values (afterKey with 'placeholders'). */
export function keyValues(o: ListOrder, values: ReadonlyArray<CursorValue>): Record<string, CursorValue> {
  if (values.length !== o.sort.length + 1) throw invalidCursor();
  const out: Record<string, CursorValue> = {};
  values.forEach((v, i) => (out[`k${i}`] = v));
  return out;
}

/** A key value as read: PostgreSQL's as text (a timestamp's microseconds, a date without a time zone), SQLite's as stored. */
const asKey = (value: unknown): CursorValue =>
  value === null || typeof value === 'number' || typeof value === 'string' ? value : String(value);
const KEY_PREFIX = '__k';

/**
 * The columns a page's read selects beside its row, so the page can say where the next one starts: each sort
 * expression and the id, as `__k0`, `__k1`, …; `readPage` takes them off the rows again. PostgreSQL reads them as
 * text, which compares back exactly through a parameter of the column's type.
 */
export function keyColumns(o: ListOrder): Record<string, SQL<CursorValue>> {
  const out: Record<string, SQL<CursorValue>> = {};
  keyExprs(o).forEach((e, i) => {
    out[`${KEY_PREFIX}${i}`] = decoded(ENGINE === 'postgres' ? sql`(${e})::text` : sql`${e}`, asKey);
  });
  return out;
}

/** The next page's cursor from a page's rows (null when the page is not full), and the rows without their key columns. */
function takeKeys<T>(rows: T[], limit: number, width: number): string | null {
  let next: string | null = null;
  const last = rows.length === limit && rows.length > 0 ? (rows[rows.length - 1] as Record<string, unknown>) : undefined;
  if (last && `${KEY_PREFIX}0` in last) {
    const values: CursorValue[] = [];
    for (let i = 0; i < width; i++) values.push(asKey(last[`${KEY_PREFIX}${i}`] ?? null));
    next = encodeCursor(values);
  }
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (let i = 0; i < width; i++) delete r[`${KEY_PREFIX}${i}`];
  }
  return next;
}

/**
 * A count that reads at most COUNT_CAP + 1 of the rows `matching` selects (`select({ one: sql\`1\` }).from(…).where(…)`):
 * `SELECT count(*) FROM (… LIMIT cap + 1)`, the same cost at any size. More than COUNT_CAP means "COUNT_CAP+".
 */
export function cappedCount(d: Pick<Drizzle, 'select'>, matching: { limit(n: number): { as(alias: string): unknown } }, cap = COUNT_CAP) {
  return d.select({ n: countOf() }).from(matching.limit(cap + 1).as('capped') as Parameters<ReturnType<Drizzle['select']>['from']>[0]);
}

/** cappedCount of one table's rows that match `where`: a list's total, read from its first row to at most COUNT_CAP + 1. */
export async function cappedCountOf(
  d: Pick<Drizzle, 'select'>,
  table: Parameters<ReturnType<Drizzle['select']>['from']>[0],
  where: SQL | undefined,
): Promise<number | undefined> {
  return (
    await cappedCount(
      d,
      d
        .select({ one: sql<number>`1`.as('one') })
        .from(table)
        .where(where),
    )
  )[0]?.n;
}

export interface PageReads<T> {
  /** The most rows `count` counts (COUNT_CAP unless it says; SEARCH_COUNT_CAP for a search). */
  cap?: number;
  /** How many rows match, whatever the window: a capped count (cappedCount) or any number up to cap + 1. */
  count(): Promise<number | undefined>;
  /** The rows of the window: its `offset`, or the rows after `window.after` (afterKey) when asked by cursor. */
  rows(window: PageWindow): Promise<T[]>;
  /**
   * The list's order, when its rows carry `keyColumns(order)`: pages by cursor are keyset reads. A list without it
   * (a small table: brokerages, rules, templates, keys, backups, imports) answers cursors that hold a position
   * (`offsetCursor`), read by OFFSET.
   */
  order?: ListOrder;
}

/** The cursor of a list without a keyset order: the position of the next page (`o` and the number of rows before it). */
const OFFSET_CURSOR = /^o(\d{1,9})$/;
const offsetCursor = (offset: number): string => `o${offset}`;

/** One page of a list: the (capped) count, then the rows of the window, with the pagination the screens show. */
export async function readPage<T>(
  q: { page?: number; limit?: number; cursor?: string | undefined },
  reads: PageReads<T>,
  defaultLimit: number = DEFAULT_PAGE_SIZE,
): Promise<{ rows: T[]; pagination: Pagination }> {
  let window: PageWindow;
  if (reads.order || !q.cursor) {
    window = pageWindow(q, defaultLimit);
  } else {
    const at = OFFSET_CURSOR.exec(q.cursor);
    if (!at) throw invalidCursor();
    window = { page: q.page ?? 1, limit: q.limit ?? defaultLimit, offset: Number(at[1]) };
  }
  if (window.after && window.after.length !== reads.order!.sort.length + 1) {
    throw invalidCursor();
  }
  const total = (await reads.count()) ?? 0;
  const rows = await readAfter(window.after, () => reads.rows(window));
  const next = reads.order
    ? takeKeys(rows, window.limit, reads.order.sort.length + 1)
    : rows.length === window.limit
      ? offsetCursor(window.offset + rows.length)
      : null;
  return { rows, pagination: makePagination(window.page, window.limit, total, next, reads.cap) };
}
