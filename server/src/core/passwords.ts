import os from 'node:os';
import argon2 from 'argon2';
import { AppError } from '../base/errors.ts';

/** OWASP's minimum argon2id parameters: 19 MiB, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashing is CPU- and memory-heavy, so at most MAX_ACTIVE run at once (on libuv's thread pool of 4;
 * one core per hash, one left for the event loop: 1 on a 2-core machine). Waiting is by priority (docs/security.md "Fair hashing"):
 * 'high' (a source that signed in to the account before, and every hash of a new password), then
 * 'normal' (an unknown source with no recent attempts), then 'low' (sources already failing). Each
 * queue is bounded; past that the caller gets 429 at once instead of starving the rest of the API.
 * A flood, even from rotating addresses, fills the normal and low queues and is refused there, while a
 * sign-in from a known source waits for the hashes already running at most.
 */
export type HashPriority = 'high' | 'normal' | 'low';
/** One core stays free for the event loop (requests, /auth/me) while passwords are checked. */
const MAX_ACTIVE = Math.max(1, Math.min(4, os.availableParallelism() - 1));
const MAX_QUEUED: Record<HashPriority, number> = { high: 64, normal: 16, low: 8 };
let active = 0;
const queues: Record<HashPriority, Array<() => void>> = { high: [], normal: [], low: [] };

/** Password verifications started since the process began, in all and per priority (tests count them; nothing else reads it). */
export const passwordStats = { verifications: 0, byPriority: { high: 0, normal: 0, low: 0 } as Record<HashPriority, number> };

export const HASH_BUSY_MESSAGE = 'The server is busy checking passwords. Please try again in a moment.';

async function withHashSlot<T>(priority: HashPriority, fn: () => Promise<T>): Promise<T> {
  if (active >= MAX_ACTIVE) {
    const queue = queues[priority];
    if (queue.length >= MAX_QUEUED[priority]) throw new AppError('TOO_MANY_REQUESTS', HASH_BUSY_MESSAGE, { retryAfter: 1 });
    await new Promise<void>((resolve) => queue.push(resolve));
  } else {
    active++;
  }
  try {
    return await fn();
  } finally {
    const next = queues.high.shift() ?? queues.normal.shift() ?? queues.low.shift();
    if (next) next();
    else active--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot('high', () => argon2.hash(password, ARGON2_OPTIONS));
}

export function verifyPassword(hash: string, password: string, priority: HashPriority = 'high'): Promise<boolean> {
  return withHashSlot(priority, async () => {
    passwordStats.verifications++;
    passwordStats.byPriority[priority]++;
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

export const CHECK_IN_PROGRESS_MESSAGE = 'Your password is already being checked. Wait for that answer, then try again.';

/** Keys (a session's id) with a password check in flight in this process: one at a time per key. */
const inFlight = new Set<string>();

/**
 * One re-authentication check at a time per `key` (a session: docs/security.md "Re-authentication and stolen
 * tokens"): while `check` runs for a key, another call for it is refused at once with 429, before it touches the
 * database or the hash queue. The check itself verifies at 'low' priority (modules/auth/reauth.ts), so it never
 * delays anyone's sign-in.
 */
export async function oneCheckAtATime<T>(key: string, check: () => Promise<T>): Promise<T> {
  if (inFlight.has(key)) throw new AppError('TOO_MANY_REQUESTS', CHECK_IN_PROGRESS_MESSAGE, { retryAfter: 1 });
  inFlight.add(key);
  try {
    return await check();
  } finally {
    inFlight.delete(key);
  }
}

/** A hash of a random password, verified against when the email is unknown so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= argon2.hash(`dummy-${Math.random()}`, ARGON2_OPTIONS);
  return dummyHash;
}
