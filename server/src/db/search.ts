/**
 * "Contains" search over people's names and license numbers, served by an index on both engines
 * (docs/decisions.md "Search at any size"; docs/architecture.md "Data layer"):
 *
 * - SQLite: FTS5 tables with the trigram tokenizer, `user_search` (rowid = user_id: name, email, phone) and
 *   `license_search` (rowid = license_id: the holder's name, the license number), kept in step by triggers
 *   (drizzle/sqlite "search" migration). An FTS5 phrase of the user's text finds the candidates; its case folding
 *   is wider than LIKE's (it folds accented letters too), so each candidate is re-checked with the LIKE the lists
 *   always used, and the answer is exactly LIKE's.
 * - PostgreSQL: pg_trgm GIN indexes on exactly the expressions compared with ILIKE (drizzle/pg "search"
 *   migration); the condition is the same ILIKE, written so the planner can start from those indexes.
 *
 * Trigrams need 3 characters: a shorter text is searched as before, by LIKE on each row (such a text matches
 * many rows, so a page stops early; docs/performance.md "Search"). So is a page of a common text
 * (licenseSearchFilter): when the index finds SEARCH_COUNT_CAP candidates or more, reading the list in its order
 * and checking each row finds a page after a few rows, while the index would hand over every match to be sorted.
 * The capped count of a common text over every license (an Admin's) reads the index's matches in the index's own
 * order instead and stops at the cap (licensesMatchingFirst); a scoped count reads its scope's few licenses.
 *
 * Each condition stands alone (it does not rely on the caller's joins): `licensesMatching(licenses.license_id,
 * terms)` is true for the licenses whose holder's name ("First Last") or number contains the text;
 * `peopleMatching(users.user_id, terms)` for the people whose name (or, with 'contact', e-mail or phone) does.
 * A caller whose query already reads the compared columns passes them (`columns`): the check is then made on its
 * own row instead of a subquery per row (a third of the time of a common or short text at 1M licenses).
 */
import { sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ENGINE } from './engine.ts';
import { SEARCH_COUNT_CAP } from '@lm/shared';
import { rawRows } from './raw.ts';
import { containsPattern, likePattern } from './sql.ts';
import type { DbOrTx } from './types.ts';

/** The shortest text the trigram indexes serve. */
export const SEARCH_INDEX_MIN_CHARS = 3;

/**
 * A list's search filter as part of its prepared shape: 'search' is served by the index, 'search_scan' (fewer
 * than SEARCH_INDEX_MIN_CHARS characters) by a scan, 'search_common' (a common text: licenseSearchFilter) by a
 * scan for a page and by the index for a capped count, so each is different SQL.
 */
export type SearchFilter = 'search' | 'search_scan' | 'search_common';

/** What a search compares: the LIKE pattern, the FTS5 phrase, and whether the text is too short for the index. */
export interface SearchTerms {
  short: boolean;
  /** likePattern(text): `%text%`, wildcards escaped with `\`. */
  pattern: SQLWrapper;
  /** ftsPhrase(text): the text as one FTS5 string. */
  phrase: SQLWrapper;
}

/** The filter a text needs (counted in characters, not UTF-16 units). */
export function searchFilter(text: string): SearchFilter {
  return [...text].length >= SEARCH_INDEX_MIN_CHARS ? 'search' : 'search_scan';
}

/** The user's text as one FTS5 string: inside double quotes, a double quote doubled. */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The filter of a licenses search: by the index when it finds fewer than SEARCH_COUNT_CAP candidates (a rare text:
 * the index reads only those), by a scan in the list's order when it finds more (a common text: a page and the
 * capped count stop early) or when the text is too short for the index. The probe reads at most SEARCH_COUNT_CAP
 * index entries on SQLite; on PostgreSQL the trigram bitmaps of the two indexed expressions.
 */
export async function licenseSearchFilter(db: DbOrTx, text: string): Promise<SearchFilter> {
  if (searchFilter(text) === 'search_scan') return 'search_scan';
  const { pattern, phrase } = searchTerms(text);
  const candidates = pg()
    ? sql`SELECT sl.license_id FROM licenses sl WHERE ${like('sl.license_number', pattern)}
          UNION ALL SELECT su.user_id FROM users su WHERE ${like(NAME('su'), pattern)}`
    : ftsRowids('license_search', phrase);
  const [probe] = await rawRows<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM (${candidates} LIMIT ${SEARCH_COUNT_CAP}) AS probe`,
  );
  return Number(probe?.n ?? 0) >= SEARCH_COUNT_CAP ? 'search_common' : 'search';
}

/** The placeholders' values of a prepared read's search (`search`, `search_fts`), or none without a text. */
export function searchValues(text: string | undefined): { search: string | undefined; search_fts: string | undefined } {
  return text ? { search: likePattern(text), search_fts: ftsPhrase(text) } : { search: undefined, search_fts: undefined };
}

/**
 * The terms of a prepared read with the filter `filter`: placeholders `search` and `search_fts` (searchValues).
 * A common text's rows are checked one by one, as a short text's are.
 */
export function searchPlaceholders(filter: SearchFilter): SearchTerms {
  return { short: filter !== 'search', pattern: sql.placeholder('search'), phrase: sql.placeholder('search_fts') };
}

/** The terms of a text, as values in the SQL (reads that are not prepared). */
export function searchTerms(text: string): SearchTerms {
  return { short: searchFilter(text) === 'search_scan', pattern: sql`${likePattern(text)}`, phrase: sql`${ftsPhrase(text)}` };
}

const pg = () => ENGINE === 'postgres';

/** `expr` contains the pattern, case-insensitively, as the lists have always compared (containsPattern). */
function like(expr: string | SQLWrapper, pattern: SQLWrapper): SQL {
  return containsPattern(typeof expr === 'string' ? sql.raw(expr) : expr, pattern);
}

/**
 * The caller's own columns, when its query already reads them (a list joined with the holder): the check is then
 * made on them, with no subquery per row.
 */
export interface LicenseColumns {
  /** The holder's name as the lists compare it, `(first_name || ' ' || last_name)`. */
  name: SQLWrapper;
  number: SQLWrapper | AnyColumn;
}
export interface PersonColumns {
  name: SQLWrapper;
  email: SQLWrapper | AnyColumn;
  phone: SQLWrapper | AnyColumn;
}

/**
 * SQLite: the rowids an FTS5 table's MATCH finds. Only the index is read (a candidate's row is read when the
 * re-check runs, for the candidates the outer query gets to: a capped count stops early).
 */
function ftsRowids(table: 'license_search' | 'user_search', match: SQLWrapper): SQL {
  return sql`SELECT rowid FROM ${sql.raw(table)} WHERE ${sql.raw(table)} MATCH ${match}`;
}

/** The name the lists search: the indexed expression on PostgreSQL, the FTS column on SQLite. */
const NAME = (alias: string) => `(${alias}.first_name || ' ' || ${alias}.last_name)`;

/**
 * The licenses (by `licenseId`, the caller's license id column) whose holder's name or license number contains
 * the text; with 'number', whose license number does.
 */
export function licensesMatching(
  licenseId: SQLWrapper | AnyColumn,
  terms: SearchTerms,
  fields: 'any' | 'number' = 'any',
  columns?: LicenseColumns,
): SQL {
  const number = like('sl.license_number', terms.pattern);
  if (fields === 'number') {
    if (terms.short) return sql`EXISTS (SELECT 1 FROM licenses sl WHERE sl.license_id = ${licenseId} AND ${number})`;
    if (pg()) return sql`${licenseId} IN (SELECT sl.license_id FROM licenses sl WHERE ${number})`;
    return sql`(${licenseId} IN (${ftsRowids('license_search', sql`'license_number : ' || ${terms.phrase}`)}) AND EXISTS (SELECT 1 FROM licenses sl WHERE sl.license_id = ${licenseId} AND ${number}))`;
  }
  const check = sql`(${like(NAME('su'), terms.pattern)} OR ${number})`;
  const recheck = columns
    ? sql`(${like(columns.name, terms.pattern)} OR ${like(columns.number, terms.pattern)})`
    : sql`EXISTS (SELECT 1 FROM licenses sl JOIN users su ON su.user_id = sl.user_id WHERE sl.license_id = ${licenseId} AND ${check})`;
  if (terms.short) return recheck;
  if (pg()) {
    // Two index scans (licenses_number_trgm_idx, users_name_trgm_idx), then the licenses by primary key.
    return sql`${licenseId} IN (SELECT sl.license_id FROM licenses sl WHERE ${number} UNION ALL SELECT sl.license_id FROM users su JOIN licenses sl ON sl.user_id = su.user_id WHERE ${like(NAME('su'), terms.pattern)})`;
  }
  return sql`(${licenseId} IN (${ftsRowids('license_search', terms.phrase)}) AND ${recheck})`;
}

/**
 * The people (by `userId`, the caller's user id column) whose name contains the text; with 'contact', whose
 * name, e-mail or phone number does (the Users list).
 */
export function peopleMatching(
  userId: SQLWrapper | AnyColumn,
  terms: SearchTerms,
  fields: 'name' | 'contact' = 'name',
  columns?: PersonColumns,
): SQL {
  const check =
    fields === 'name'
      ? like(NAME('su'), terms.pattern)
      : sql`(${like(NAME('su'), terms.pattern)} OR ${like('su.email', terms.pattern)} OR ${like('su.phone_number', terms.pattern)})`;
  const own = columns && {
    name: like(columns.name, terms.pattern),
    contact: sql`(${like(columns.name, terms.pattern)} OR ${like(columns.email, terms.pattern)} OR ${like(columns.phone, terms.pattern)})`,
  };
  const recheck = own ? own[fields] : sql`EXISTS (SELECT 1 FROM users su WHERE su.user_id = ${userId} AND ${check})`;
  if (terms.short) return recheck;
  // PostgreSQL: one index scan per compared expression (users_*_trgm_idx), OR-ed as bitmaps.
  if (pg()) return sql`${userId} IN (SELECT su.user_id FROM users su WHERE ${check})`;
  const phrase = fields === 'name' ? sql`'name : ' || ${terms.phrase}` : terms.phrase;
  return sql`(${userId} IN (${ftsRowids('user_search', phrase)}) AND ${recheck})`;
}

/** The people (by `userId`) holding a license whose number contains the text. */
export function peopleWithLicenseMatching(userId: SQLWrapper | AnyColumn, terms: SearchTerms): SQL {
  if (terms.short) {
    return sql`EXISTS (SELECT 1 FROM licenses sl WHERE sl.user_id = ${userId} AND ${like('sl.license_number', terms.pattern)})`;
  }
  return sql`${userId} IN (SELECT hl.user_id FROM licenses hl WHERE ${licensesMatching(sql.raw('hl.license_id'), terms, 'number')})`;
}

/**
 * `SELECT select` over the licenses whose holder's name or number contains a text of SEARCH_INDEX_MIN_CHARS or more,
 * read from the search index in the index's order, for a count over every license (an Admin's): with `limit`, the
 * reading stops there however many licenses match (a page's capped total reads 1,001 rows at 10k licenses as at 1M);
 * without, it reads the matches and no other license (the compliance summary's grouped count). `select` and `where`
 * (the caller's other conditions) are on `licenses` and `users` (the holder), which both engines' forms join by those
 * names; `columns` are the compared expressions on them (LicenseColumns), re-checked on each row.
 *
 * - SQLite: the FTS5 table drives, each candidate's license and holder read by key.
 * - PostgreSQL: the licenses whose number matches, then the holders whose name matches (users_name_trgm_idx) with
 *   their other licenses through LATERAL … OFFSET 0, which keeps the planner reading holder by holder (the OFFSET
 *   stops it from folding the subquery into a join): as a join it hashes the licenses, since it estimates a
 *   '%text%' match at a few rows, and reads the whole table (at 100k licenses 32 ms against 5 ms this way).
 */
export function licensesMatchingFirst(
  select: SQL,
  terms: SearchTerms,
  columns: LicenseColumns,
  where: SQL | undefined,
  limit?: number,
): SQL {
  const also = where ? sql` AND ${where}` : sql``;
  const upTo = limit === undefined ? sql`` : sql` LIMIT ${limit}`;
  const recheck = sql`(${like(columns.name, terms.pattern)} OR ${like(columns.number, terms.pattern)})`;
  if (pg()) {
    const number = like(columns.number, terms.pattern);
    return sql`SELECT ${select} FROM licenses JOIN users ON users.user_id = licenses.user_id WHERE ${number}${also}
               UNION ALL
               SELECT ${select} FROM users CROSS JOIN LATERAL (
                 SELECT licenses.* FROM licenses WHERE licenses.user_id = users.user_id AND NOT ${number}${also} OFFSET 0
               ) AS licenses
                WHERE ${like(columns.name, terms.pattern)}${upTo}`;
  }
  return sql`SELECT ${select} FROM license_search JOIN licenses ON licenses.license_id = license_search.rowid
               JOIN users ON users.user_id = licenses.user_id
              WHERE license_search MATCH ${terms.phrase} AND ${recheck}${also}${upTo}`;
}
