/**
 * Test-only database tools that differ per engine: putting a whole world back between cases (authz) and
 * counting writes per table (contract). Both engines get the real thing: SQLite through its writer
 * connection, PostgreSQL through SQL its non-superuser owner may run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { rawExec, rawRows } from '../src/db/raw.ts';
import type { SqliteDb } from '../src/db/sqlite/driver.ts';
import { invalidateSettings } from '../src/core/settings.ts';

const sqliteOf = (db: Db) => db as SqliteDb;
const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * The application's tables (no migration bookkeeping, no test tables, and on SQLite no search index: its FTS5 tables
 * are virtual or shadow tables, kept by triggers as the rows they index are written; db/search.ts).
 */
export async function appTables(db: Db): Promise<string[]> {
  if (db.engine === 'sqlite') {
    const rows = sqliteOf(db)
      .writer.prepare(
        "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name <> 'lm_writes'",
      )
      .all() as Array<{ name: string }>;
    return rows.map((r) => r.name);
  }
  const rows = await rawRows<{ name: string }>(
    db,
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'lm_writes'`,
  );
  return rows.map((r) => r.name);
}

/** PostgreSQL's foreign keys between public tables, as child → parent table names. */
async function pgForeignKeys(db: Db): Promise<Array<{ child: string; parent: string }>> {
  const rows = await rawRows<{ child: string; parent: string }>(
    db,
    sql`SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
        FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
  );
  const clean = (n: string) => n.replace(/^"|"$/g, '');
  return rows.map((r) => ({ child: clean(r.child), parent: clean(r.parent) }));
}

/** Parents before children (foreign keys), for PostgreSQL inserts; deletes go the other way. */
function pgTableOrder(tables: string[], deps: Array<{ child: string; parent: string }>): string[] {
  const ordered: string[] = [];
  const visit = (t: string, seen: Set<string>) => {
    if (ordered.includes(t) || seen.has(t)) return;
    seen.add(t);
    for (const d of deps) if (d.child === t && d.parent !== t && tables.includes(d.parent)) visit(d.parent, seen);
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

export interface WorldSnapshot {
  tables: string[];
  /** SQLite: the VACUUM INTO file. PostgreSQL: each table's rows as JSON. */
  file?: string;
  rows?: Map<string, string>;
  /** PostgreSQL: the tables whose rows reference each table (a parent's rows cannot be deleted without theirs). */
  children?: Map<string, string[]>;
  /** PostgreSQL: each table's identity column, whose sequence is moved past the rows put back. */
  identity?: Map<string, string>;
}

/** The tables a snapshot leaves out: audit_logs only grows; the totals are derived from the rows put back. */
export const NOT_SNAPSHOTTED = ['audit_logs', 'license_totals', 'license_month_totals', 'payment_totals'];

/** Takes a copy of every table but `except` (by default those of NOT_SNAPSHOTTED). */
export async function snapshotWorld(db: Db, file: string, except: string[] = NOT_SNAPSHOTTED): Promise<WorldSnapshot> {
  const tables = (await appTables(db)).filter((t) => !except.includes(t));
  if (db.engine === 'sqlite') {
    await sqliteOf(db).withWriter(() => sqliteOf(db).writer.exec(`VACUUM INTO '${file.replace(/'/g, "''")}'`));
    return { tables, file };
  }
  const deps = (await pgForeignKeys(db)).filter((d) => tables.includes(d.child) && tables.includes(d.parent));
  const ordered = pgTableOrder(tables, deps);
  const rows = new Map<string, string>();
  const identity = new Map<string, string>();
  for (const t of ordered) {
    const [r] = await rawRows<{ j: string | null }>(db, sql`SELECT coalesce(json_agg(t), '[]')::text AS j FROM ${ident(t)} t`);
    rows.set(t, r?.j ?? '[]');
    const [idCol] = await rawRows<{ col: string }>(
      db,
      sql`SELECT attname AS col FROM pg_attribute WHERE attrelid = ${t}::regclass AND attidentity <> '' LIMIT 1`,
    );
    if (idCol) identity.set(t, idCol.col);
  }
  const children = new Map(ordered.map((t) => [t, deps.filter((d) => d.parent === t && d.child !== t).map((d) => d.child)]));
  return { tables: ordered, rows, children, identity };
}

/**
 * Puts the snapshotted tables back as they were, in one transaction: all of them, or only `only` (the tables a case
 * wrote) and, on PostgreSQL, every table that references one of them (their rows go and come back with it).
 */
export async function restoreWorld(db: Db, snap: WorldSnapshot, only?: Iterable<string>): Promise<void> {
  let chosen = new Set(only ?? snap.tables);
  if (snap.children) {
    const queue = [...chosen];
    for (let t = queue.pop(); t !== undefined; t = queue.pop()) {
      for (const c of snap.children.get(t) ?? []) {
        if (!chosen.has(c)) queue.push(c);
        chosen.add(c);
      }
    }
  }
  chosen = new Set(snap.tables.filter((t) => chosen.has(t)));
  if (chosen.size === 0) return;
  if (db.engine === 'sqlite') {
    const w = sqliteOf(db).writer;
    await sqliteOf(db).withWriter(() => {
      w.pragma('foreign_keys = OFF');
      w.prepare('ATTACH DATABASE ? AS snap').run(snap.file);
      try {
        w.transaction(() => {
          for (const t of chosen) w.exec(`DELETE FROM main."${t}"; INSERT INTO main."${t}" SELECT * FROM snap."${t}";`);
        })();
      } finally {
        w.exec('DETACH DATABASE snap');
        w.pragma('foreign_keys = ON');
      }
    });
  } else {
    const tables = [...chosen];
    await db.transaction(async (tx) => {
      for (const t of [...tables].reverse()) await rawExec(tx, sql`DELETE FROM ${ident(t)}`);
      for (const t of tables) {
        await rawExec(
          tx,
          sql`INSERT INTO ${ident(t)} SELECT * FROM json_populate_recordset(null::${ident(t)}, ${snap.rows!.get(t)!}::json)`,
        );
        const idCol = snap.identity!.get(t);
        if (idCol) {
          await rawExec(
            tx,
            sql`SELECT setval(pg_get_serial_sequence(${t}, ${idCol}), greatest(coalesce((SELECT max(${ident(idCol)}) FROM ${ident(t)}), 0), 1))`,
          );
        }
      }
    });
  }
  invalidateSettings();
}

/** Counts every INSERT, UPDATE and DELETE per table from now on (idempotent; reinstalls what a restore dropped). */
export async function installWriteCounters(db: Db, ignored: Set<string>): Promise<void> {
  const tables = (await appTables(db)).filter((t) => !ignored.has(t));
  if (db.engine === 'sqlite') {
    const w = sqliteOf(db).writer;
    const installed = "SELECT count(*) AS n FROM temp.sqlite_master WHERE type = 'trigger' AND name LIKE 'lm\\_w\\_%' ESCAPE '\\'";
    if ((w.prepare(installed).get() as { n: number }).n === tables.length * 3) return;
    await sqliteOf(db).withWriter(() => {
      w.exec('CREATE TEMP TABLE IF NOT EXISTS lm_writes (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL)');
      for (const name of tables) {
        w.prepare('INSERT OR IGNORE INTO lm_writes (tbl, n) VALUES (?, 0)').run(name);
        for (const ev of ['INSERT', 'UPDATE', 'DELETE']) {
          w.exec(
            `CREATE TEMP TRIGGER IF NOT EXISTS lm_w_${name}_${ev.toLowerCase()} AFTER ${ev} ON main."${name}" ` +
              `BEGIN UPDATE lm_writes SET n = n + 1 WHERE tbl = '${name}'; END`,
          );
        }
      }
    });
    return;
  }
  const [present] = await rawRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM pg_trigger WHERE tgname = 'lm_w'`);
  if (Number(present?.n) === tables.length) return;
  await db.transaction(async (tx) => {
    await rawExec(tx, sql`CREATE TABLE IF NOT EXISTS lm_writes (tbl text PRIMARY KEY, n integer NOT NULL)`);
    await rawExec(
      tx,
      sql`CREATE OR REPLACE FUNCTION lm_count_write() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN UPDATE lm_writes SET n = n + 1 WHERE tbl = TG_TABLE_NAME; RETURN NULL; END $$`,
    );
    for (const name of tables) {
      await rawExec(tx, sql`INSERT INTO lm_writes (tbl, n) VALUES (${name}, 0) ON CONFLICT DO NOTHING`);
      await rawExec(tx, sql.raw(`DROP TRIGGER IF EXISTS lm_w ON "${name}"`));
      await rawExec(
        tx,
        sql.raw(`CREATE TRIGGER lm_w AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION lm_count_write()`),
      );
    }
  });
}

export async function writeCounts(db: Db): Promise<Map<string, number>> {
  const rows =
    db.engine === 'sqlite'
      ? (sqliteOf(db).writer.prepare('SELECT tbl, n FROM lm_writes').all() as Array<{ tbl: string; n: number }>)
      : await rawRows<{ tbl: string; n: number }>(db, sql`SELECT tbl, n FROM lm_writes`);
  return new Map(rows.map((r) => [r.tbl, Number(r.n)]));
}

/** The migration folder copied with only the migrations before `tag` (a database from before it). */
export function migrationsBefore(folder: string, tag: string, dir: string): string {
  const out = path.join(dir, path.basename(folder));
  fs.mkdirSync(path.join(out, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  expect(cut).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, cut);
  fs.writeFileSync(path.join(out, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) fs.copyFileSync(path.join(folder, `${e.tag}.sql`), path.join(out, `${e.tag}.sql`));
  return out;
}

/**
 * The plan of a query built with Drizzle (`.toSQL()`), one line per step: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's
 * EXPLAIN. The test databases are tiny, where reading every row is cheapest, so on PostgreSQL the transaction turns
 * off the planner settings in `priceOut` (enable_seqscan, ...): the plan then shows what the indexes can do.
 * Parameters are written into the SQL as literals (EXPLAIN takes none).
 */
export async function queryPlan(
  db: Db,
  query: { sql: string; params: unknown[] },
  priceOut: string[] = ['enable_seqscan'],
): Promise<string> {
  let i = 0;
  const lit = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  if (db.engine !== 'postgres') {
    const text = query.sql.replace(/\?/g, () => lit(query.params[i++]));
    return (await rawRows<{ detail: string }>(db, sql.raw(`EXPLAIN QUERY PLAN ${text}`))).map((r) => r.detail).join('\n');
  }
  const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => lit(query.params[Number(n) - 1]));
  return db.transaction(async (tx) => {
    for (const setting of priceOut) await rawExec(tx, sql.raw(`SET LOCAL ${setting} = off`));
    return (await rawRows<{ 'QUERY PLAN': string }>(tx, sql.raw(`EXPLAIN ${text}`))).map((r) => r['QUERY PLAN']).join('\n');
  });
}
