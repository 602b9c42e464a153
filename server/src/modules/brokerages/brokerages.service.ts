/**
 * The rules of the brokerages domain (Admin only; the router's builder answers 403 to everyone else).
 * Deleting a brokerage unassigns its users (they stay, with no brokerage) and audits each of them.
 */
import { and, asc, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  makePagination,
  ROLE,
  type Brokerage,
  type BrokeragesListOutput,
  type User,
  type brokerageCreateInput,
  type brokeragesListQuery,
  type brokerageUpdateInput,
} from '@lm/shared';
import type { z } from 'zod';
import { brokerages } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { likePattern, unassignBrokerageUsers, usersOfBrokerage } from '../users/users.service.ts';

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

export function listBrokerages(ctx: Context, input: z.output<typeof brokeragesListQuery>): BrokeragesListOutput {
  let where: SQL | undefined;
  if (input.search) {
    const p = likePattern(input.search);
    where = or(
      sql`${brokerages.name} LIKE ${p} ESCAPE '\\'`,
      sql`${brokerages.email} LIKE ${p} ESCAPE '\\'`,
      sql`${brokerages.address} LIKE ${p} ESCAPE '\\'`,
      sql`${brokerages.phone} LIKE ${p} ESCAPE '\\'`,
    );
  }
  const total = ctx.db.select({ n: count() }).from(brokerages).where(where).get()?.n ?? 0;
  const direction = input.order === 'desc' ? desc : asc;
  const sortColumn =
    input.sort === 'created_at'
      ? brokerages.created_at
      : input.sort === 'agent_count'
        ? agentCount
        : sql`${brokerages.name} COLLATE NOCASE`;
  const rows = ctx.db
    .select(columns)
    .from(brokerages)
    .where(where)
    .orderBy(direction(sortColumn), asc(brokerages.brokerage_id))
    .limit(input.limit)
    .offset((input.page - 1) * input.limit)
    .all();
  return { brokerages: rows, pagination: makePagination(input.page, input.limit, total) };
}

function getBrokerage(db: DbOrTx, id: number): Brokerage {
  const row = db.select(columns).from(brokerages).where(eq(brokerages.brokerage_id, id)).get();
  if (!row) throw notFound('Brokerage');
  return row;
}

function existing(db: DbOrTx, id: number): BrokerageRow {
  const row = db.select().from(brokerages).where(eq(brokerages.brokerage_id, id)).get();
  if (!row) throw notFound('Brokerage');
  return row;
}

/** Names are unique regardless of case: two "Main Street Realty" rows would be told apart by no one. */
function assertNameFree(db: DbOrTx, name: string, exceptId?: number): void {
  const conditions = [sql`lower(${brokerages.name}) = lower(${name})`];
  if (exceptId !== undefined) conditions.push(ne(brokerages.brokerage_id, exceptId));
  if (
    db
      .select({ id: brokerages.brokerage_id })
      .from(brokerages)
      .where(and(...conditions))
      .get()
  ) {
    throw conflict('A brokerage with this name already exists');
  }
}

export function createBrokerage(ctx: Context, input: z.output<typeof brokerageCreateInput>): Brokerage {
  const id = ctx.db.transaction((tx) => {
    assertNameFree(tx, input.name);
    const row = tx.insert(brokerages).values(input).returning().get();
    audit(tx, ctx.actor, { action: 'create', table: 'brokerages', id: row.brokerage_id, new: row });
    return row.brokerage_id;
  });
  return getBrokerage(ctx.db, id);
}

export function updateBrokerage(ctx: Context, input: z.output<typeof brokerageUpdateInput>): Brokerage {
  const { id, ...fields } = input;
  ctx.db.transaction((tx) => {
    const before = existing(tx, id);
    if (fields.name !== undefined) assertNameFree(tx, fields.name, id);
    const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const after = Object.keys(patch).length
      ? tx.update(brokerages).set(patch).where(eq(brokerages.brokerage_id, id)).returning().get()
      : before;
    const changed = Object.keys(patch).filter((k) => before[k as keyof BrokerageRow] !== after[k as keyof BrokerageRow]);
    audit(tx, ctx.actor, {
      action: 'update',
      table: 'brokerages',
      id,
      old: Object.fromEntries(changed.map((k) => [k, before[k as keyof BrokerageRow]])),
      new: Object.fromEntries(changed.map((k) => [k, after[k as keyof BrokerageRow]])),
    });
  });
  return getBrokerage(ctx.db, id);
}

export function deleteBrokerage(ctx: Context, id: number): { success: true } {
  ctx.db.transaction((tx) => {
    const before = existing(tx, id);
    const unassigned = unassignBrokerageUsers(tx, ctx.actor, id, before.name);
    tx.delete(brokerages).where(eq(brokerages.brokerage_id, id)).run();
    audit(tx, ctx.actor, {
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
export function brokerageUsers(ctx: Context, id: number): { users: User[] } {
  existing(ctx.db, id);
  return { users: usersOfBrokerage(ctx.db, id) };
}

/** Every brokerage as {brokerage_id, name}, for the selects of the user forms and filters. */
export function brokerageOptions(ctx: Context) {
  return ctx.db
    .select({ brokerage_id: brokerages.brokerage_id, name: brokerages.name })
    .from(brokerages)
    .orderBy(sql`${brokerages.name} COLLATE NOCASE`)
    .all();
}
