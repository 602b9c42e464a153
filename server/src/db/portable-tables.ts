/**
 * The tables of both schemas by SQL name, paging and the restore's shared types, for the portable copy
 * (portable.ts, sqlite/portable.ts, pg/portable.ts).
 */
import { asc, getTableColumns, getTableName, gt, is, type Column, type SQL } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { PgTable } from 'drizzle-orm/pg-core';
import * as sqliteSchema from './schema/sqlite/index.ts';
import * as pgSchema from './schema/pg/index.ts';
import type { Tx } from './types.ts';

// ---------------------------------------------------------------- tables of both schemas

function tablesOf<T extends object>(schema: Record<string, unknown>, kind: abstract new (...args: never[]) => T): Map<string, T> {
  const out = new Map<string, T>();
  for (const value of Object.values(schema)) {
    if (is(value, kind as never)) out.set(getTableName(value as never), value as T);
  }
  return out;
}

/** The SQLite tables by SQL name (what a snapshot file holds). */
export const SQLITE_TABLES = tablesOf(sqliteSchema, SQLiteTable);
/** The PostgreSQL tables by SQL name (the same names and row types: server/test/schema-parity.test.ts). */
export const PG_TABLES = tablesOf(pgSchema, PgTable);
/**
 * Derived tables: the running totals (db/totals.ts), kept by triggers on licenses and payments. A copy (snapshot,
 * db:copy) leaves them out: the target's triggers count them as the rows arrive.
 */
export const DERIVED_TABLES: ReadonlySet<string> = new Set(['license_totals', 'license_month_totals', 'payment_totals']);
/** Every table of the schema but the derived ones, by SQL name, sorted. */
export const ALL_TABLES = [...SQLITE_TABLES.keys()].filter((t) => !DERIVED_TABLES.has(t)).sort();

/** The single primary-key column of a table, if it has one (job_runs has a composite key). */
export function primaryKeyOf(table: object): Column | undefined {
  return Object.values(getTableColumns(table as never) as Record<string, Column>).find((c) => c.primary);
}

interface Selecting {
  select(): {
    from(t: unknown): {
      where(c: SQL | undefined): {
        orderBy(...c: Array<SQL | Column>): {
          limit(
            n: number,
          ): PromiseLike<Array<Record<string, unknown>>> & { offset(n: number): PromiseLike<Array<Record<string, unknown>>> };
        };
      };
    };
  };
}

/**
 * A table's rows through a Drizzle instance, in pages (values as the app sees them): by primary key
 * after the last one seen, or, for a composite key, by every column with an offset.
 */
export async function* pagesOf(
  d: unknown,
  table: object,
  pageSize: number,
): AsyncGenerator<Array<Record<string, unknown>>, void, undefined> {
  const columns = getTableColumns(table as never) as Record<string, Column>;
  const pk = primaryKeyOf(table);
  const key = pk ? Object.entries(columns).find(([, c]) => c === pk)![0] : undefined;
  let last: unknown;
  for (let offset = 0; ; offset += pageSize) {
    const query = (d as Selecting)
      .select()
      .from(table)
      .where(pk && last !== undefined ? gt(pk, last) : undefined);
    const rows = pk
      ? await query.orderBy(asc(pk)).limit(pageSize)
      : await query
          .orderBy(...Object.values(columns).map((c) => asc(c)))
          .limit(pageSize)
          .offset(offset);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    if (key) last = rows.at(-1)![key];
  }
}

/** Rows per INSERT for a table: well under both engines' bound-parameter limits. */
export function batchSize(table: object): number {
  return Math.max(1, Math.floor(8000 / Object.keys(getTableColumns(table as never)).length));
}

export interface SwapResult {
  /** Rows of each restored table right after the copy (before references were settled). */
  rowCounts: Record<string, number>;
  /** `child.column` -> rows whose reference was cleared (SET NULL) or that were removed (CASCADE). */
  referencesCleared: Record<string, number>;
}

export interface RestoreHooks<T> {
  /** After the tables were copied, before references are settled (same transaction). */
  between?: (tx: Tx) => Promise<void>;
  /** Last, in the same transaction: what the restore returns (audit entries, caches). */
  after: (tx: Tx, swap: SwapResult) => Promise<T>;
}

/** A reference that would dangle after the swap and that the schema does not allow to clear. */
export interface Violation {
  table: string;
  parent: string;
  count: number;
}

/** A readable reason: which table would refer to which missing rows. */
export function describeViolations(rows: Violation[]): string {
  const parts = rows.map(
    ({ table, parent, count }) => `${count} ${table} record${count === 1 ? '' : 's'} would refer to ${parent} that would no longer exist`,
  );
  return `Nothing was restored: ${parts.join('; ')}. Restore the related groups together.`;
}
