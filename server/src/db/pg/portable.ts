/**
 * The portable copy on PostgreSQL (db/portable.ts).
 *   snapshotPostgres: a new SQLite file built from the SQLite migrations, filled with every table's rows
 *     read inside ONE REPEATABLE READ read-only transaction (a consistent picture while other instances
 *     keep writing). Rows travel through the two schemas' column objects, so every value arrives as the
 *     app sees it on SQLite: booleans 0/1, timestamptz the same ISO strings, dates YYYY-MM-DD, jsonb JSON text.
 *   restoreOnPostgres: the chosen tables are replaced in one db.transaction(). PostgreSQL fires ON DELETE
 *     actions at once and cannot switch foreign keys off for a non-superuser, so the foreign keys touching
 *     those tables are dropped and re-created inside the transaction (DDL is transactional; the app's role
 *     owns the tables it migrated). In between: delete, insert the snapshot's rows, settle dangling
 *     references as ON DELETE says, refuse RESTRICT ones (409), then move the identity sequences past the
 *     restored ids. `npm run db:copy` is this same restore of every table into an empty database.
 */
import type pg from 'pg';
import Database from 'better-sqlite3';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { getTableColumns, sql, type Column } from 'drizzle-orm';
import { conflict } from '../../base/errors.ts';
import { rawExec, rawRows } from '../raw.ts';
import { runSqliteMigrations } from '../sqlite/driver.ts';
import type { Db, Tx } from '../types.ts';
import {
  ALL_TABLES,
  batchSize,
  describeViolations,
  pagesOf,
  PG_TABLES,
  SQLITE_TABLES,
  type RestoreHooks,
  type SwapResult,
  type Violation,
} from '../portable-tables.ts';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface InsertingSqlite {
  insert(t: unknown): { values(rows: unknown[]): { run(): unknown } };
}
interface InsertingPg {
  insert(t: unknown): { values(rows: unknown[]): PromiseLike<unknown> };
}

/** Writes every table of the PostgreSQL database into a new SQLite file at the current SQLite schema. */
export async function snapshotPostgres(pool: pg.Pool, file: string): Promise<void> {
  const target = new Database(file);
  try {
    runSqliteMigrations(target);
    // Rows go in table by table in any order: the file is checked as a whole below.
    target.pragma('foreign_keys = OFF');
    const dest = sqliteDrizzle(target) as unknown as InsertingSqlite;
    const client = await pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const source = pgDrizzle(client);
      target.exec('BEGIN');
      for (const name of ALL_TABLES) {
        // The file store's bytes travel in a backup as files/documents/<key>, read through the store
        // (docs/architecture.md "Stored files"), not as rows of the snapshot.
        if (name === 'stored_file_chunks') continue;
        const from = PG_TABLES.get(name)!;
        const to = SQLITE_TABLES.get(name)!;
        for await (const page of pagesOf(source, from, 5000)) {
          const size = batchSize(to);
          for (let i = 0; i < page.length; i += size)
            dest
              .insert(to)
              .values(page.slice(i, i + size))
              .run();
        }
      }
      target.exec('COMMIT');
      await client.query('COMMIT');
    } catch (err) {
      if (target.inTransaction) target.exec('ROLLBACK');
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    const broken = target.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0) throw new Error(`The snapshot has ${broken.length} broken reference(s)`);
  } finally {
    target.close();
  }
}

interface PgForeignKey {
  name: string;
  child: string;
  parent: string;
  from_col: string;
  to_col: string;
  /** pg_constraint.confdeltype: a no action, r restrict, c cascade, n set null, d set default. */
  on_delete: string;
  def: string;
}

async function foreignKeys(tx: Tx): Promise<PgForeignKey[]> {
  return rawRows<PgForeignKey>(
    tx,
    sql`SELECT c.conname AS name, cl.relname AS child, pcl.relname AS parent, a.attname AS from_col, pa.attname AS to_col,
          c.confdeltype AS on_delete, pg_get_constraintdef(c.oid) AS def
        FROM pg_constraint c
        JOIN pg_class cl ON cl.oid = c.conrelid
        JOIN pg_namespace n ON n.oid = cl.relnamespace
        JOIN pg_class pcl ON pcl.oid = c.confrelid
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
        WHERE c.contype = 'f' AND n.nspname = current_schema()
        ORDER BY cl.relname, c.conname`,
  );
}

function snapshotColumns(snapshot: Database.Database, table: string): Set<string> {
  return new Set((snapshot.prepare(`PRAGMA table_info(${q(table)})`).all() as Array<{ name: string }>).map((c) => c.name));
}

/** Moves each table's identity sequence so the next id follows the largest one present. */
export async function moveSequences(tx: Tx, tables: string[]): Promise<void> {
  const identity = await rawRows<{ table_name: string; column_name: string }>(
    tx,
    sql`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  );
  for (const { table_name: t, column_name: c } of identity) {
    if (!tables.includes(t)) continue;
    await rawExec(
      tx,
      sql.raw(`SELECT setval(pg_get_serial_sequence('${q(t)}', '${c}'), coalesce((SELECT max(${q(c)}) FROM ${q(t)}), 0) + 1, false)`),
    );
  }
}

export function restoreOnPostgres<T>(db: Db, snapshotFile: string, tables: string[], hooks: RestoreHooks<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const snapshot = new Database(snapshotFile, { readonly: true, fileMustExist: true });
    try {
      const source = sqliteDrizzle(snapshot);
      const touched = (await foreignKeys(tx)).filter((fk) => tables.includes(fk.child) || tables.includes(fk.parent));
      for (const fk of touched) await rawExec(tx, sql.raw(`ALTER TABLE ${q(fk.child)} DROP CONSTRAINT ${q(fk.name)}`));

      const rowCounts: Record<string, number> = {};
      for (const name of tables) {
        const from = SQLITE_TABLES.get(name);
        const to = PG_TABLES.get(name);
        const theirs = snapshotColumns(snapshot, name);
        const ours = from ? Object.values(getTableColumns(from) as Record<string, Column>).map((c) => c.name) : [];
        if (!from || !to || theirs.size === 0 || ours.some((c) => !theirs.has(c))) {
          throw conflict(`The backup's ${name} table does not match this version of License Manager`);
        }
        await rawExec(tx, sql.raw(`DELETE FROM ${q(name)}`));
        let n = 0;
        const size = batchSize(to);
        for await (const page of pagesOf(source, from, 5000)) {
          for (let i = 0; i < page.length; i += size) await (tx as unknown as InsertingPg).insert(to).values(page.slice(i, i + size));
          n += page.length;
        }
        rowCounts[name] = n;
      }

      await hooks.between?.(tx);

      // References to rows that are gone: what ON DELETE says, repeated until nothing changes.
      const referencesCleared: Record<string, number> = {};
      const dangling = (fk: PgForeignKey) =>
        `${q(fk.from_col)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${q(fk.parent)} p WHERE p.${q(fk.to_col)} = ${q(fk.child)}.${q(fk.from_col)})`;
      for (let pass = 0; pass < 10; pass++) {
        let changed = 0;
        for (const fk of touched) {
          let n = 0;
          if (fk.on_delete === 'n') {
            n = await rawExec(tx, sql.raw(`UPDATE ${q(fk.child)} SET ${q(fk.from_col)} = NULL WHERE ${dangling(fk)}`));
          } else if (fk.on_delete === 'c') {
            n = await rawExec(tx, sql.raw(`DELETE FROM ${q(fk.child)} WHERE ${dangling(fk)}`));
          }
          if (n > 0) {
            const key = `${fk.child}.${fk.from_col}`;
            referencesCleared[key] = (referencesCleared[key] ?? 0) + n;
            changed += n;
          }
        }
        if (changed === 0) break;
      }
      const violations: Violation[] = [];
      for (const fk of touched) {
        const [row] = await rawRows<{ n: number }>(tx, sql.raw(`SELECT count(*)::int AS n FROM ${q(fk.child)} WHERE ${dangling(fk)}`));
        if (row && Number(row.n) > 0) violations.push({ table: fk.child, parent: fk.parent, count: Number(row.n) });
      }
      if (violations.length > 0) throw conflict(describeViolations(violations));

      for (const fk of touched) await rawExec(tx, sql.raw(`ALTER TABLE ${q(fk.child)} ADD CONSTRAINT ${q(fk.name)} ${fk.def}`));
      await moveSequences(tx, tables);
      const swap: SwapResult = { rowCounts, referencesCleared };
      return hooks.after(tx, swap);
    } finally {
      snapshot.close();
    }
  });
}
