import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** The SQL fragments whose spelling differs per engine. */
export interface ReportsDialect {
  /** Runs a raw statement (SQLite: prepared once per connection and reused). */
  rows<T>(db: DbOrTx, query: SQL): Promise<T[]>;
  /** A boolean column compared with true / false. */
  isTrue(expr: SQL): SQL;
  isFalse(expr: SQL): SQL;
  /** Weeks from a timestamp to now, at least 1. */
  weeksSince(ts: SQL): SQL;
  /** Fractional days from one timestamp to another. */
  daysFromTo(from: SQL, to: SQL): SQL;
  /** A timestamp column as an ISO 8601 UTC string (nullable). */
  iso(ts: SQL): SQL;
  /** Cents as a dollar amount text with two decimals. */
  dollars(cents: SQL): SQL;
}
