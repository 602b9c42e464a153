import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ROOT } from '../../paths.ts';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import * as schema from '../schema/sqlite/index.ts';
import type { Db, Drizzle, Tx } from '../types.ts';
import { currentTx, openTxOf, RAW, READ_VERSION, readsOn, txOn, type ReadVersion } from '../handles.ts';
import { assertDiskWritable, translateDbError } from '../errors.ts';
import { SqliteCounters } from './counters.ts';
import { diskFileStore } from '../files.ts';

export const SQLITE_MIGRATIONS = path.join(ROOT, 'drizzle/sqlite');

/** Pragmas (docs/architecture.md, docs/performance.md): WAL, durable commits (licenses and payments), and a busy timeout. */
function applyPragmas(sqlite: Database.Database) {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('temp_store = MEMORY');
}

/**
 * Applies pending migrations with foreign keys off (a table rebuild must not cascade deletes,
 * drizzle issue 5782), then checks the foreign keys of what they touched before turning enforcement back on.
 * A start with no new migration checks nothing: a whole-database check costs seconds per 100k licenses, and a
 * restart after a crash must not wait for it (docs/performance.md "Start-up").
 */
export function runSqliteMigrations(sqlite: Database.Database) {
  sqlite.pragma('foreign_keys = OFF');
  try {
    const touched = pendingMigrations(sqlite);
    migrate(drizzle(sqlite), { migrationsFolder: SQLITE_MIGRATIONS });
    const violations = withChildren(sqlite, touched).flatMap(
      (table) => sqlite.pragma(`foreign_key_check(${JSON.stringify(table)})`) as unknown[],
    );
    if (violations.length > 0) {
      throw new Error(`Migration left ${violations.length} foreign key violation(s): ${JSON.stringify(violations.slice(0, 5))}`);
    }
  } finally {
    sqlite.pragma('foreign_keys = ON');
  }
}

const TABLE_IN_SQL = /\b(?:CREATE TABLE|ALTER TABLE|INSERT INTO|UPDATE|DELETE FROM|RENAME TO)\s+[`"]?(\w+)[`"]?/gi;

/**
 * The tables whose foreign keys the migrations about to run may break: those their SQL names, and every table whose
 * foreign keys point at one of them (a parent rebuilt under its children). Drizzle's migrator runs the migrations
 * newer than the newest one recorded in `__drizzle_migrations`, so those are the ones read here.
 */
export function pendingMigrations(sqlite: Database.Database): string[] {
  const recorded = sqlite.prepare(`select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'`).get();
  const last = recorded
    ? Number((sqlite.prepare('select max(created_at) as last from __drizzle_migrations').get() as { last: number | null }).last ?? 0)
    : 0;
  const named = new Set<string>();
  for (const m of readMigrationFiles({ migrationsFolder: SQLITE_MIGRATIONS })) {
    if (m.folderMillis <= last) continue;
    for (const statement of m.sql) for (const match of statement.matchAll(TABLE_IN_SQL)) named.add(match[1]!);
  }
  return [...named].filter((t) => !t.startsWith('__new_'));
}

/** After migrating: the named tables that exist, and their children (tables with a foreign key to one of them). */
function withChildren(sqlite: Database.Database, named: string[]): string[] {
  const tables = (
    sqlite.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as Array<{ name: string }>
  ).map((r) => r.name);
  const wanted = new Set(named);
  const out = new Set(tables.filter((t) => wanted.has(t)));
  for (const t of tables) {
    const parents = sqlite.pragma(`foreign_key_list(${JSON.stringify(t)})`) as Array<{ table: string }>;
    if (parents.some((p) => wanted.has(p.table))) out.add(t);
  }
  return [...out];
}

/** Statements kept per connection: enough for every query shape the app builds (docs/performance.md "API throughput"). */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Keeps each connection's prepared statements by SQL text, so a query that runs on every request is compiled
 * by SQLite once, not on every call (Drizzle asks the driver to prepare its SQL each time it runs). A statement
 * is handed out in its default modes: Drizzle switches one to raw rows for a select, and the next user of the same
 * SQL may want objects. better-sqlite3 is synchronous, so no two calls share a statement at the same moment (a
 * statement being iterated is never handed out: nothing in the app iterates), and SQLite prepares it again by
 * itself when the schema changes (a migration, a restore).
 */
function cacheStatements(sqlite: Database.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const kept = cache.get(source);
    if (kept && !kept.busy) {
      // Most recently used last: the first entry is the one to drop when full.
      cache.delete(source);
      cache.set(source, kept);
      if (kept.reader) kept.raw(false).pluck(false).expand(false);
      return kept;
    }
    const stmt = prepare(source);
    cache.set(source, stmt);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return stmt;
  }) as typeof sqlite.prepare;
}

/** The transactions sharing one COMMIT; each is answered when it is done. */
interface CommitGroup {
  members: Array<{ resolve: () => void; reject: (err: unknown) => void }>;
}

/** At most this many transactions share a COMMIT (their answers wait for it). */
const GROUP_LIMIT = 32;

export interface SqliteDb extends Db {
  /** The writer connection: for the data layer's own SQLite code (snapshots, restore), never for services. */
  readonly writer: Database.Database;
  /** Runs `job` when the writer is free (no transaction open), holding it until `job` settles. */
  withWriter<T>(job: () => Promise<T> | T): Promise<T>;
  readonly file: string;
  readonly [READ_VERSION]: ReadVersion | undefined;
}

/**
 * SQLite with two connections (docs/architecture.md "Data layer"): a writer that one transaction at a
 * time has to itself (an async queue hands it over), and a query_only reader for everything outside a
 * transaction. WAL gives the reader the last committed state, so a request never sees another request's
 * uncommitted writes, and reads never wait for a write.
 */
export function openSqlite(file: string, options: { migrate?: boolean; dataDir?: string | undefined } = {}): SqliteDb {
  const memory = file === ':memory:';
  if (!memory) fs.mkdirSync(path.dirname(file), { recursive: true });
  const writer = new Database(file);
  applyPragmas(writer);
  if (options.migrate !== false) runSqliteMigrations(writer);
  let reader = writer;
  if (!memory) {
    reader = new Database(file);
    applyPragmas(reader);
    reader.pragma('query_only = ON');
  }
  cacheStatements(writer);
  if (reader !== writer) cacheStatements(reader);
  const w = drizzle(writer, { schema }) as unknown as Drizzle;
  const r = drizzle(reader, { schema }) as unknown as Drizzle;
  const tx: Tx = txOn(w, 'sqlite');
  const held = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  // Transactions waiting for the writer, whether one is running, and the open group (group commit, below).
  let waitingTx = 0;
  let runningTx = false;
  let group: CommitGroup | null = null;

  /** Commits the open group: its transactions are answered only now, once their writes are on disk. */
  const commitGroup = () => {
    const g = group!;
    group = null;
    try {
      writer.exec('COMMIT');
    } catch (err) {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      for (const member of g.members) member.reject(translateDbError(err));
      return;
    }
    for (const member of g.members) member.resolve();
  };

  /**
   * After the last waiting transaction: requests that arrived meanwhile are still in the event loop's I/O queue
   * (a transaction runs without giving it a turn), so the COMMIT waits one turn (setImmediate) for them to join.
   */
  const commitSoon = (g: CommitGroup) =>
    setImmediate(() => {
      if (group === g && !runningTx && waitingTx === 0) commitGroup();
    });

  const withWriter = <T>(job: () => Promise<T> | T, isTransaction = false): Promise<T> => {
    // Inside one of this database's transactions the writer is already ours: waiting for the queue would wait for ourselves.
    if (openTxOf(db)) return Promise.resolve().then(job);
    if (isTransaction) waitingTx++;
    const run = async () => {
      if (isTransaction) waitingTx--;
      // Anything but a transaction needs the writer outside one: commit the group first.
      if (!isTransaction && group) commitGroup();
      if (closed) throw new Error('The database is closed');
      return job();
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
  const counters = new SqliteCounters(writer, withWriter);
  // The reader sees only committed state, and its data_version moves with every commit of another connection; with
  // one connection (in memory) its own commits would not move it, so nothing is kept there.
  const dataVersion = reader === writer ? undefined : reader.prepare('PRAGMA data_version');
  const readVersion: ReadVersion | undefined = dataVersion
    ? () => (openTxOf(db) ? undefined : (dataVersion.get() as { data_version: number }).data_version)
    : undefined;

  const db: SqliteDb = {
    ...readsOn(() => (openTxOf(db) ? w : r)),
    engine: 'sqlite',
    shared: false,
    counters,
    files: diskFileStore(
      path.join(options.dataDir ?? (memory ? fs.mkdtempSync(path.join(os.tmpdir(), 'lm-files-')) : path.dirname(file)), 'documents'),
    ),
    writer,
    file,
    withWriter,
    get [RAW]() {
      return openTxOf(db) ? w : r;
    },
    [READ_VERSION]: readVersion,
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const open = openTxOf(db);
      if (open) {
        const name = `sp${open.depth + 1}`;
        writer.exec(`SAVEPOINT ${name}`);
        try {
          const out = await currentTx.run({ ...open, depth: open.depth + 1 }, () => fn(tx));
          writer.exec(`RELEASE ${name}`);
          return out;
        } catch (err) {
          writer.exec(`ROLLBACK TO ${name}`);
          writer.exec(`RELEASE ${name}`);
          throw translateDbError(err);
        }
      }
      // While the disk is full, writes other than sign-ins are refused before they start (docs/security.md "Faults").
      assertDiskWritable();
      // Group commit (docs/architecture.md "Data layer"): transactions that were waiting for the writer run one
      // after another inside one SQLite transaction, each in a savepoint of its own (a failure rolls back only its
      // own writes), and share its COMMIT: one fsync for the group instead of one each. Each is answered only after
      // that COMMIT, so nothing is acknowledged before it is durable. The group closes when no transaction is
      // waiting after one turn of the event loop (commitSoon), at GROUP_LIMIT, or when anything else needs the writer.
      return new Promise<T>((resolve, reject) => {
        withWriter(async () => {
          if (!group) {
            writer.exec('BEGIN IMMEDIATE');
            group = { members: [] };
          }
          const g = group;
          writer.exec('SAVEPOINT tx');
          let out: T;
          runningTx = true;
          try {
            out = await currentTx.run({ owner: db, drizzle: w, tx, depth: 0 }, () => fn(tx));
            writer.exec('RELEASE tx');
          } catch (err) {
            if (writer.inTransaction) {
              writer.exec('ROLLBACK TO tx');
              writer.exec('RELEASE tx');
            } else {
              // SQLite ended the whole transaction (an I/O error, say): the group's earlier work is gone too.
              group = null;
              for (const member of g.members) member.reject(translateDbError(err));
            }
            reject(translateDbError(err));
            if (group === g && waitingTx === 0) commitSoon(g);
            return;
          } finally {
            runningTx = false;
          }
          g.members.push({ resolve: () => resolve(out), reject });
          if (g.members.length >= GROUP_LIMIT) commitGroup();
          else if (waitingTx === 0) commitSoon(g);
        }, true).catch(reject);
      });
    },
    async exclusive<T>(name: string, fn: () => Promise<T>) {
      if (held.has(name)) return { acquired: false as const };
      held.add(name);
      try {
        return { acquired: true as const, value: await fn() };
      } finally {
        held.delete(name);
      }
    },
    async ping() {
      reader.prepare('SELECT 1').get();
    },
    async close() {
      if (closed) return;
      await withWriter(() => undefined).catch(() => undefined);
      closed = true;
      if (reader !== writer && reader.open) reader.close();
      if (!writer.open) return;
      try {
        writer.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        writer.close();
      }
    },
  };
  return db;
}
