import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { isAdmin, isBroker, type AuthUser } from './identity.ts';
import { notFound } from '../base/errors.ts';

export { isAdmin, isAgent, isBroker, isSchool } from './identity.ts';

export type ScopeKind = 'all' | 'brokerage' | 'self';

export function scopeKind(actor: AuthUser): ScopeKind {
  if (isAdmin(actor)) return 'all';
  return isBroker(actor) && actor.brokerage_id !== null ? 'brokerage' : 'self';
}

/**
 * The scope rule, once: the actor's ids as values or as placeholders. A Broker's people are one IN over a small
 * set (its brokerage's users, itself included), so both planners start from users(brokerage_id, user_id) and reach
 * each holder's rows through the holder-leading indexes (licenses(user_id, expiration_date), payments(user_id, …),
 * completions(user_id, …)): the cost follows the brokerage, not the table (docs/decisions.md "Totals kept as
 * changes happen"). The self term sits inside the set, not beside it: `col = ? OR col IN (…)` on PostgreSQL is a
 * filter over every row, not a semi-join.
 */
function scopeCondition(kind: ScopeKind, userIdColumn: AnyColumn, userId: unknown, brokerageId: unknown): SQL | undefined {
  if (kind === 'all') return undefined;
  if (kind === 'self') return eq(userIdColumn, userId);
  return inArray(
    userIdColumn,
    sql`(SELECT ${users.user_id} FROM ${users} WHERE ${users.brokerage_id} = ${brokerageId} OR ${users.user_id} = ${userId})`,
  );
}

/**
 * The people whose records (licenses, payments, completions) a caller may see, as a condition on a
 * user-id column (docs/decisions.md): Admin everyone (undefined = no condition); Broker itself and the users
 * of its brokerage; Agent and School only themselves. Put it in the WHERE of every scoped query.
 */
export function visibleUsersCondition(actor: AuthUser, userIdColumn: AnyColumn): SQL | undefined {
  return scopeCondition(scopeKind(actor), userIdColumn, actor.user_id, actor.brokerage_id);
}

/**
 * visibleUsersCondition for prepared reads (db/prepared.ts): the SQL depends only on the kind of scope, the
 * actor's ids go in as the placeholders `scope_user` and `scope_brokerage` (values from scopeValues).
 */
export function visibleUsersPlaceholders(kind: ScopeKind, userIdColumn: AnyColumn): SQL | undefined {
  return scopeCondition(kind, userIdColumn, sql.placeholder('scope_user'), sql.placeholder('scope_brokerage'));
}

export function scopeValues(actor: AuthUser): { scope_user: number; scope_brokerage: number | null } {
  return { scope_user: actor.user_id, scope_brokerage: actor.brokerage_id };
}

/** Throws 404 when a row is missing or outside the caller's scope (as if it did not exist). */
export function found<T>(row: T | undefined | null, what: string): T {
  if (row === undefined || row === null) throw notFound(what);
  return row;
}
