import { AsyncLocalStorage } from 'node:async_hooks';
import type { Drizzle, Reads, Tx } from './types.ts';
import type { Engine } from './engine.ts';

/** The transaction the current async call chain is inside, per database (so `Db` reads inside `fn` see its writes). */
export interface OpenTx {
  owner: object;
  drizzle: Drizzle;
  tx: Tx;
  depth: number;
}
export const currentTx = new AsyncLocalStorage<OpenTx>();

/** The open transaction of `owner` in this call chain, if any. */
export function openTxOf(owner: object): OpenTx | undefined {
  const open = currentTx.getStore();
  return open && open.owner === owner ? open : undefined;
}

type AnyFn = (...args: unknown[]) => unknown;
const call = (d: Drizzle, name: keyof Drizzle, args: unknown[]) => (d[name] as AnyFn).apply(d, args);

/** Read methods that run on whatever `resolve()` picks at call time. */
export function readsOn(resolve: () => Drizzle): Reads {
  return {
    select: ((...a: unknown[]) => call(resolve(), 'select', a)) as Drizzle['select'],
    selectDistinct: ((...a: unknown[]) => call(resolve(), 'selectDistinct', a)) as Drizzle['selectDistinct'],
    $count: ((...a: unknown[]) => call(resolve(), '$count', a)) as Drizzle['$count'],
    $with: ((...a: unknown[]) => call(resolve(), '$with', a)) as Drizzle['$with'],
    with: ((...a: unknown[]) => call(resolve(), 'with', a)) as Drizzle['with'],
  };
}

/** The Tx handle over a Drizzle instance that is inside a transaction. */
export function txOn(d: Drizzle, engine: Engine): Tx {
  return {
    ...readsOn(() => d),
    insert: d.insert.bind(d),
    update: d.update.bind(d),
    delete: d.delete.bind(d),
    engine,
    [RAW]: d,
  } as Tx;
}

/** The Drizzle instance behind a handle, for the data layer's own dialect code (db/ and *.sqlite.ts / *.pg.ts). */
export const RAW = Symbol('drizzle');

/**
 * On a Db whose reads outside a transaction come from a connection of their own (SQLite's reader): a number that
 * changes whenever anything commits to the database (SQLite's `PRAGMA data_version`: any other connection, this
 * process's writer or another process); undefined inside a transaction or where there is none (PostgreSQL, a
 * single-connection in-memory SQLite). Reads kept until the database changes (db/prepared.ts) key on it.
 */
export const READ_VERSION = Symbol('read version');
export type ReadVersion = () => number | undefined;
