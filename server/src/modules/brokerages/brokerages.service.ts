/**
 * The rules of the brokerages domain (Admin only; the router's builder answers 403 to everyone else).
 * Deleting a brokerage unassigns its users (they stay, with no brokerage) and audits each of them.
 */
import { and, asc, count, desc, eq, gt, inArray, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  PICKER_LIMIT,
  ROLE,
  type Brokerage,
  type PickerQueryValues,
  type BrokerageSort,
  type BrokeragesListOutput,
  type User,
  type brokerageCreateInput,
  type brokeragesListQuery,
  type brokerageUpdateInput,
} from '@lm/shared';
import type { z } from 'zod';
import { brokerages } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { caseInsensitive, containsText } from '../../db/sql.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { conflict, notFound } from '../../base/errors.ts';
import { unassignBrokerageUsers, usersOfBrokerage } from '../users/users.service.ts';
import { readPage } from '../../db/list.ts';
import { assertIfMatch } from '../../http/etag.ts';

type BrokerageRow = typeof brokerages.$inferSelect;

/**
 * Agents (not deleted) assigned to the brokerage of the current row. Written with explicit table
 * names: inside sql`` Drizzle leaves columns unqualified, which would compare users' column to itself.
 */
const agentCount = sql<number>`(SELECT count(*) FROM "users" AS u WHERE u."brokerage_id" = "brokerages"."brokerage_id" AND u."role_id" = ${ROLE.Agent} AND u."deleted_at" IS NULL)`;

const columns = {
  brokerage_id: brokerages.brokerage_id,
  name: brokerages.name,
  address: brokerages.address,
  phone: brokerages.phone,
  email: brokerages.email,
  website: brokerages.website,
  agent_count: agentCount.mapWith(Number),
  created_at: brokerages.created_at,
};

type Direction = typeof asc;
/** An optional text column: empty values last in both directions (SQLite and PostgreSQL place NULL differently). */
const optionalText = (column: AnyColumn) => (dir: Direction) => [sql`(${column} IS NULL)`, dir(caseInsensitive(column))];
const SORT_KEYS: Record<BrokerageSort, (dir: Direction) => SQL[]> = {
  name: (dir) => [dir(caseInsensitive(brokerages.name))],
  address: optionalText(brokerages.address),
  phone: optionalText(brokerages.phone),
  email: optionalText(brokerages.email),
  website: optionalText(brokerages.website),
  agent_count: (dir) => [dir(agentCount)],
  created_at: (dir) => [dir(brokerages.created_at)],
};

/** GET /brokerages: search, sort (then the id) and one page. */
export async function listBrokerages(ctx: Context, input: z.output<typeof brokeragesListQuery>): Promise<BrokeragesListOutput> {
  let where: SQL | undefined;
  if (input.search) {
    const text = input.search;
    where = or(
      containsText(brokerages.name, text),
      containsText(brokerages.email, text),
      containsText(brokerages.address, text),
      containsText(brokerages.phone, text),
    );
  }
  if (input.updated_since) where = and(where, gt(brokerages.updated_at, input.updated_since));
  const direction = input.order === 'desc' ? desc : asc;
  const { rows, pagination } = await readPage(input, {
    count: async () => (await ctx.db.select({ n: count() }).from(brokerages).where(where))[0]?.n,
    rows: ({ limit, offset }) =>
      ctx.db
        .select(columns)
        .from(brokerages)
        .where(where)
        .orderBy(...SORT_KEYS[input.sort ?? 'name'](direction), asc(brokerages.brokerage_id))
        .limit(limit)
        .offset(offset),
  });
  return { brokerages: rows, pagination };
}

/** One brokerage as every answer shows it (GET /brokerages/{id}), or 404. */
export async function getBrokerage(db: DbOrTx, id: number): Promise<Brokerage> {
  const [row] = await db.select(columns).from(brokerages).where(eq(brokerages.brokerage_id, id));
  if (!row) throw notFound('Brokerage');
  return row;
}

async function existing(db: DbOrTx, id: number): Promise<BrokerageRow> {
  const [row] = await db.select().from(brokerages).where(eq(brokerages.brokerage_id, id));
  if (!row) throw notFound('Brokerage');
  return row;
}

/** Names are unique regardless of case: two "Main Street Realty" rows would be told apart by no one. */
async function assertNameFree(tx: Tx, name: string, exceptId?: number): Promise<void> {
  const conditions = [sql`lower(${brokerages.name}) = lower(${name})`];
  if (exceptId !== undefined) conditions.push(ne(brokerages.brokerage_id, exceptId));
  const [taken] = await tx
    .select({ id: brokerages.brokerage_id })
    .from(brokerages)
    .where(and(...conditions))
    .limit(1);
  if (taken) {
    throw conflict('A brokerage with this name already exists');
  }
}

export async function createBrokerage(ctx: Context, input: z.output<typeof brokerageCreateInput>): Promise<Brokerage> {
  const id = await ctx.db.transaction(async (tx) => {
    // The name check reads inside the transaction that inserts (docs/architecture.md "Data layer").
    await assertNameFree(tx, input.name);
    const [row] = await tx.insert(brokerages).values(input).returning();
    await audit(tx, ctx.actor, { action: 'create', table: 'brokerages', id: row!.brokerage_id, new: row });
    return row!.brokerage_id;
  });
  return getBrokerage(ctx.db, id);
}

export async function updateBrokerage(ctx: Context, input: z.output<typeof brokerageUpdateInput>): Promise<Brokerage> {
  const { id, ...fields } = input;
  await ctx.db.transaction(async (tx) => {
    const before = await existing(tx, id);
    // If-Match (REST): the brokerage as GET /brokerages/{id} answers it, read in this transaction (http/etag.ts).
    await assertIfMatch(ctx, () => getBrokerage(tx, id));
    if (fields.name !== undefined) await assertNameFree(tx, fields.name, id);
    const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const after = Object.keys(patch).length
      ? (await tx.update(brokerages).set(patch).where(eq(brokerages.brokerage_id, id)).returning())[0]!
      : before;
    const changed = Object.keys(patch).filter((k) => before[k as keyof BrokerageRow] !== after[k as keyof BrokerageRow]);
    await audit(tx, ctx.actor, {
      action: 'update',
      table: 'brokerages',
      id,
      old: Object.fromEntries(changed.map((k) => [k, before[k as keyof BrokerageRow]])),
      new: Object.fromEntries(changed.map((k) => [k, after[k as keyof BrokerageRow]])),
    });
  });
  return getBrokerage(ctx.db, id);
}

export async function deleteBrokerage(ctx: Context, id: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const before = await existing(tx, id);
    const unassigned = await unassignBrokerageUsers(tx, ctx.actor, id, before.name);
    await tx.delete(brokerages).where(eq(brokerages.brokerage_id, id));
    await audit(tx, ctx.actor, {
      action: 'delete',
      table: 'brokerages',
      id,
      old: before,
      new: { unassigned_user_ids: unassigned },
    });
  });
  return { success: true };
}

/** GET /brokerages/{id}/users: its users (not deleted), by name. */
export async function brokerageUsers(ctx: Context, id: number): Promise<{ users: User[] }> {
  await existing(ctx.db, id);
  return { users: await usersOfBrokerage(ctx.db, id) };
}

/**
 * The brokerage picker of the user forms and filters and the API key form: brokerages whose name contains
 * `search`, the first `limit` by name; `ids` only those (docs/decisions.md "Pickers search the server").
 */
export async function brokerageOptions(ctx: Context, q: PickerQueryValues = { limit: PICKER_LIMIT }) {
  return ctx.db
    .select({ brokerage_id: brokerages.brokerage_id, name: brokerages.name })
    .from(brokerages)
    .where(and(q.ids ? inArray(brokerages.brokerage_id, q.ids) : undefined, q.search ? containsText(brokerages.name, q.search) : undefined))
    .orderBy(caseInsensitive(brokerages.name), asc(brokerages.brokerage_id))
    .limit(q.limit);
}
