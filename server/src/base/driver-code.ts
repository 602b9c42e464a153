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
