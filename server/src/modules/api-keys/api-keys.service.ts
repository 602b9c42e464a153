/**
 * The rules of the API keys domain (docs/decisions.md "API keys"): an Admin manages every key; a Broker sees and
 * revokes its own brokerage's keys and creates read keys for it only (shared/src/policy.ts 'apiKeys.*'). The secret
 * is made here, answered once, and only its SHA-256 stored (core/api-keys.ts). Create and revoke are audited.
 */
import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  can,
  scopeOf,
  scopesOf,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeysListOutput,
  type apiKeyCreateInput,
  type apiKeysListQuery,
} from '@lm/shared';
import type { z } from 'zod';
import { apiKeys, brokerages, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { AuthedContext } from '../../core/context.ts';
import { audit } from '../../core/audit.ts';
import { newApiKey } from '../../core/api-keys.ts';
import { scopeKind } from '../../core/scope.ts';
import { forbidden, notFound } from '../../base/errors.ts';
import { readPage } from '../../db/list.ts';

export const BROKER_KEY_MESSAGE = 'A Broker may create read keys for its own brokerage only';

const columns = {
  api_key_id: apiKeys.api_key_id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  scope: apiKeys.scope,
  brokerage_id: apiKeys.brokerage_id,
  brokerage_name: brokerages.name,
  created_by: apiKeys.created_by,
  created_by_name: sql<string>`${users.first_name} || ' ' || ${users.last_name}`,
  created_at: apiKeys.created_at,
  last_used_at: apiKeys.last_used_at,
  revoked_at: apiKeys.revoked_at,
};

type Row = { scope: 'read' | 'write'; created_by_name: string | null } & Omit<ApiKey, 'scopes' | 'created_by_name'>;

const toApiKey = ({ scope, created_by_name, ...row }: Row): ApiKey => ({
  api_key_id: row.api_key_id,
  name: row.name,
  prefix: row.prefix,
  scopes: scopesOf(scope),
  brokerage_id: row.brokerage_id,
  brokerage_name: row.brokerage_name,
  created_by: row.created_by,
  created_by_name: created_by_name === null ? null : created_by_name.trim(),
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  revoked_at: row.revoked_at,
});

/** The keys the caller sees: an Admin every key; anyone else its brokerage's (none without a brokerage). */
function visibleKeys(ctx: AuthedContext): SQL | undefined {
  if (scopeKind(ctx.user) === 'all') return undefined;
  return ctx.user.brokerage_id === null ? sql`1 = 0` : eq(apiKeys.brokerage_id, ctx.user.brokerage_id);
}

function selectKeys(db: DbOrTx) {
  return db
    .select(columns)
    .from(apiKeys)
    .innerJoin(users, eq(users.user_id, apiKeys.created_by))
    .leftJoin(brokerages, eq(brokerages.brokerage_id, apiKeys.brokerage_id));
}

async function keyById(ctx: AuthedContext, db: DbOrTx, id: number): Promise<ApiKey> {
  const scope = visibleKeys(ctx);
  const [row] = await selectKeys(db).where(scope ? sql`${eq(apiKeys.api_key_id, id)} AND ${scope}` : eq(apiKeys.api_key_id, id));
  if (!row) throw notFound('API key');
  return toApiKey(row);
}

/** GET /api-keys: newest first, one page; never a secret. */
export async function listApiKeys(ctx: AuthedContext, input: z.output<typeof apiKeysListQuery>): Promise<ApiKeysListOutput> {
  const where = visibleKeys(ctx);
  const { rows, pagination } = await readPage(input, {
    count: async () => (await ctx.db.select({ n: count() }).from(apiKeys).where(where))[0]?.n,
    rows: ({ limit, offset }) =>
      selectKeys(ctx.db).where(where).orderBy(desc(apiKeys.created_at), desc(apiKeys.api_key_id)).limit(limit).offset(offset),
  });
  return { api_keys: rows.map(toApiKey), pagination };
}

/** POST /api-keys: the key with its secret, this once. A Broker's key is for its own brokerage when none is named. */
export async function createApiKey(ctx: AuthedContext, input: z.output<typeof apiKeyCreateInput>): Promise<ApiKeyCreated> {
  const brokerageId = input.brokerage_id !== undefined ? input.brokerage_id : scopeKind(ctx.user) === 'all' ? null : ctx.user.brokerage_id;
  if (!can(ctx.user, 'apiKeys.create', { scopes: input.scopes, brokerage_id: brokerageId })) throw forbidden(BROKER_KEY_MESSAGE);
  const { key, prefix, hash } = newApiKey();
  const id = await ctx.db.transaction(async (tx) => {
    if (brokerageId !== null) {
      const [b] = await tx.select({ id: brokerages.brokerage_id }).from(brokerages).where(eq(brokerages.brokerage_id, brokerageId));
      if (!b) throw notFound('Brokerage');
    }
    const values = { name: input.name, prefix, scope: scopeOf(input.scopes), brokerage_id: brokerageId, created_by: ctx.user.user_id };
    const [row] = await tx
      .insert(apiKeys)
      .values({ ...values, secret_hash: hash })
      .returning({ id: apiKeys.api_key_id });
    await audit(tx, ctx.actor, { action: 'create', table: 'api_keys', id: row!.id, new: values });
    return row!.id;
  });
  return { ...(await keyById(ctx, ctx.db, id)), secret: key };
}

/** DELETE /api-keys/{id}: revoked at once (the next request with it is 401 on every instance). Revoking twice changes nothing. */
export async function revokeApiKey(ctx: AuthedContext, id: number): Promise<ApiKey> {
  return ctx.db.transaction(async (tx) => {
    const key = await keyById(ctx, tx, id);
    if (!can(ctx.user, 'apiKeys.revoke', key)) throw forbidden();
    if (key.revoked_at) return key;
    const revokedAt = new Date().toISOString();
    await tx.update(apiKeys).set({ revoked_at: revokedAt }).where(eq(apiKeys.api_key_id, id));
    await audit(tx, ctx.actor, {
      action: 'revoke',
      table: 'api_keys',
      id,
      old: { revoked_at: null },
      new: { name: key.name, prefix: key.prefix, revoked_at: revokedAt },
    });
    return { ...key, revoked_at: revokedAt };
  });
}
