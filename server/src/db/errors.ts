import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { AppError, DISK_FULL_MESSAGE, faultError } from '../base/errors.ts';
import { driverCode, isDiskFull } from '../base/driver-code.ts';

export { driverCode } from '../base/driver-code.ts';

/** Whether `err` is a unique violation of the index `name` (SQLite names it in the message; PostgreSQL in `constraint`). */
export function isUniqueViolation(err: unknown, name: string): boolean {
  const code = driverCode(err);
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== '23505') return false;
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { constraint, message } = e as { constraint?: unknown; message?: unknown };
    if (constraint === name || (typeof message === 'string' && message.includes(`'${name}'`))) return true;
  }
  return false;
}

/**
 * A constraint the database enforced where a service's own check lost a race (or has none) becomes a
 * 4xx with a plain message instead of a 500 (docs/api.md). Anything else is passed through unchanged.
 */
export function translateDbError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (isDiskFull(err)) noteDiskFull();
  const fault = faultError(err);
  if (fault) return fault;
  const code = driverCode(err);
  switch (code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
    case '23505':
      return new AppError('CONFLICT', 'A record with these details already exists', { cause: err });
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
    case '23503':
      return new AppError('CONFLICT', 'This change refers to a record that does not exist or is still in use', { cause: err });
    case 'SQLITE_CONSTRAINT_CHECK':
    case 'SQLITE_CONSTRAINT_NOTNULL':
    case '23514':
    case '23502':
      return new AppError('BAD_REQUEST', 'The values are not valid', { cause: err });
    default:
      return err;
  }
}

/**
 * This process's view of the disk (docs/security.md "Faults"). A write failing because the disk is full notes it;
 * /api/health reports it and the session's last-seen touch is skipped meanwhile. It is forgotten when a write
 * succeeds (PostgreSQL), when the space reserve can be written again (SQLite, checked at most every second), or a
 * minute after the last such failure.
 *
 * The space reserve (SQLite, kept by the server in DATA_DIR): a small file released at the first disk-full failure,
 * so that sign-ins (essentialWrite) still find room; other writes are refused up front with 507 while the disk is
 * full, so they cannot use up that room. It is written again once there is space, which ends the state.
 */
const DISK_FULL_MEMORY_MS = 60_000;
const PROBE_EVERY_MS = 1_000;
export const RESERVE_BYTES = 2 * 1024 * 1024;
let diskFull: { since: number; last: number; probed: number } | null = null;
let reserveFile: string | null = null;
const essential = new AsyncLocalStorage<true>();

/** Writes the reserve file if it is missing; false when there is no room for it. */
function writeReserve(): boolean {
  if (!reserveFile) return true;
  try {
    if (fs.existsSync(reserveFile) && fs.statSync(reserveFile).size === RESERVE_BYTES) return true;
    const { bavail, bsize } = fs.statfsSync(path.dirname(reserveFile));
    if (bavail * bsize < RESERVE_BYTES * 2) return false;
    const partial = `${reserveFile}.partial`;
    try {
      fs.writeFileSync(partial, Buffer.alloc(RESERVE_BYTES));
      fs.renameSync(partial, reserveFile);
    } catch (err) {
      fs.rmSync(partial, { force: true });
      throw err;
    }
    return true;
  } catch {
    return false;
  }
}

/** Keeps a space reserve in `dir` (the SQLite server's DATA_DIR) and refuses ordinary writes while the disk is full. */
export function keepDiskReserve(dir: string): void {
  reserveFile = path.join(dir, '.disk-reserve');
  // Without a reserve (no room at start, or the folder refuses it) writes are simply tried and fail with 507.
  if (!writeReserve()) reserveFile = null;
}

export function noteDiskFull(now = Date.now()): void {
  if (!diskFull && reserveFile) fs.rmSync(reserveFile, { force: true });
  diskFull = { since: diskFull?.since ?? now, last: now, probed: now };
}

export function noteWriteSucceeded(): void {
  diskFull = null;
}

/** When the disk was found full (ms since the epoch), or null when writes are believed to work. */
export function diskFullSince(now = Date.now()): number | null {
  if (diskFull && reserveFile && now - diskFull.probed >= PROBE_EVERY_MS) {
    diskFull.probed = now;
    if (writeReserve()) diskFull = null;
  }
  if (diskFull && !reserveFile && now - diskFull.last > DISK_FULL_MEMORY_MS) diskFull = null;
  return diskFull?.since ?? null;
}

/** Runs `fn` as a write that may use the space reserve (sign-in): not refused while the disk is full. */
export function essentialWrite<T>(fn: () => Promise<T>): Promise<T> {
  return essential.run(true, fn);
}

/** Refuses a write up front (507) while the disk is full and a reserve is kept, unless it is an essential one. */
export function assertDiskWritable(): void {
  if (reserveFile && !essential.getStore() && diskFullSince() !== null) {
    throw new AppError('INSUFFICIENT_STORAGE', DISK_FULL_MESSAGE);
  }
}
