import type Database from 'better-sqlite3';
import type { CounterHit, CounterLimit, Counters } from '../types.ts';

const SWEEP_EVERY = 1000;

/**
 * Sign-in attempt counters on SQLite (docs/security.md "Sign-in"): one INSERT ... ON CONFLICT DO UPDATE
 * ... RETURNING per key, all keys of one attempt in one transaction, so no two requests read the same
 * count. They live in the main database file (a restart keeps locks) and take the writer connection in
 * turn with the transactions (another connection writing would wait on the open transaction's lock while
 * blocking the event loop that transaction needs), switched to synchronous=NORMAL for the moment: a
 * counter is not worth an fsync per attempt (a power cut may forget the last few counts; a crashed
 * process forgets nothing), and business writes keep synchronous=FULL.
 */
export class SqliteCounters implements Counters {
  private readonly sqlite: Database.Database;
  private readonly hitStmt: Database.Statement;
  private readonly resetStmt: Database.Statement;
  private readonly refundStmt: Database.Statement;
  private readonly sweepStmt: Database.Statement;
  private readonly hitAll: (limits: CounterLimit[], now: number) => CounterHit[];
  private hits = 0;

  constructor(
    writer: Database.Database,
    private readonly withWriter: <T>(job: () => T) => Promise<T>,
  ) {
    this.sqlite = writer;
    this.hitStmt = this.sqlite.prepare(
      `INSERT INTO login_counters (key, count, reset_at) VALUES (@key, 1, @now + @window)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= @now OR count + 1 <= @max THEN @now + @window ELSE reset_at END
       RETURNING count, reset_at`,
    );
    this.resetStmt = this.sqlite.prepare('DELETE FROM login_counters WHERE key = ?');
    this.refundStmt = this.sqlite.prepare('UPDATE login_counters SET count = max(count - 1, 0) WHERE key = ?');
    this.sweepStmt = this.sqlite.prepare('DELETE FROM login_counters WHERE reset_at <= ?');
    this.hitAll = this.sqlite.transaction((limits: CounterLimit[], now: number) =>
      limits.map((l) => {
        const row = this.hitStmt.get({ key: l.key, now, window: l.windowMs, max: l.max }) as { count: number; reset_at: number };
        return { ...l, count: row.count, resetAt: row.reset_at, over: row.count > l.max };
      }),
    );
  }

  /** Runs `job` on the writer with synchronous=NORMAL, then restores FULL. */
  private relaxed<T>(job: () => T): Promise<T> {
    return this.withWriter(() => {
      // Inside a transaction (a sign-in that also writes business rows) its commit decides durability.
      if (this.sqlite.inTransaction) return job();
      this.sqlite.pragma('synchronous = NORMAL');
      try {
        return job();
      } finally {
        this.sqlite.pragma('synchronous = FULL');
      }
    });
  }

  hit(limits: CounterLimit[], now = Date.now()): Promise<CounterHit[]> {
    return this.relaxed(() => {
      if (++this.hits % SWEEP_EVERY === 0) this.sweepStmt.run(now);
      return this.hitAll(limits, now);
    });
  }

  async reset(key: string): Promise<void> {
    await this.relaxed(() => this.resetStmt.run(key));
  }

  async refund(key: string): Promise<void> {
    await this.relaxed(() => this.refundStmt.run(key));
  }

  async close(): Promise<void> {}
}
