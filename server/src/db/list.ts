/**
 * The one way a list answers a page (docs/architecture.md "Lists"): the window a query asks for (page, limit, one
 * default size), the order (the chosen sort, then the table's id so pages never overlap), and the answer
 * `{rows, pagination}` from a count and a read of the window. Services say what to count and what to read; the
 * prepared reads of the busiest lists (db/prepared.ts) plug in here the same way as a plain query.
 */
import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import { DEFAULT_PAGE_SIZE, makePagination, type Pagination } from '@lm/shared';

export { DEFAULT_PAGE_SIZE };

/**
 * The most rows a list answers when it is asked without a page (GET /licenses, /payments, /completions without
 * `limit`; docs/security.md "Bounded work per request"): the first rows in the list's order, never the whole table.
 */
export const UNPAGED_LIST_MAX = 2000;

/** The rows a page covers. */
export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

/** The page a query asks for (1 and the default size when it does not say). */
export function pageWindow(q: { page?: number; limit?: number }, defaultLimit: number = DEFAULT_PAGE_SIZE): PageWindow {
  const page = q.page ?? 1;
  const limit = q.limit ?? defaultLimit;
  return { page, limit, offset: (page - 1) * limit };
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

export interface PageReads<T> {
  /** How many rows match, whatever the window. */
  count(): Promise<number | undefined>;
  /** The rows of the window. */
  rows(window: PageWindow): Promise<T[]>;
}

/** One page of a list: the count, then the rows of the window, with the pagination the screens show. */
export async function readPage<T>(
  q: { page?: number; limit?: number },
  reads: PageReads<T>,
  defaultLimit: number = DEFAULT_PAGE_SIZE,
): Promise<{ rows: T[]; pagination: Pagination }> {
  const window = pageWindow(q, defaultLimit);
  const total = (await reads.count()) ?? 0;
  const rows = await reads.rows(window);
  return { rows, pagination: makePagination(window.page, window.limit, total) };
}
