import {
  documentDetailSchema,
  documentIdInput,
  documentListQuery,
  documentPageOutput,
  successSchema,
  updateDocumentInput,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as documents from './documents.service.ts';

const tags = ['documents'];

// Upload (POST /documents, POST /documents/{id}/versions), downloads, export and the audit pack are plain
// Fastify routes (documents.http.ts).
export const documentsRouter = router({
  page: policyProcedure('documents.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/documents',
        tags,
        summary:
          'One page of documents in your scope with {documents, pagination} (filters owner_id, category, license_id, completion_id, search on title)',
        protect: true,
      },
    })
    .input(documentListQuery.optional())
    .output(documentPageOutput)
    .query(({ ctx, input }) => documents.pageDocuments(ctx, input)),

  get: policyProcedure('documents.read')
    .meta({ openapi: { method: 'GET', path: '/documents/{id}', tags, summary: 'One document with its versions', protect: true } })
    .input(documentIdInput)
    .output(documentDetailSchema)
    .query(({ ctx, input }) => documents.getDocument(ctx, input.id)),

  update: policyProcedure('documents.update')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/documents/{id}',
        tags,
        summary: 'Change a document’s category, title, license or completion (links must be the owner’s own)',
        protect: true,
      },
      errors: ['PRECONDITION_FAILED'],
    })
    .input(updateDocumentInput)
    .output(documentDetailSchema)
    .mutation(({ ctx, input }) => documents.updateDocument(ctx, input)),

  delete: policyProcedure('documents.delete')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/documents/{id}',
        tags,
        summary: 'Delete a document (hidden everywhere; kept in the audit log)',
        protect: true,
      },
    })
    .input(documentIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => documents.deleteDocument(ctx, input.id)),
});
