import { AppError } from '../../core/errors.ts';

/**
 * Per-IP throttle of failed sign-ins. Only failures (and attempts still being checked) count, so a
 * burst of successful sign-ins from one office is never slowed. Counts live in memory: the window is
 * short and a restart forgetting them is harmless (per-account lockout is stored in the database).
 */
export interface ThrottleOptions {
  /** Failures (plus attempts in flight) allowed per IP inside the window. */
  maxFailures: number;
  windowMs: number;
}

interface Bucket {
  failures: number[];
  inFlight: number;
}

export class LoginThrottle {
  private buckets = new Map<string, Bucket>();
  constructor(private readonly options: ThrottleOptions = { maxFailures: 10, windowMs: 60_000 }) {}

  private bucket(ip: string, now: number): Bucket {
    let b = this.buckets.get(ip);
    if (!b) {
      b = { failures: [], inFlight: 0 };
      this.buckets.set(ip, b);
    }
    const cutoff = now - this.options.windowMs;
    while (b.failures.length && b.failures[0]! <= cutoff) b.failures.shift();
    if (this.buckets.size > 10_000) this.sweep(now);
    return b;
  }

  /** Reserves a slot for an attempt, or throws 429 when this IP has failed too often. */
  begin(ip: string, now = Date.now()): () => void {
    const b = this.bucket(ip, now);
    // Attempts in flight count only once this address has started failing, so a burst of
    // successful sign-ins passes while a flood of bad ones is cut off.
    const failures = b.failures.length;
    if (failures >= this.options.maxFailures || (failures > 0 && failures + b.inFlight >= this.options.maxFailures)) {
      const oldest = b.failures[0] ?? now;
      const retryAfter = Math.max(1, Math.ceil((oldest + this.options.windowMs - now) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts from this address. Try again in ${retryAfter} seconds.`, {
        retryAfter,
      });
    }
    b.inFlight++;
    let done = false;
    return () => {
      if (!done) {
        done = true;
        b.inFlight--;
      }
    };
  }

  recordFailure(ip: string, now = Date.now()): void {
    this.bucket(ip, now).failures.push(now);
  }

  private sweep(now: number) {
    for (const [ip, b] of this.buckets) {
      if (b.inFlight === 0 && (b.failures.at(-1) ?? 0) <= now - this.options.windowMs) this.buckets.delete(ip);
    }
  }
}
