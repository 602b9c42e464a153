import {
  documentDetailSchema,
  documentIdInput,
  documentListQuery,
  documentPageOutput,
  successSchema,
  updateDocumentInput,
} from '@lm/shared';
import { roleProcedure, router } from '../../core/trpc.ts';
import * as documents from './documents.service.ts';

const tags = ['documents'];
/** Read: every role within its scope (docs/decisions.md "Documents"); a School only certificates of its courses. */
const readProcedure = roleProcedure('Admin', 'Broker', 'Agent', 'School');
/** Edit and delete: Admin, Broker and Agent within scope (School: 403). */
const writeProcedure = roleProcedure('Admin', 'Broker', 'Agent');

// Upload (POST /documents, POST /documents/{id}/versions), downloads, export and the audit pack are plain
// Fastify routes (documents.http.ts).
export const documentsRouter = router({
  page: readProcedure
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

  get: readProcedure
    .meta({ openapi: { method: 'GET', path: '/documents/{id}', tags, summary: 'One document with its versions', protect: true } })
    .input(documentIdInput)
    .output(documentDetailSchema)
    .query(({ ctx, input }) => documents.getDocument(ctx, input.id)),

  update: writeProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/documents/{id}',
        tags,
        summary: 'Change a document’s category, title, license or completion (links must be the owner’s own)',
        protect: true,
      },
    })
    .input(updateDocumentInput)
    .output(documentDetailSchema)
    .mutation(({ ctx, input }) => documents.updateDocument(ctx, input)),

  delete: writeProcedure
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
