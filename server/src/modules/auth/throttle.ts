import Database from 'better-sqlite3';
import type { Db } from '../../db/client.ts';

/**
 * Sign-in attempt counters (docs/security.md "Sign-in"). Every attempt is counted BEFORE its password
 * is checked, by one INSERT ... ON CONFLICT DO UPDATE ... RETURNING per key: better-sqlite3 runs it
 * synchronously, so no two requests (concurrent, or calls of one tRPC batch) can read the same count.
 * An attempt whose count passes the limit is refused without hashing anything.
 *
 * A count lapses `windowMs` after the last attempt that was within the limit; once over the limit the
 * lapse time stays put, so the lock ends `windowMs` after the attempt that used up the allowance and
 * refused attempts do not prolong it.
 *
 * The counters live in the main database file (a restart keeps locks) but are written through a
 * connection of their own with synchronous=NORMAL: a counter is not worth an fsync per attempt (a power
 * cut may forget the last few counts; a crashed process forgets nothing), and business writes on the
 * main connection keep synchronous=FULL.
 */
export interface CounterLimit {
  key: string;
  max: number;
  windowMs: number;
}

export interface CounterHit extends CounterLimit {
  count: number;
  /** Epoch ms when the count lapses (the end of the lock when over the limit). */
  resetAt: number;
  over: boolean;
}

const SWEEP_EVERY = 1000;

export class LoginCounters {
  private readonly sqlite: Database.Database;
  private readonly hitStmt: Database.Statement;
  private readonly resetStmt: Database.Statement;
  private readonly refundStmt: Database.Statement;
  private readonly sweepStmt: Database.Statement;
  private readonly hitAll: (limits: CounterLimit[], now: number) => CounterHit[];
  private hits = 0;
  private readonly owned: boolean;

  /** Opens its own connection to the database file of `main` (or shares `main` when it is in memory). */
  constructor(main: Database.Database) {
    this.owned = !main.memory;
    this.sqlite = this.owned ? new Database(main.name) : main;
    if (this.owned) {
      this.sqlite.pragma('journal_mode = WAL');
      this.sqlite.pragma('synchronous = NORMAL');
      this.sqlite.pragma('busy_timeout = 5000');
    }
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

  /** Counts one attempt against every key, atomically, and returns the new counts. */
  hit(limits: CounterLimit[], now = Date.now()): CounterHit[] {
    if (++this.hits % SWEEP_EVERY === 0) this.sweepStmt.run(now);
    return this.hitAll(limits, now);
  }

  /** Forgets a key (a successful sign-in clears its account-and-source count). */
  reset(key: string): void {
    this.resetStmt.run(key);
  }

  /** Gives back one attempt (a success, or an attempt refused before its password was checked). */
  refund(key: string): void {
    this.refundStmt.run(key);
  }

  close(): void {
    if (this.owned && this.sqlite.open) this.sqlite.close();
  }
}

/** The key of an account's lock against unknown sources (max_login_attempts / lockout_duration_minutes). */
export const accountLockKey = (email: string) => `account:${email}`;

const byDb = new WeakMap<Db, LoginCounters>();

/** The counters of a database, opened on first use. */
export function loginCounters(db: Db): LoginCounters {
  let c = byDb.get(db);
  if (!c) {
    c = new LoginCounters(db.$client);
    byDb.set(db, c);
  }
  return c;
}

/** Closes the counters' connection (app.ts, when the app closes). */
export function closeLoginCounters(db: Db): void {
  byDb.get(db)?.close();
  byDb.delete(db);
}
