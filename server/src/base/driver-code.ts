/** The driver's error code: better-sqlite3 sets `code` (SQLITE_...), node-postgres the SQLSTATE; Drizzle wraps both in `cause`. */
export function driverCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || /^[0-9A-Z]{5}$/.test(code))) return code;
  }
  return undefined;
}

/** A value the database cannot hold (SQLSTATE class 22: out of range, bad date, bad text): bad input, not a failure. */
export function isDataException(err: unknown): boolean {
  return driverCode(err)?.startsWith('22') ?? false;
}

/** Node's socket errors that mean the database went away (docs/security.md "Faults"). */
const CONNECTION_ERRNOS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTCONN']);
/** node-postgres' own messages for a connection that ended or could not be made. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection ended unexpectedly',
];

function* chain(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    yield e as { code?: unknown; message?: unknown };
  }
}

/**
 * The database connection failed, not the request: a restart or a terminated backend (SQLSTATE class 08,
 * 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), a reset socket, or node-postgres
 * reporting its connection ended. The request may be retried once the database is back (503, Retry-After).
 */
export function isConnectionError(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('08') && code.length === 5) return true;
    if (code === '57P01' || code === '57P02' || code === '57P03') return true;
    if (CONNECTION_ERRNOS.has(code)) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  }
  return false;
}

/** The disk holding the data is full: SQLite's SQLITE_FULL, the file system's ENOSPC, PostgreSQL's 53100. */
export function isDiskFull(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code === 'SQLITE_FULL' || e.code === 'ENOSPC' || e.code === '53100') return true;
  }
  return false;
}
