import type { Counters, Db } from '../../db/client.ts';

/**
 * Sign-in attempt counters (docs/security.md "Sign-in"). Every attempt is counted BEFORE its password
 * is checked, by one atomic INSERT ... ON CONFLICT DO UPDATE ... RETURNING per key, so no two requests
 * (concurrent, on any instance, or calls of one tRPC batch) can read the same count.
 * An attempt whose count passes the limit is refused without hashing anything.
 *
 * A count lapses `windowMs` after the last attempt that was within the limit; once over the limit the
 * lapse time stays put, so the lock ends `windowMs` after the attempt that used up the allowance and
 * refused attempts do not prolong it.
 * The counters live in the database (a restart keeps locks; every instance shares them).
 */
export type { CounterHit, CounterLimit } from '../../db/client.ts';

/** The key of an account's lock against unknown sources (max_login_attempts / lockout_duration_minutes). */
export const accountLockKey = (email: string) => `account:${email}`;

/** The sign-in counters of a database (the data layer keeps them: db/sqlite/counters.ts, db/pg/counters.ts). */
export function loginCounters(db: Db): Counters {
  return db.counters;
}
