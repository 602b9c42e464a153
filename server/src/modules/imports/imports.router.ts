import {
  importCommitOutput,
  importGetInput,
  importIdInput,
  importListOutput,
  importListQuery,
  importMappingInput,
  importPreviewSchema,
  importUndoOutput,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as imports from './imports.service.ts';

const tags = ['imports'];

// The upload (POST /imports, multipart), the errors file and the templates are plain Fastify routes (imports.http.ts).
export const importsRouter = router({
  list: policyProcedure('imports.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/imports',
        tags,
        summary: 'Past imports (yours; an Admin’s: all) with who, when, file, kind, counts and status, newest first',
        protect: true,
      },
    })
    .input(importListQuery)
    .output(importListOutput)
    .query(({ ctx, input }) => imports.listImports(ctx, input)),

  get: policyProcedure('imports.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/imports/{id}',
        tags,
        summary: 'An import’s preview: columns with samples, mapping, counts and one page of rows (?filter=error|create|update|unchanged)',
        protect: true,
      },
    })
    .input(importGetInput)
    .output(importPreviewSchema)
    .query(({ ctx, input }) => imports.getImport(ctx, input)),

  updateMapping: policyProcedure('imports.create')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/imports/{id}',
        tags,
        summary: 'Change a previewed import’s mapping (column header → field id or null); answers the recomputed preview',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(importMappingInput)
    .output(importPreviewSchema)
    .mutation(({ ctx, input }) => imports.updateMapping(ctx, input)),

  commit: policyProcedure('imports.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/imports/{id}/commit',
        tags,
        summary: 'Write every valid row of a previewed import (the others are skipped) as one audited batch',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(importIdInput)
    .output(importCommitOutput)
    .mutation(({ ctx, input }) => imports.commitImport(ctx, input.id)),

  undo: policyProcedure('imports.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/imports/{id}/undo',
        tags,
        summary: 'Remove what a committed import created and restore what it updated; 409 naming the rows changed since',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(importIdInput)
    .output(importUndoOutput)
    .mutation(({ ctx, input }) => imports.undoImport(ctx, input.id)),
});
