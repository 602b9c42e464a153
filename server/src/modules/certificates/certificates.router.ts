import {
  certificateCompletionInput,
  certificateCompletionsInput,
  completionCertificateSchema,
  completionSchema,
  documentExtractionSchema,
  idParam,
} from '@lm/shared';
import { z } from 'zod';
import { authedProcedure, policyProcedure, router } from '../../core/trpc.ts';
import * as certificates from './certificates.service.ts';

const tags = ['documents'];

export const certificatesRouter = router({
  extraction: authedProcedure('documents.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/documents/{id}/extraction',
        tags,
        summary:
          "What was read from a CE certificate's current version: status (pending, done, failed), the fields with their confidence and the suggested completion",
        protect: true,
      },
    })
    .input(z.object({ id: idParam }))
    .output(documentExtractionSchema)
    .query(({ ctx, input }) => certificates.getExtraction(ctx, input.id)),

  recordCompletion: policyProcedure('certificates.recordCompletion')
    .meta({
      openapi: {
        method: 'POST',
        path: '/documents/{id}/completion',
        tags,
        summary:
          "Record a Pending completion for the certificate's owner from the confirmed values and link the certificate to it (never approves)",
        protect: true,
      },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(certificateCompletionInput.extend({ id: idParam }))
    .output(completionSchema)
    .mutation(({ ctx, input }) => certificates.recordFromCertificate(ctx, input)),

  recordCompletions: policyProcedure('certificates.recordCompletions')
    .meta({
      openapi: {
        method: 'POST',
        path: '/documents/{id}/completions',
        tags,
        summary:
          "Record a transcript's courses together: one Pending completion per entry for the certificate's owner, all or none, each linked to the certificate (never approves)",
        protect: true,
      },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(certificateCompletionsInput.extend({ id: idParam }))
    .output(z.array(completionSchema))
    .mutation(({ ctx, input }) => certificates.recordAllFromCertificate(ctx, input)),

  forCompletion: authedProcedure('completions.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/completions/{id}/certificates',
        tags: ['completions'],
        summary: 'The certificates linked to a completion (for its reviewer); the scope of GET /completions',
        protect: true,
      },
    })
    .input(z.object({ id: idParam }))
    .output(z.array(completionCertificateSchema))
    .query(({ ctx, input }) => certificates.certificatesOf(ctx, input.id)),
});
