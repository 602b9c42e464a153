import type Database from 'better-sqlite3';
import type { Db } from '../../db/client.ts';

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A statement prepared once per connection and reused (the query builder would rebuild and
 * re-prepare it on every call, docs/performance.md). Used by the read-only reporting queries.
 */
export function stmt(db: Db, text: string): Database.Statement {
  const client = db.$client;
  let cache = statements.get(client);
  if (!cache) statements.set(client, (cache = new Map()));
  let s = cache.get(text);
  if (!s) cache.set(text, (s = client.prepare(text)));
  return s;
}

/** AND-joined conditions with their positional parameters. */
export class Where {
  readonly conds: string[] = [];
  readonly params: unknown[] = [];
  add(cond: string, ...params: unknown[]): this {
    this.conds.push(cond);
    this.params.push(...params);
    return this;
  }
  /** ' AND a AND b' (or ''), to append after an existing WHERE. */
  get and(): string {
    return this.conds.map((c) => ` AND ${c}`).join('');
  }
  /** 'WHERE a AND b' (or ''). */
  get where(): string {
    return this.conds.length ? `WHERE ${this.conds.join(' AND ')}` : '';
  }
}
