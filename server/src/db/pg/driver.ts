import path from 'node:path';
import pg from 'pg';
import { ROOT } from '../../paths.ts';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Db, Drizzle, Tx } from '../types.ts';
import { currentTx, openTxOf, RAW, readsOn, txOn } from '../handles.ts';
import { driverCode, noteWriteSucceeded, translateDbError } from '../errors.ts';
import { PgCounters } from './counters.ts';
import { pgFileStore } from '../files.ts';

export const PG_MIGRATIONS = path.join(ROOT, 'drizzle/pg');

// Counts and sums come back as numbers, as they do on SQLite (bigint and numeric are strings by default).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** One fixed advisory lock key for migrations: instances starting together migrate one after the other. */
const MIGRATION_LOCK = 4_857_301;
/** Conflicts PostgreSQL asks the client to retry: serialization failure and deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What each pooled connection keeps as long as the pool keeps it: its Drizzle instance and the transaction handle
 * on it (built once, not per transaction); and each instance's connection, for savepoints.
 */
const onClient = new WeakMap<pg.PoolClient, { drizzle: Drizzle; tx: Tx }>();
const clientOf = new WeakMap<Drizzle, pg.PoolClient>();
function handlesOn(client: pg.PoolClient): { drizzle: Drizzle; tx: Tx } {
  let handles = onClient.get(client);
  if (!handles) {
    const d = drizzle(client) as unknown as Drizzle;
    handles = { drizzle: d, tx: txOn(d, 'postgres') };
    onClient.set(client, handles);
    clientOf.set(d, client);
  }
  return handles;
}

export interface PgDb extends Db {
  readonly pool: pg.Pool;
}

/** Applies pending migrations under an advisory lock, so several instances starting together migrate once. */
export async function runPgMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: PG_MIGRATIONS });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * PostgreSQL (docs/architecture.md "Data layer"): a connection pool; every transaction is SERIALIZABLE
 * and retried with a growing random pause when PostgreSQL reports a serialization failure or deadlock,
 * so read-then-write rules (uniqueness, CE credit, the last Admin, restore) hold across requests and
 * instances without hand-placed row locks. Reads outside transactions run on any pooled connection.
 */
export async function openPostgres(url: string, options: { migrate?: boolean; poolSize?: number } = {}): Promise<PgDb> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: '-c TimeZone=UTC',
    application_name: 'license-manager',
  });
  // docs/security.md "Faults": a connection that ends (a restart, pg_terminate_backend, a reset socket) must cost
  // only the requests using it, never the process. node-postgres emits 'error' on the pool for an idle client and
  // on the client itself while it is checked out between queries (inside a transaction); an 'error' event without
  // a listener ends the process. The query in flight fails on its own (503 through translateDbError), and a
  // client that errored is discarded by the pool on release, so the next request opens a fresh connection.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  try {
    if (options.migrate !== false) await runPgMigrations(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const base = drizzle(pool) as unknown as Drizzle;
  const counters = new PgCounters(pool);
  let closed = false;

  /**
   * One transaction on a pooled connection: BEGIN ... COMMIT (ROLLBACK on an error) through the connection's own
   * Drizzle instance (handlesOn), which the transaction's reads and writes use. Drizzle's `transaction()` would make
   * a new transaction object each time, and statements prepared on it (db/prepared.ts keeps them per Drizzle
   * instance) would be built again in every transaction (docs/performance.md "API throughput"). A connection whose
   * ROLLBACK failed goes back to the pool as broken, so that it is closed rather than handed out mid-transaction.
   */
  async function serializable<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const { drizzle: d, tx } = handlesOn(client);
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      try {
        const out = await currentTx.run({ owner: db, drizzle: d, tx, depth: 0 }, () => fn(tx));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollback: unknown) => {
          broken = rollback instanceof Error ? rollback : new Error('ROLLBACK failed');
        });
        throw err;
      }
    } finally {
      client.release(broken);
    }
  }

  const db: PgDb = {
    ...readsOn(() => openTxOf(db)?.drizzle ?? base),
    engine: 'postgres',
    shared: true,
    counters,
    files: pgFileStore(pool),
    pool,
    get [RAW]() {
      return openTxOf(db)?.drizzle ?? base;
    },
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const open = openTxOf(db);
      if (open) {
        // A savepoint on the transaction's connection, as Drizzle's nested transaction would make.
        const client = clientOf.get(open.drizzle)!;
        const name = `sp${open.depth + 1}`;
        await client.query(`SAVEPOINT ${name}`);
        try {
          const out = await currentTx.run({ ...open, depth: open.depth + 1 }, () => fn(open.tx));
          await client.query(`RELEASE SAVEPOINT ${name}`);
          return out;
        } catch (err) {
          await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw err;
        }
      }
      for (let attempt = 1; ; attempt++) {
        try {
          const out = await serializable(fn);
          noteWriteSucceeded();
          return out;
        } catch (err) {
          const code = driverCode(err);
          if (code && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) {
            await sleep(Math.random() * Math.min(200, 5 * 2 ** Math.min(attempt, 6)));
            continue;
          }
          throw translateDbError(err);
        }
      }
    },
    async exclusive<T>(name: string, fn: () => Promise<T>) {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [name]);
        if (!rows[0]?.ok) return { acquired: false as const };
        try {
          return { acquired: true as const, value: await fn() };
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
  return db;
}
