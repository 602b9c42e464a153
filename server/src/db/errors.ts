import { AppError } from '../core/errors.ts';

/** The driver's error code: better-sqlite3 sets `code` (SQLITE_...), node-postgres the SQLSTATE; Drizzle wraps both in `cause`. */
export function driverCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || /^[0-9A-Z]{5}$/.test(code))) return code;
  }
  return undefined;
}

/**
 * A constraint the database enforced where a service's own check lost a race (or has none) becomes a
 * 4xx with a plain message instead of a 500 (docs/api.md). Anything else is passed through unchanged.
 */
export function translateDbError(err: unknown): unknown {
  if (err instanceof AppError) return err;
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
