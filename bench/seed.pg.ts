/**
 * Bulk seeding on PostgreSQL: rows are batched and inserted with one `INSERT ... SELECT FROM unnest($1, $2, ...)`
 * per batch (one array parameter per column), then the tables are vacuumed and analysed as autovacuum
 * would eventually do, so the planner has statistics and index-only scans have a visibility map.
 */
import type { PgDb } from '../server/src/db/pg/driver.ts';
import type { Db } from '../server/src/db/client.ts';
import { generate, type Scale, type TableSpec, type Value } from './data.ts';

const BATCH = 20_000;
const PG_TYPE = { text: 'text', int: 'int', float: 'float8', bool: 'bool', timestamptz: 'timestamptz', date: 'date' } as const;

export async function seedPg(db: Db, scale?: Scale): Promise<void> {
  const pool = (db as PgDb).pool;
  const tables: string[] = [];
  let spec: TableSpec | undefined;
  let columns: Value[][] = [];
  let count = 0;
  const flush = async () => {
    if (!spec || count === 0) return;
    const names = spec.columns.map(([n]) => `"${n}"`).join(', ');
    const arrays = spec.columns.map(([, t], i) => `$${i + 1}::${PG_TYPE[t]}[]`).join(', ');
    await pool.query(`INSERT INTO ${spec.table} (${names}) SELECT * FROM unnest(${arrays})`, columns);
    columns = spec.columns.map(() => []);
    count = 0;
  };
  await generate(
    {
      begin(s) {
        spec = s;
        tables.push(s.table);
        columns = s.columns.map(() => []);
        count = 0;
      },
      async row(values) {
        for (let i = 0; i < values.length; i++) columns[i]!.push(values[i]!);
        if (++count >= BATCH) await flush();
      },
      end: flush,
    },
    scale,
  );
  for (const t of tables) await pool.query(`VACUUM (ANALYZE) ${t}`);
}
