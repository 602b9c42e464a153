import { z } from 'zod';
import { ceRuleCreateInput, ceRulePageOutput, ceRulePageQuery, ceRuleSchema, ceRuleUpdateInput, idParam, successSchema } from '@lm/shared';
import { authedProcedure, policyProcedure, router } from '../../core/trpc.ts';
import * as rules from './ce-rules.service.ts';

const tags = ['ce-rules'];

/** State CE rules: everyone signed in reads (progress shows them); Admins write. */
export const ceRulesRouter = router({
  list: authedProcedure('ceRules.read')
    .meta({ openapi: { method: 'GET', path: '/ce-rules', tags, summary: 'State CE rules (by state and license type)', protect: true } })
    .input(z.object({}).optional())
    .output(z.array(ceRuleSchema))
    .query(({ ctx }) => rules.listRules(ctx)),

  page: authedProcedure('ceRules.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/ce-rules/page',
        tags,
        summary: 'One page of state CE rules with {rules, pagination} (filters state, license_type; sort, order, page, limit)',
        protect: true,
      },
    })
    .input(ceRulePageQuery.optional())
    .output(ceRulePageOutput)
    .query(({ ctx, input }) => rules.pageRules(ctx, input)),

  create: policyProcedure('ceRules.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/ce-rules',
        tags,
        summary: 'Create a state CE rule {state, license_type, hours_required, cycle_years, topics, notes} (409 if one exists)',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(ceRuleCreateInput)
    .output(ceRuleSchema)
    .mutation(({ ctx, input }) => rules.createRule(ctx, input)),

  update: policyProcedure('ceRules.update')
    .meta({
      openapi: { method: 'PUT', path: '/ce-rules/{id}', tags, summary: 'Update a state CE rule (any subset of fields)', protect: true },
      errors: ['CONFLICT'],
    })
    .input(ceRuleUpdateInput)
    .output(ceRuleSchema)
    .mutation(({ ctx, input }) => rules.updateRule(ctx, input)),

  delete: policyProcedure('ceRules.delete')
    .meta({ openapi: { method: 'DELETE', path: '/ce-rules/{id}', tags, summary: 'Delete a state CE rule', protect: true } })
    .input(z.object({ id: idParam }))
    .output(successSchema)
    .mutation(({ ctx, input }) => rules.deleteRule(ctx, input.id)),
});
