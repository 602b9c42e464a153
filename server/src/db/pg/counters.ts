import type pg from 'pg';
import type { CounterHit, CounterLimit, Counters } from '../types.ts';

const SWEEP_EVERY = 1000;

/**
 * Sign-in attempt counters on PostgreSQL (docs/security.md "Sign-in"), shared by every instance: one
 * atomic INSERT ... ON CONFLICT DO UPDATE ... RETURNING per key, the same statement as on SQLite, all
 * keys of one attempt in one transaction.
 */
export class PgCounters implements Counters {
  private hits = 0;
  constructor(private readonly pool: pg.Pool) {}

  async hit(limits: CounterLimit[], now = Date.now()): Promise<CounterHit[]> {
    if (++this.hits % SWEEP_EVERY === 0) await this.pool.query('DELETE FROM login_counters WHERE reset_at <= $1', [now]);
    // One transaction for every key of the attempt, the keys taken in one global order: a concurrent
    // attempt on the same keys waits for this one's row locks instead of overtaking it on a later key
    // (separate statements let requests interleave, so fewer than `max` attempts could pass every limit).
    const client = await this.pool.connect();
    const byKey = new Map<string, CounterHit>();
    try {
      await client.query('BEGIN');
      for (const l of [...limits].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))) {
        const { rows } = await client.query<{ count: number; reset_at: number }>(
          `INSERT INTO login_counters AS c (key, count, reset_at) VALUES ($1, 1, $2::bigint + $3::bigint)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN c.reset_at <= $2::bigint THEN 1 ELSE c.count + 1 END,
             reset_at = CASE WHEN c.reset_at <= $2::bigint OR c.count + 1 <= $4::int THEN $2::bigint + $3::bigint ELSE c.reset_at END
           RETURNING count, reset_at`,
          [l.key, now, l.windowMs, l.max],
        );
        const row = rows[0]!;
        byKey.set(l.key, { ...l, count: Number(row.count), resetAt: Number(row.reset_at), over: Number(row.count) > l.max });
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return limits.map((l) => byKey.get(l.key)!);
  }

  async reset(key: string): Promise<void> {
    await this.pool.query('DELETE FROM login_counters WHERE key = $1', [key]);
  }

  async refund(key: string): Promise<void> {
    await this.pool.query('UPDATE login_counters SET count = greatest(count - 1, 0) WHERE key = $1', [key]);
  }

  async close(): Promise<void> {}
}
