/**
 * rawRows for SQLite's per-dialect query modules, with each statement prepared once per connection and
 * reused (docs/performance.md): the reporting and audit queries run often, and preparing costs about as
 * much as running the small ones. Same contract as db/raw.ts rawRows.
 */
import type Database from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import { RAW } from '../handles.ts';
import type { DbOrTx } from '../types.ts';

interface SqliteDrizzle {
  $client: Database.Database;
  dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } };
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export async function preparedRows<T>(h: DbOrTx, query: SQL): Promise<T[]> {
  const d = (h as unknown as Record<symbol, SqliteDrizzle>)[RAW]!;
  const client = d.$client;
  const { sql: text, params } = d.dialect.sqlToQuery(query);
  let cache = statements.get(client);
  if (!cache) statements.set(client, (cache = new Map()));
  let s = cache.get(text);
  if (!s) cache.set(text, (s = client.prepare(text)));
  return s.all(...params) as T[];
}
