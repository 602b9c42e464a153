import argon2 from 'argon2';
import { AppError } from './errors.ts';

/** OWASP's minimum argon2id parameters: 19 MiB, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashing is CPU- and memory-heavy, so at most MAX_ACTIVE run at once and at most MAX_QUEUED wait;
 * past that the caller gets 429 at once instead of starving the rest of the API.
 */
const MAX_ACTIVE = 2;
const MAX_QUEUED = 32;
let active = 0;
const queue: Array<() => void> = [];

async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (active >= MAX_ACTIVE) {
    if (queue.length >= MAX_QUEUED) {
      throw new AppError('TOO_MANY_REQUESTS', 'The server is busy checking passwords. Please try again in a moment.', {
        retryAfter: 1,
      });
    }
    await new Promise<void>((resolve) => queue.push(resolve));
  } else {
    active++;
  }
  try {
    return await fn();
  } finally {
    const next = queue.shift();
    if (next) next();
    else active--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => argon2.hash(password, ARGON2_OPTIONS));
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return withHashSlot(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

/** A hash of a random password, verified against when the email is unknown so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= argon2.hash(`dummy-${Math.random()}`, ARGON2_OPTIONS);
  return dummyHash;
}
