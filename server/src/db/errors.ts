import { AppError } from '../base/errors.ts';
import { driverCode } from '../base/driver-code.ts';

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
