/**
 * State CE rules (docs/decisions.md "CE ledger and cycles"): one per state and license type. A rule's
 * topics count toward the current cycle of every license it covers; its hours and cycle length are
 * taken at renewal (the next cycle's required hours and expiration).
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { CE_MESSAGES, topicsFit, type CeRule, type ceRuleCreateInput, type ceRuleUpdateInput } from '@lm/shared';
import type { z } from 'zod';
import { ceRules } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { audit } from '../../core/audit.ts';
import { badRequest, conflict } from '../../core/errors.ts';
import { found } from '../../core/scope.ts';
import { toCeRule } from '../licenses/ce-ledger.ts';

type Ctx = Context & { user: AuthUser };

function byId(db: DbOrTx, id: number) {
  return db.select().from(ceRules).where(eq(ceRules.rule_id, id)).get();
}

function assertUnique(db: DbOrTx, state: string, licenseType: CeRule['license_type'], exceptId?: number): void {
  const clash = db
    .select({ id: ceRules.rule_id })
    .from(ceRules)
    .where(
      and(
        eq(ceRules.state, state),
        eq(ceRules.license_type, licenseType),
        exceptId === undefined ? undefined : ne(ceRules.rule_id, exceptId),
      ),
    )
    .get();
  if (clash) throw conflict(CE_MESSAGES.ruleDuplicate(state, licenseType));
}

function assertTopicsFit(rule: Pick<CeRule, 'topics' | 'hours_required'>): void {
  if (!topicsFit(rule.topics, rule.hours_required)) {
    throw badRequest(CE_MESSAGES.topicsOverTotal, [{ path: 'topics', message: CE_MESSAGES.topicsOverTotal }]);
  }
}

export function listRules(ctx: Pick<Context, 'db'>): CeRule[] {
  return ctx.db.select().from(ceRules).orderBy(asc(ceRules.state), asc(ceRules.license_type)).all().map(toCeRule);
}

export function createRule(ctx: Ctx, input: z.output<typeof ceRuleCreateInput>): CeRule {
  assertTopicsFit(input);
  return ctx.db.transaction((tx) => {
    assertUnique(tx, input.state, input.license_type);
    const row = tx.insert(ceRules).values(input).returning().get();
    audit(tx, ctx.actor, { action: 'create', table: 'ce_rules', id: row.rule_id, new: row });
    return toCeRule(row);
  });
}

export function updateRule(ctx: Ctx, { id, ...patch }: z.output<typeof ceRuleUpdateInput>): CeRule {
  return ctx.db.transaction((tx) => {
    const old = found(byId(tx, id), 'CE rule');
    const next = { ...old, ...patch };
    assertTopicsFit(next);
    if (next.state !== old.state || next.license_type !== old.license_type) assertUnique(tx, next.state, next.license_type, id);
    // An empty edit ({}) changes nothing (an UPDATE with no columns is an SQL error).
    const row = Object.keys(patch).length > 0 ? tx.update(ceRules).set(patch).where(eq(ceRules.rule_id, id)).returning().get() : old;
    audit(tx, ctx.actor, { action: 'update', table: 'ce_rules', id, old, new: row });
    return toCeRule(row);
  });
}

export function deleteRule(ctx: Ctx, id: number): { success: true } {
  ctx.db.transaction((tx) => {
    const old = found(byId(tx, id), 'CE rule');
    tx.delete(ceRules).where(eq(ceRules.rule_id, id)).run();
    audit(tx, ctx.actor, { action: 'delete', table: 'ce_rules', id, old });
  });
  return { success: true };
}
