import { deletionListQuery, deletionPageOutput } from '@lm/shared';
import { authedProcedure, router } from '../../core/trpc.ts';
import * as deletions from './deletions.service.ts';

const tags = ['deletions'];

/** Tombstones for an integrator's sync (docs/api.md "Changes since"). */
export const deletionsRouter = router({
  list: authedProcedure('deletions.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/deletions',
        tags,
        summary:
          'Objects deleted after `since` (ISO 8601), oldest first, in your scope: {deletions: [{resource, id, deleted_at}], pagination}; filter by resource',
        protect: true,
      },
    })
    .input(deletionListQuery)
    .output(deletionPageOutput)
    .query(({ ctx, input }) => deletions.listDeletions(ctx, input)),
});
