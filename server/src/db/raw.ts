/**
 * Raw SQL for the data layer's own code and the per-dialect query modules (*.sqlite.ts, *.pg.ts): the
 * rows of a `sql` query on either engine. Services use the query builder instead (lint).
 */
import type { SQL } from 'drizzle-orm';
import { RAW } from './handles.ts';
import type { DbOrTx } from './types.ts';

interface RawDrizzle {
  all?: (q: SQL) => unknown[];
  run?: (q: SQL) => { changes: number };
  execute?: (q: SQL) => Promise<{ rows: unknown[]; rowCount: number | null }>;
}

const rawOf = (h: DbOrTx) => (h as unknown as Record<symbol, RawDrizzle>)[RAW]!;

export async function rawRows<T>(h: DbOrTx, query: SQL): Promise<T[]> {
  const d = rawOf(h);
  if (h.engine === 'sqlite') return d.all!(query) as T[];
  return (await d.execute!(query)).rows as T[];
}

/** Runs a statement and returns how many rows it changed. */
export async function rawExec(h: DbOrTx, query: SQL): Promise<number> {
  const d = rawOf(h);
  if (h.engine === 'sqlite') return d.run!(query).changes;
  return (await d.execute!(query)).rowCount ?? 0;
}
