import { z } from 'zod';
import { numberFromText, optionalLine, singleLine } from './text.ts';

/** YYYY-MM-DD calendar date (the office's calendar, docs/decisions.md). */
export const dateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD')
  // A round trip, not Date.parse alone: Date.parse reads 2027-02-30 as 2 March.
  .refine((s) => isCalendarDate(s), 'Not a valid date');

/** True for a real YYYY-MM-DD calendar date (no 30 February). */
export function isCalendarDate(s: string): boolean {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/** Ids are 32-bit integers on every engine (PostgreSQL `integer`): a larger number names nothing. */
export const MAX_ID = 2_147_483_647;

/** An integer id: a JSON number, or a path or query parameter ("12" becomes 12; true, "" or "1e1" are refused). */
export const idParam = numberFromText(z.number().int().positive().max(MAX_ID));

/**
 * The most rows a list's total counts (docs/decisions.md "Paging at any size"): a count reads at most COUNT_CAP + 1
 * matching rows, so it costs the same at any size; when more match, `total` is COUNT_CAP and `total_capped` is true
 * (the screens say "10,000+"), and the rows beyond are reached by `next_cursor`.
 */
export const COUNT_CAP = 10_000;

/**
 * The most rows a search's total counts: a common fragment ("mith") matches a share of every list, and its rows are
 * found by reading the list in order and checking each one, so its count stops after SEARCH_COUNT_CAP + 1 matches
 * (docs/decisions.md "Search at any size"). The screens then say "1,000+".
 */
export const SEARCH_COUNT_CAP = 1_000;

export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
  /** The `cursor` of the page after this one (the rows after its last row), null on the last page. */
  next_cursor: z.string().nullable(),
  /** True when more rows match than the list counts (COUNT_CAP, or SEARCH_COUNT_CAP for a search): `total` is then the cap, and `pages` counts only those. */
  total_capped: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** The page size of every list that does not say otherwise (the audit log's own sizes come from the product spec). */
export const DEFAULT_PAGE_SIZE = 20;

/** A page's pagination; `counted` is the capped count (at most cap + 1 rows read), so more than `cap` means capped. */
export function makePagination(
  page: number,
  limit: number,
  counted: number,
  nextCursor: string | null = null,
  cap: number = COUNT_CAP,
): Pagination {
  const total = Math.min(counted, cap);
  return { page, limit, total, pages: Math.ceil(total / limit), next_cursor: nextCursor, total_capped: counted > cap };
}

/**
 * `cursor` of a list query (docs/api.md "Paging"): the `next_cursor` of the page before; the list then answers the
 * rows after that page's last row in the list's order, without counting the rows before it.
 */
export const cursorParam = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  singleLine({ max: 512, tooLong: 'This page link is no longer valid; start from the first page.' }).optional(),
);

export const successSchema = z.object({ success: z.literal(true) });

/** Optional one-line text that treats "" and whitespace- or invisible-only text as absent (shared/src/text.ts). */
export const optionalText = (max = 500) => optionalLine(max);

/** A required one-line text field with the spec's message (shared/src/text.ts). */
export const requiredText = (message: string, max = 255) => singleLine({ max, required: message });

/** Shape of every error body (docs/decisions.md). */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Money travels as dollars with 2 decimals and is stored as integer cents. */
export const toCents = (dollars: number): number => Math.round(dollars * 100);
export const toDollars = (cents: number): number => Math.round(cents) / 100;

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Common list query of the paginated screens: page (1-based), limit, sort column and direction. */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
  sort: singleLine(40).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  search: singleLine(200).optional(),
  cursor: cursorParam,
});

/**
 * `updated_since` of a list (docs/api.md "Changes since"): an ISO 8601 time with a zone; only rows whose updated_at
 * is after it. Normalised to UTC with milliseconds, the form every timestamp column stores.
 */
export const UPDATED_SINCE_MESSAGE = 'updated_since must be an ISO 8601 time with a zone, e.g. 2026-01-31T00:00:00Z';
const ISO_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
export const updatedSinceParam = singleLine(40)
  .refine((v) => ISO_TIME_RE.test(v) && !Number.isNaN(Date.parse(v)), UPDATED_SINCE_MESSAGE)
  .transform((v) => new Date(v).toISOString())
  .meta({ override: { type: 'string', format: 'date-time' } });

/** 'Showing X to Y of Z entries' (docs/product.md section 2); lists name what they hold ('of 57 licenses'). */
export function showingText(page: number, limit: number, total: number, things = 'entries', capped = false): string {
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = capped ? page * limit : Math.min(page * limit, total);
  return `Showing ${from} to ${to} of ${capped ? `${total.toLocaleString('en-US')}+` : total} ${things}`;
}
