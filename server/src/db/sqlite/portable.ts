/**
 * Restore on SQLite (db/portable.ts): the snapshot is ATTACHed to the writer and, in one IMMEDIATE
 * transaction, each chosen table's live rows are deleted and the snapshot's inserted with INSERT ...
 * SELECT (the bytes travel unchanged). ATTACH and `foreign_keys = OFF` cannot happen inside a
 * transaction, so this holds the writer (withWriter) and opens the transaction itself, giving the hooks
 * the same Tx (and AsyncLocalStorage entry) db.transaction() would: nested db.transaction() calls become
 * savepoints. Foreign-key actions are off while the tables are swapped (otherwise deleting the live
 * brokerages would null every user's brokerage before the same brokerages come back); afterwards
 * references to rows that are gone are settled as ON DELETE says and foreign_key_check must be empty.
 */
import type Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from '../schema/sqlite/index.ts';
import { currentTx, txOn } from '../handles.ts';
import { translateDbError } from '../errors.ts';
import { conflict } from '../../base/errors.ts';
import type { Drizzle } from '../types.ts';
import type { SqliteDb } from './driver.ts';
import { describeViolations, type RestoreHooks, type SwapResult, type Violation } from '../portable-tables.ts';

const SCHEMA_ALIAS = 'snap';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

function columns(sqlite: Database.Database, schemaName: string, table: string): string[] {
  return (sqlite.prepare(`PRAGMA ${schemaName}.table_info(${q(table)})`).all() as Array<{ name: string }>).map((c) => c.name);
}

function userTables(sqlite: Database.Database): string[] {
  return sqlite
    .prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'`)
    .pluck()
    .all() as string[];
}

interface ForeignKey {
  table: string;
  from: string;
  to: string | null;
  on_delete: string;
}

/**
 * Rows that point at a parent row which is gone get what ON DELETE would have given them: SET NULL
 * clears the column, CASCADE removes the row. RESTRICT/NO ACTION stay for foreign_key_check to report.
 * Repeats until nothing changes (a cascade can orphan further rows).
 */
function settleDanglingReferences(sqlite: Database.Database): Record<string, number> {
  const cleared: Record<string, number> = {};
  const fks: Array<{ child: string; fk: ForeignKey }> = [];
  for (const child of userTables(sqlite)) {
    for (const fk of sqlite.prepare(`PRAGMA main.foreign_key_list(${q(child)})`).all() as ForeignKey[]) fks.push({ child, fk });
  }
  for (let pass = 0; pass < 10; pass++) {
    let changed = 0;
    for (const { child, fk } of fks) {
      const parentKey = fk.to ?? 'rowid';
      const dangling = `${q(fk.from)} IS NOT NULL AND ${q(fk.from)} NOT IN (SELECT ${q(parentKey)} FROM main.${q(fk.table)})`;
      let n = 0;
      if (fk.on_delete === 'SET NULL')
        n = sqlite.prepare(`UPDATE main.${q(child)} SET ${q(fk.from)} = NULL WHERE ${dangling}`).run().changes;
      else if (fk.on_delete === 'CASCADE') n = sqlite.prepare(`DELETE FROM main.${q(child)} WHERE ${dangling}`).run().changes;
      if (n > 0) {
        const key = `${child}.${fk.from}`;
        cleared[key] = (cleared[key] ?? 0) + n;
        changed += n;
      }
    }
    if (changed === 0) break;
  }
  return cleared;
}

function violationsOf(rows: Array<{ table: string; parent: string }>): Violation[] {
  const counts = new Map<string, Violation>();
  for (const r of rows) {
    const key = `${r.table}|${r.parent}`;
    const v = counts.get(key) ?? { table: r.table, parent: r.parent, count: 0 };
    v.count++;
    counts.set(key, v);
  }
  return [...counts.values()];
}

export function restoreOnSqlite<T>(db: SqliteDb, snapshotFile: string, tables: string[], hooks: RestoreHooks<T>): Promise<T> {
  return db.withWriter(async () => {
    const sqlite = db.writer;
    sqlite.prepare(`ATTACH DATABASE ? AS ${SCHEMA_ALIAS}`).run(snapshotFile);
    const fkWasOn = sqlite.pragma('foreign_keys', { simple: true }) === 1;
    sqlite.pragma('foreign_keys = OFF'); // a no-op inside a transaction, so it is set before BEGIN
    try {
      const w = drizzle(sqlite, { schema }) as unknown as Drizzle;
      const tx = txOn(w, 'sqlite');
      sqlite.exec('BEGIN IMMEDIATE');
      try {
        const out = await currentTx.run({ owner: db, drizzle: w, tx, depth: 0 }, async () => {
          const rowCounts: Record<string, number> = {};
          for (const table of tables) {
            const live = columns(sqlite, 'main', table);
            const theirs = new Set(columns(sqlite, SCHEMA_ALIAS, table));
            const missing = live.filter((c) => !theirs.has(c));
            if (theirs.size === 0 || missing.length > 0) {
              throw conflict(`The backup's ${table} table does not match this version of License Manager`);
            }
            const list = live.map(q).join(', ');
            sqlite.prepare(`DELETE FROM main.${q(table)}`).run();
            sqlite.prepare(`INSERT INTO main.${q(table)} (${list}) SELECT ${list} FROM ${SCHEMA_ALIAS}.${q(table)}`).run();
            rowCounts[table] = sqlite
              .prepare(`SELECT count(*) FROM main.${q(table)}`)
              .pluck()
              .get() as number;
          }
          await hooks.between?.(tx);
          const referencesCleared = settleDanglingReferences(sqlite);
          const violations = sqlite.pragma('main.foreign_key_check') as Array<{ table: string; parent: string }>;
          if (violations.length > 0) throw conflict(describeViolations(violationsOf(violations)));
          const swap: SwapResult = { rowCounts, referencesCleared };
          return hooks.after(tx, swap);
        });
        sqlite.exec('COMMIT');
        return out;
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw translateDbError(err);
      }
    } finally {
      if (fkWasOn) sqlite.pragma('foreign_keys = ON');
      sqlite.exec(`DETACH DATABASE ${SCHEMA_ALIAS}`);
    }
  });
}
