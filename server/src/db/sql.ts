/**
 * SQL fragments whose spelling differs between SQLite and PostgreSQL, for services to use with the
 * query builder (docs/architecture.md "Data layer"). Anything dialect-specific beyond these belongs in a
 * per-dialect query module (*.sqlite.ts / *.pg.ts).
 */
import { Param, sql, type AnyColumn, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ENGINE } from './engine.ts';

const pg = () => ENGINE === 'postgres';

/** `%text%` with LIKE's wildcards (and the escape character) matched literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains", the user's text matched literally. */
export function containsText(expr: SQLWrapper | AnyColumn, text: string): SQL {
  return containsPattern(expr, sql`${likePattern(text)}`);
}

/** containsText for a prepared read: `pattern` is a placeholder whose value is likePattern(text). */
export function containsPattern(expr: SQLWrapper | AnyColumn, pattern: SQLWrapper): SQL {
  return pg() ? sql`${expr} ILIKE ${pattern} ESCAPE '\\'` : sql`${expr} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * A placeholder compared with `column`, its value converted as the column stores it (a boolean as 0/1 on
 * SQLite). A bare `sql.placeholder` reaches the driver as given.
 */
export function placeholderOf(column: AnyColumn, name: string): Param {
  return new Param(sql.placeholder(name), column);
}

/**
 * The LIMIT of a prepared page read: its placeholder inside an expression (`? + 0`). SQLite (3.53, with STAT4 as
 * better-sqlite3 builds it) plans with the value bound to a bare `LIMIT ?`, so binding it on every call expires
 * the statement and SQLite prepares it again: 15-45 µs a list read, a tenth of the list's time. The expression's
 * value is read when the statement runs, so the prepared plan is kept (docs/performance.md "API throughput").
 * Drizzle writes whatever `.limit()` gets after LIMIT; its type accepts a number or a Placeholder only.
 */
export function limitPlaceholder(name = 'limit'): Placeholder {
  return sql`(${sql.placeholder(name)} + 0)` as unknown as Placeholder;
}

/**
 * `expr` as a value SQLite does not look up through an index (the unary `+` its query planner documents for this);
 * as it is on PostgreSQL. For a join whose planner would otherwise drive from the wrong side.
 */
export function notIndexed(expr: SQLWrapper | AnyColumn): SQL {
  return pg() ? sql`${expr}` : sql`+${expr}`;
}

/** An ORDER BY key that ignores case. */
export function caseInsensitive(expr: SQLWrapper | AnyColumn): SQL {
  return pg() ? sql`lower(${expr})` : sql`${expr} COLLATE NOCASE`;
}

/**
 * How people are put in order by name, on every list and picker (users, holders, payers, owners, completions):
 * last name, then first name, letter case aside (docs/decisions.md "People in name order"). The index
 * users_name_idx holds the users in this order, so a first page by name reads its rows in order and stops.
 */
export function personNameOrder(person: { last_name: AnyColumn; first_name: AnyColumn }): SQL[] {
  return [caseInsensitive(person.last_name), caseInsensitive(person.first_name)];
}

/** The length of a JSON array column, as a number. */
export function jsonArrayLength(expr: SQLWrapper | AnyColumn): SQL<number> {
  return (pg() ? sql`jsonb_array_length(${expr})` : sql`json_array_length(${expr})`).mapWith(Number) as SQL<number>;
}

/** count(...) as a number on both engines. */
export function countOf(expr?: SQLWrapper | AnyColumn): SQL<number> {
  return (expr ? sql`count(${expr})` : sql`count(*)`).mapWith(Number) as SQL<number>;
}

/** sum(...) as a number, 0 when there are no rows. */
export function sumOf(expr: SQLWrapper | AnyColumn): SQL<number> {
  return sql`coalesce(sum(${expr}), 0)`.mapWith(Number) as SQL<number>;
}

/** How many rows satisfy a condition (portable replacement for sum(boolean)). */
export function countWhere(condition: SQL): SQL<number> {
  return sql`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`.mapWith(Number) as SQL<number>;
}

/** The UTC calendar day (YYYY-MM-DD) of an ISO timestamp column. */
export function dayOf(expr: SQLWrapper | AnyColumn): SQL<string> {
  return (pg() ? sql`to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : sql`substr(${expr}, 1, 10)`) as SQL<string>;
}

/** The UTC month (YYYY-MM) of an ISO timestamp or a calendar date column. */
export function monthOf(expr: SQLWrapper | AnyColumn): SQL<string> {
  return (pg() ? sql`to_char(${expr}, 'YYYY-MM')` : sql`substr(${expr}, 1, 7)`) as SQL<string>;
}

/** Whole days from calendar date `from` to calendar date `to` (both YYYY-MM-DD columns or values). */
export function daysBetween(from: SQLWrapper | AnyColumn | string, to: SQLWrapper | AnyColumn | string): SQL<number> {
  return (pg() ? sql`(${to}::date - ${from}::date)` : sql`cast(julianday(${to}) - julianday(${from}) as integer)`).mapWith(
    Number,
  ) as SQL<number>;
}

/** `WHERE a AND b` for raw SQL (per-dialect query modules), or nothing when there are no conditions. */
export function whereAll(conds: SQL[]): SQL {
  return conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
}

/** ` AND a AND b` to append to an existing WHERE of raw SQL, or nothing when there are no conditions. */
export function andAll(conds: SQL[]): SQL {
  return conds.length ? sql` AND ${sql.join(conds, sql` AND `)}` : sql``;
}

/** The largest of some numbers (SQLite's many-argument max, PostgreSQL's greatest). */
export function greatest(...exprs: Array<SQLWrapper | AnyColumn | number>): SQL<number> {
  const list = sql.join(
    exprs.map((e) => (typeof e === 'number' ? sql.raw(String(e)) : sql`${e}`)),
    sql`, `,
  );
  return (pg() ? sql`greatest(${list})` : sql`max(${list})`).mapWith(Number) as SQL<number>;
}
