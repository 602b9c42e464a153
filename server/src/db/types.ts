/**
 * The data layer's handles (docs/architecture.md "Data layer"). Services see two:
 *   Db  reads (never another request's uncommitted writes) and `transaction()`, the one way to write;
 *   Tx  the handle inside a transaction: the same reads plus insert, update and delete.
 * Both are typed on the SQLite query builder; the PostgreSQL builder has the same API for everything
 * listed here, and the parity test keeps the two schemas' row types equal. Builders are awaited; the
 * SQLite-only `.get()/.all()/.run()` are not used (lint).
 */
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema/sqlite/index.ts';
import type { Engine } from './engine.ts';
import type { FileStore } from './files.ts';

export type Drizzle = BetterSQLite3Database<typeof schema>;

type ReadMethods = 'select' | 'selectDistinct' | '$count' | '$with' | 'with';
type WriteMethods = 'insert' | 'update' | 'delete';

export type Reads = Pick<Drizzle, ReadMethods>;

export interface Tx extends Reads, Pick<Drizzle, WriteMethods> {
  readonly engine: Engine;
}

export interface Db extends Reads {
  readonly engine: Engine;
  /**
   * Runs `fn` in a transaction and returns its result; a throw rolls everything back. On SQLite the
   * transaction has the connection to itself; on PostgreSQL it is SERIALIZABLE and retried when the
   * database reports a conflict, so `fn` must not have effects outside the database. Nested calls (also
   * through `Db` inside `fn`) join the outer transaction as a savepoint, and reads through `Db` inside
   * `fn` see its writes.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** True when other app instances share this database (PostgreSQL): caches must not trust memory alone. */
  readonly shared: boolean;
  /** Sign-in counters (docs/security.md): atomic per key, shared by every instance. */
  readonly counters: Counters;
  /** The stored files (documents): on disk beside SQLite, in the database on PostgreSQL (db/files.ts). */
  readonly files: FileStore;
  /**
   * Runs `fn` while holding a named lock that every instance honours, or returns `{ acquired: false }`
   * at once when someone else holds it (backup and restore guards).
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }>;
  /** A trivial round trip (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Either handle, for functions that only read. */
export type DbOrTx = Db | Tx;

export interface CounterLimit {
  key: string;
  max: number;
  windowMs: number;
}

export interface CounterHit extends CounterLimit {
  count: number;
  /** Epoch ms when the count lapses (the end of the lock when over the limit). */
  resetAt: number;
  over: boolean;
}

export interface Counters {
  /** Counts one attempt against every key, atomically, and returns the new counts. */
  hit(limits: CounterLimit[], now?: number): Promise<CounterHit[]>;
  /** Forgets a key. */
  reset(key: string): Promise<void>;
  /** Gives back one attempt. */
  refund(key: string): Promise<void>;
  close(): Promise<void>;
}
