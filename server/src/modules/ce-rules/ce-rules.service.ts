/**
 * State CE rules (docs/decisions.md "CE ledger and cycles"): one per state and license type. A rule's
 * topics count toward the current cycle of every license it covers; its hours and cycle length are
 * taken at renewal (the next cycle's required hours and expiration). A change of a rule's topics or repeat
 * credit refreshes the CE caches of the licenses it covers (and covered), in the same transaction.
 */
import { and, asc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  CE_MESSAGES,
  topicsFit,
  type CeRule,
  type CeRulePage,
  type CeRuleSortColumn,
  type ceRuleCreateInput,
  type ceRulePageQuery,
  type ceRuleUpdateInput,
} from '@lm/shared';
import type { z } from 'zod';
import { ceRules } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { countOf, jsonArrayLength } from '../../db/sql.ts';
import type { Context } from '../../core/context.ts';
import type { AuthedContext } from '../../core/trpc.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, conflict } from '../../base/errors.ts';
import { found } from '../../core/scope.ts';
import { refreshCeCaches, ruleLicenses, toCeRule } from '../licenses/ce-ledger.ts';
import { orderOf, readPage } from '../../db/list.ts';

async function byId(db: DbOrTx, id: number) {
  const [row] = await db.select().from(ceRules).where(eq(ceRules.rule_id, id));
  return row;
}

async function assertUnique(tx: Tx, state: string, licenseType: CeRule['license_type'], exceptId?: number): Promise<void> {
  const [clash] = await tx
    .select({ id: ceRules.rule_id })
    .from(ceRules)
    .where(
      and(
        eq(ceRules.state, state),
        eq(ceRules.license_type, licenseType),
        exceptId === undefined ? undefined : ne(ceRules.rule_id, exceptId),
      ),
    );
  if (clash) throw conflict(CE_MESSAGES.ruleDuplicate(state, licenseType));
}

function assertTopicsFit(rule: Pick<CeRule, 'topics' | 'hours_required'>): void {
  if (!topicsFit(rule.topics, rule.hours_required)) {
    throw badRequest(CE_MESSAGES.topicsOverTotal, [{ path: 'topics', message: CE_MESSAGES.topicsOverTotal }]);
  }
}

export async function listRules(ctx: Pick<Context, 'db'>): Promise<CeRule[]> {
  return (await ctx.db.select().from(ceRules).orderBy(asc(ceRules.state), asc(ceRules.license_type))).map(toCeRule);
}

/** The sort keys of the CE rules list: a missing note sorts as '' on both engines. */
const SORTS: Record<CeRuleSortColumn, SQL[]> = {
  state: [sql`${ceRules.state}`, sql`${ceRules.license_type}`],
  license_type: [sql`${ceRules.license_type}`, sql`${ceRules.state}`],
  hours_required: [sql`${ceRules.hours_required}`],
  cycle_years: [sql`${ceRules.cycle_years}`],
  topic_count: [jsonArrayLength(ceRules.topics)],
  notes: [sql`coalesce(${ceRules.notes}, '')`],
};

/** GET /ce-rules/page: one page of the rules in the chosen order (the id breaks ties), and the total. */
export async function pageRules(ctx: Pick<Context, 'db'>, q: z.output<typeof ceRulePageQuery> = {}): Promise<CeRulePage> {
  const where = and(
    q.state ? eq(ceRules.state, q.state) : undefined,
    q.license_type ? eq(ceRules.license_type, q.license_type) : undefined,
  );
  const { rows, pagination } = await readPage(q, {
    count: async () => (await ctx.db.select({ n: countOf() }).from(ceRules).where(where))[0]?.n,
    rows: ({ limit, offset }) =>
      ctx.db
        .select()
        .from(ceRules)
        .where(where)
        .orderBy(...orderOf(SORTS[q.sort ?? 'state'], q.order ?? 'asc', ceRules.rule_id))
        .limit(limit)
        .offset(offset),
  });
  return { rules: rows.map(toCeRule), pagination };
}

export async function createRule(ctx: AuthedContext, input: z.output<typeof ceRuleCreateInput>): Promise<CeRule> {
  assertTopicsFit(input);
  return ctx.db.transaction(async (tx) => {
    await assertUnique(tx, input.state, input.license_type);
    const [row] = await tx.insert(ceRules).values(input).returning();
    await audit(tx, ctx.actor, { action: 'create', table: 'ce_rules', id: row!.rule_id, new: row });
    await refreshCeCaches(tx, ruleLicenses(row!.state, row!.license_type));
    return toCeRule(row!);
  });
}

export async function updateRule(ctx: AuthedContext, { id, ...patch }: z.output<typeof ceRuleUpdateInput>): Promise<CeRule> {
  return ctx.db.transaction(async (tx) => {
    const old = found(await byId(tx, id), 'CE rule');
    const next = { ...old, ...patch };
    assertTopicsFit(next);
    if (next.state !== old.state || next.license_type !== old.license_type) await assertUnique(tx, next.state, next.license_type, id);
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    const row = Object.keys(patch).length > 0 ? (await tx.update(ceRules).set(patch).where(eq(ceRules.rule_id, id)).returning())[0]! : old;
    await audit(tx, ctx.actor, { action: 'update', table: 'ce_rules', id, old, new: row });
    await refreshCeCaches(tx, or(ruleLicenses(old.state, old.license_type), ruleLicenses(row.state, row.license_type)));
    return toCeRule(row);
  });
}

export async function deleteRule(ctx: AuthedContext, id: number): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const old = found(await byId(tx, id), 'CE rule');
    await tx.delete(ceRules).where(eq(ceRules.rule_id, id));
    await audit(tx, ctx.actor, { action: 'delete', table: 'ce_rules', id, old });
    await refreshCeCaches(tx, ruleLicenses(old.state, old.license_type));
  });
  return { success: true };
}
