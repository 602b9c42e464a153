import { AppError } from '../core/errors.ts';
import { driverCode } from './driver-code.ts';

export { driverCode } from './driver-code.ts';

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
