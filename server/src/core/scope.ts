import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { isAdmin, isBroker, type AuthUser } from './identity.ts';
import { notFound } from './errors.ts';

export { isAdmin, isAgent, isBroker, isSchool } from './identity.ts';

/**
 * The people whose records (licenses, payments, completions) a caller may see, as a condition on a
 * user-id column (docs/decisions.md): Admin everyone (undefined = no condition); Broker itself and the users
 * of its brokerage; Agent and School only themselves. Put it in the WHERE of every scoped query.
 */
export function visibleUsersCondition(actor: AuthUser, userIdColumn: AnyColumn): SQL | undefined {
  if (isAdmin(actor)) return undefined;
  if (isBroker(actor) && actor.brokerage_id !== null) {
    return or(
      eq(userIdColumn, actor.user_id),
      inArray(userIdColumn, sql`(SELECT ${users.user_id} FROM ${users} WHERE ${users.brokerage_id} = ${actor.brokerage_id})`),
    );
  }
  return eq(userIdColumn, actor.user_id);
}

/** Throws 404 when a row is missing or outside the caller's scope (as if it did not exist). */
export function found<T>(row: T | undefined | null, what: string): T {
  if (row === undefined || row === null) throw notFound(what);
  return row;
}
