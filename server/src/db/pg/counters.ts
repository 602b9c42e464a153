import type pg from 'pg';
import type { CounterHit, CounterLimit, Counters } from '../types.ts';

const SWEEP_EVERY = 1000;

/**
 * Sign-in attempt counters on PostgreSQL (docs/security.md "Sign-in"), shared by every instance: one
 * atomic INSERT ... ON CONFLICT DO UPDATE ... RETURNING per key, the same statement as on SQLite.
 */
export class PgCounters implements Counters {
  private hits = 0;
  constructor(private readonly pool: pg.Pool) {}

  async hit(limits: CounterLimit[], now = Date.now()): Promise<CounterHit[]> {
    if (++this.hits % SWEEP_EVERY === 0) await this.pool.query('DELETE FROM login_counters WHERE reset_at <= $1', [now]);
    const out: CounterHit[] = [];
    for (const l of limits) {
      const { rows } = await this.pool.query<{ count: number; reset_at: number }>(
        `INSERT INTO login_counters AS c (key, count, reset_at) VALUES ($1, 1, $2::bigint + $3::bigint)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN c.reset_at <= $2::bigint THEN 1 ELSE c.count + 1 END,
           reset_at = CASE WHEN c.reset_at <= $2::bigint OR c.count + 1 <= $4::int THEN $2::bigint + $3::bigint ELSE c.reset_at END
         RETURNING count, reset_at`,
        [l.key, now, l.windowMs, l.max],
      );
      const row = rows[0]!;
      out.push({ ...l, count: Number(row.count), resetAt: Number(row.reset_at), over: Number(row.count) > l.max });
    }
    return out;
  }

  async reset(key: string): Promise<void> {
    await this.pool.query('DELETE FROM login_counters WHERE key = $1', [key]);
  }

  async refund(key: string): Promise<void> {
    await this.pool.query('UPDATE login_counters SET count = greatest(count - 1, 0) WHERE key = $1', [key]);
  }

  async close(): Promise<void> {}
}
