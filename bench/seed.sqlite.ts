/**
 * Bulk seeding on SQLite: one prepared statement per table on the writer connection, committed every
 * COMMIT_EVERY rows (so the WAL stays small at any size: each commit is checkpointed back into the file), with a
 * bigger page cache and `synchronous = OFF` while seeding (a seed that dies is thrown away). Both restored below.
 */
import type { SqliteDb } from '../server/src/db/sqlite/driver.ts';
import type { Db } from '../server/src/db/client.ts';
import { generate, type Scale, type Value } from './data.ts';

const COMMIT_EVERY = 500_000;

export async function seedSqlite(db: Db, scale?: Scale): Promise<void> {
  const c = (db as SqliteDb).writer;
  // A bigger page cache while seeding: the four audit indexes take random inserts.
  const cacheSize = c.pragma('cache_size', { simple: true });
  const synchronous = c.pragma('synchronous', { simple: true });
  c.pragma('cache_size = -262144');
  c.pragma('synchronous = OFF');
  let insert: (values: Value[]) => void = () => undefined;
  let pending = 0;
  c.exec('BEGIN');
  try {
    await generate(
      {
        begin(spec) {
          const s = c.prepare(
            `INSERT INTO ${spec.table} (${spec.columns.map(([n]) => `"${n}"`).join(', ')}) VALUES (${spec.columns.map(() => '?').join(', ')})`,
          );
          insert = (values) => s.run(values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)));
        },
        row(values) {
          insert(values);
          if (++pending >= COMMIT_EVERY) {
            c.exec('COMMIT');
            c.pragma('wal_checkpoint(TRUNCATE)');
            c.exec('BEGIN');
            pending = 0;
          }
        },
        end: () => undefined,
      },
      scale,
    );
    c.exec('COMMIT');
  } catch (err) {
    if (c.inTransaction) c.exec('ROLLBACK');
    throw err;
  }
  c.pragma('wal_checkpoint(TRUNCATE)');
  c.pragma(`cache_size = ${cacheSize}`);
  c.pragma(`synchronous = ${synchronous}`);
  c.pragma('optimize');
}
