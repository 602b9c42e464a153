import { and, asc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import type { DeletionListQuery, DeletionPage, DeletionResource } from '@lm/shared';
import type { AuthedContext } from '../../core/trpc.ts';
import { scopeKind } from '../../core/scope.ts';
import type { Tx } from '../../db/client.ts';
import { deletions, users } from '../../db/schema/index.ts';
import { readPage } from '../../db/list.ts';
import { countOf } from '../../db/sql.ts';

/** The default page of GET /deletions (a sync reads many at once; the schema caps `limit` at 1,000). */
export const DELETIONS_PAGE_SIZE = 100;

/**
 * A tombstone (docs/api.md "Changes since"): call it inside the delete's transaction, so the deletion and its
 * tombstone commit together. `userId` is the person the object belonged to (a license's holder, a payment's
 * payer): the scope a caller sees the tombstone in, with that person's brokerage as of now.
 */
export async function recordDeletion(tx: Tx, resource: DeletionResource, objectId: number, userId: number | null): Promise<void> {
  let brokerageId: number | null = null;
  if (userId !== null) {
    const [person] = await tx.select({ brokerage_id: users.brokerage_id }).from(users).where(eq(users.user_id, userId));
    brokerageId = person?.brokerage_id ?? null;
  }
  await tx.insert(deletions).values({ resource, object_id: objectId, user_id: userId, brokerage_id: brokerageId });
}

/**
 * recordDeletion for many objects of one resource (an import's undo): the owners' brokerages read and the tombstones
 * written in chunks of 500, not a statement per object.
 */
export async function recordDeletions(
  tx: Tx,
  resource: DeletionResource,
  objects: Array<{ objectId: number; userId: number | null }>,
): Promise<void> {
  for (let i = 0; i < objects.length; i += 500) {
    const part = objects.slice(i, i + 500);
    const owners = [...new Set(part.map((o) => o.userId).filter((u): u is number => u !== null))];
    const brokerageOf = new Map<number, number | null>();
    if (owners.length > 0) {
      const people = await tx
        .select({ user_id: users.user_id, brokerage_id: users.brokerage_id })
        .from(users)
        .where(inArray(users.user_id, owners));
      for (const p of people) brokerageOf.set(p.user_id, p.brokerage_id);
    }
    await tx.insert(deletions).values(
      part.map((o) => ({
        resource,
        object_id: o.objectId,
        user_id: o.userId,
        brokerage_id: o.userId === null ? null : (brokerageOf.get(o.userId) ?? null),
      })),
    );
  }
}

/** Resources every signed-in user reads (docs/decisions.md): their tombstones are everyone's. */
const READ_BY_EVERYONE: DeletionResource[] = ['courses'];

/**
 * The tombstones a caller may see: Admin all; a Broker its own and its brokerage's people's; anyone else its own;
 * and everyone the courses'.
 */
function scopeOf(ctx: AuthedContext): SQL | undefined {
  const kind = scopeKind(ctx.user);
  if (kind === 'all') return undefined;
  const self = eq(deletions.user_id, ctx.user.user_id);
  const everyone = inArray(deletions.resource, READ_BY_EVERYONE);
  return kind === 'brokerage' ? or(everyone, self, eq(deletions.brokerage_id, ctx.user.brokerage_id!)) : or(everyone, self);
}

/** GET /deletions?since=: what was deleted after `since`, oldest first. */
export async function listDeletions(ctx: AuthedContext, q: DeletionListQuery): Promise<DeletionPage> {
  const where = and(gt(deletions.deleted_at, q.since), q.resource ? eq(deletions.resource, q.resource) : undefined, scopeOf(ctx));
  const { rows, pagination } = await readPage(
    q,
    {
      count: async () => (await ctx.db.select({ n: countOf() }).from(deletions).where(where))[0]?.n,
      rows: ({ limit, offset }) =>
        ctx.db
          .select({ resource: deletions.resource, id: deletions.object_id, deleted_at: deletions.deleted_at })
          .from(deletions)
          .where(where)
          .orderBy(asc(deletions.deleted_at), asc(deletions.id))
          .limit(limit)
          .offset(offset),
    },
    DELETIONS_PAGE_SIZE,
  );
  return { deletions: rows.map((r) => ({ ...r, resource: r.resource as DeletionResource })), pagination };
}
