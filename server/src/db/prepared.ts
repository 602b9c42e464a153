/**
 * Reads that run on every request, built and prepared once per connection instead of on every call
 * (docs/performance.md "API throughput"). `build` receives the query builder and returns a query whose varying
 * values are `sql.placeholder(name)`; the result runs it with `params` on whatever the handle reads from at that
 * moment (the reader, or the open transaction's connection, so a read inside a transaction still sees its
 * writes). On SQLite the prepared query is kept per connection; on PostgreSQL it is a named statement that
 * node-postgres prepares once per pooled connection (a transaction's own handle prepares it for that transaction).
 */
import type { Drizzle, DbOrTx } from './types.ts';
import { RAW } from './handles.ts';

interface Preparable<R> {
  prepare(name: string): { execute(params?: Record<string, unknown>): R | Promise<R> };
}

export function preparedRead<P extends Record<string, unknown>, R>(
  name: string,
  build: (d: Pick<Drizzle, 'select'>) => Preparable<R>,
): (h: DbOrTx, params: P) => Promise<R> {
  const byConnection = new WeakMap<object, { execute(params?: Record<string, unknown>): R | Promise<R> }>();
  return async (h, params) => {
    const d = (h as unknown as Record<symbol, Drizzle>)[RAW]!;
    let query = byConnection.get(d);
    if (!query) {
      query = build(d).prepare(name);
      byConnection.set(d, query);
    }
    return (await query.execute(params)) as R;
  };
}
