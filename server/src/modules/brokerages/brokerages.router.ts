import {
  brokerageCreateInput,
  brokerageIdInput,
  brokerageOptionsOutput,
  brokerageSchema,
  brokeragesListOutput,
  brokeragesListQuery,
  brokerageUpdateInput,
  brokerageUsersOutput,
  pickerQuery,
  successSchema,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as brokerages from './brokerages.service.ts';

const tags = ['brokerages'];

/** Brokerages are Admin only (docs/decisions.md); every other role gets 403. */
export const brokeragesRouter = router({
  list: policyProcedure('brokerages.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/brokerages',
        tags,
        summary: 'List brokerages with agent_count, search and pagination',
        protect: true,
      },
    })
    .input(brokeragesListQuery)
    .output(brokeragesListOutput)
    .query(({ ctx, input }) => brokerages.listBrokerages(ctx, input)),

  get: policyProcedure('brokerages.read')
    .meta({ openapi: { method: 'GET', path: '/brokerages/{id}', tags, summary: 'One brokerage with its agent count', protect: true } })
    .input(brokerageIdInput)
    .output(brokerageSchema)
    .query(({ ctx, input }) => brokerages.getBrokerage(ctx.db, input.id)),

  create: policyProcedure('brokerages.create')
    .meta({ openapi: { method: 'POST', path: '/brokerages', tags, summary: 'Create a brokerage', protect: true }, errors: ['CONFLICT'] })
    .input(brokerageCreateInput)
    .output(brokerageSchema)
    .mutation(({ ctx, input }) => brokerages.createBrokerage(ctx, input)),

  update: policyProcedure('brokerages.update')
    .meta({
      openapi: { method: 'PUT', path: '/brokerages/{id}', tags, summary: 'Update a brokerage', protect: true },
      errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    })
    .input(brokerageUpdateInput)
    .output(brokerageSchema)
    .mutation(({ ctx, input }) => brokerages.updateBrokerage(ctx, input)),

  delete: policyProcedure('brokerages.delete')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/brokerages/{id}',
        tags,
        summary: 'Delete a brokerage; its users stay, unassigned',
        protect: true,
      },
    })
    .input(brokerageIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => brokerages.deleteBrokerage(ctx, input.id)),

  users: policyProcedure('brokerages.read')
    .meta({ openapi: { method: 'GET', path: '/brokerages/{id}/users', tags, summary: 'The users of a brokerage', protect: true } })
    .input(brokerageIdInput)
    .output(brokerageUsersOutput)
    .query(({ ctx, input }) => brokerages.brokerageUsers(ctx, input.id)),

  options: policyProcedure('brokerages.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/brokerages/options',
        tags,
        summary:
          'The brokerage picker: brokerages whose name contains `search`, the first `limit` (20, at most 50) by name, as id and name; `ids` only those',
        protect: true,
      },
    })
    .input(pickerQuery.optional())
    .output(brokerageOptionsOutput)
    .query(({ ctx, input }) => brokerages.brokerageOptions(ctx, input)),
});
