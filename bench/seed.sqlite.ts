/** Bulk seeding on SQLite: one prepared statement per table inside one transaction on the writer connection. */
import type { SqliteDb } from '../server/src/db/sqlite/driver.ts';
import type { Db } from '../server/src/db/client.ts';
import { generate, type Value } from './data.ts';

export async function seedSqlite(db: Db): Promise<void> {
  const c = (db as SqliteDb).writer;
  // A bigger page cache while seeding: the four audit indexes take random inserts. Restored below.
  const cacheSize = c.pragma('cache_size', { simple: true });
  c.pragma('cache_size = -262144');
  let insert: (values: Value[]) => void = () => undefined;
  c.exec('BEGIN');
  try {
    await generate({
      begin(spec) {
        const s = c.prepare(
          `INSERT INTO ${spec.table} (${spec.columns.map(([n]) => `"${n}"`).join(', ')}) VALUES (${spec.columns.map(() => '?').join(', ')})`,
        );
        insert = (values) => s.run(values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)));
      },
      row: (values) => insert(values),
      end: () => undefined,
    });
    c.exec('COMMIT');
  } catch (err) {
    if (c.inTransaction) c.exec('ROLLBACK');
    throw err;
  }
  c.pragma(`cache_size = ${cacheSize}`);
  c.pragma('optimize');
}
