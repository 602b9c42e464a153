import { apiKeyCreatedSchema, apiKeyCreateInput, apiKeyIdInput, apiKeySchema, apiKeysListOutput, apiKeysListQuery } from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as keys from './api-keys.service.ts';

const tags = ['api-keys'];

/** API keys (docs/api.md "API keys"): Admin any key; a Broker its brokerage's, creating read keys only. */
export const apiKeysRouter = router({
  list: policyProcedure('apiKeys.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api-keys',
        tags,
        summary: 'List API keys (prefix, scopes, last use; never the secret)',
        protect: true,
      },
    })
    .input(apiKeysListQuery)
    .output(apiKeysListOutput)
    .query(({ ctx, input }) => keys.listApiKeys(ctx, input)),

  create: policyProcedure('apiKeys.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api-keys',
        tags,
        summary: 'Create an API key; the answer holds its secret, shown this once',
        protect: true,
      },
      errors: ['NOT_FOUND'],
    })
    .input(apiKeyCreateInput)
    .output(apiKeyCreatedSchema)
    .mutation(({ ctx, input }) => keys.createApiKey(ctx, input)),

  revoke: policyProcedure('apiKeys.revoke')
    .meta({ openapi: { method: 'DELETE', path: '/api-keys/{id}', tags, summary: 'Revoke an API key (refused at once)', protect: true } })
    .input(apiKeyIdInput)
    .output(apiKeySchema)
    .mutation(({ ctx, input }) => keys.revokeApiKey(ctx, input.id)),
});
