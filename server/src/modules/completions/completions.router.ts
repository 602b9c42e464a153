import {
  completionCreateInput,
  completionLicenseOptionSchema,
  completionListQuery,
  completionPageOutput,
  completionPageQuery,
  completionPeopleQuery,
  completionPersonSchema,
  completionReviewInput,
  completionSchema,
  idParam,
} from '@lm/shared';
import { z } from 'zod';
import { authedProcedure, policyProcedure, router } from '../../core/trpc.ts';
import * as completions from './completions.service.ts';

const tags = ['completions'];

export const completionsRouter = router({
  list: authedProcedure('completions.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/completions',
        tags,
        summary: "CE completions in the caller's scope (Admin all, Broker its brokerage's, Agent own, School its courses')",
        protect: true,
      },
    })
    .input(completionListQuery)
    .output(z.array(completionSchema))
    .query(({ ctx, input }) => completions.listCompletions(ctx, input)),

  page: authedProcedure('completions.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/completions/page',
        tags,
        summary:
          'One page of completions with {completions, pagination} (the scope and filters of GET /completions, plus search, sort, order, page, limit)',
        protect: true,
      },
    })
    .input(completionPageQuery.optional())
    .output(completionPageOutput)
    .query(({ ctx, input }) => completions.pageCompletions(ctx, input)),

  get: authedProcedure('completions.read')
    .meta({ openapi: { method: 'GET', path: '/completions/{id}', tags, summary: "One completion in the caller's scope", protect: true } })
    .input(z.object({ id: idParam }))
    .output(completionSchema)
    .query(({ ctx, input }) => completions.getVisibleCompletion(ctx, input.id)),

  create: policyProcedure('completions.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/completions',
        tags,
        summary:
          "Record a course completion (starts Pending; a School records its own courses' completions for any Agent or Broker, approved at once); hours default to the course CE hours",
        protect: true,
      },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(completionCreateInput)
    .output(completionSchema)
    .mutation(({ ctx, input }) => completions.recordCompletion(ctx, input)),

  review: policyProcedure('completions.review')
    .meta({
      openapi: {
        method: 'POST',
        path: '/completions/{id}/review',
        tags,
        summary: "Approve, reject or reopen a completion (the course's School or an Admin); approval credits the license",
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(completionReviewInput)
    .output(completionSchema)
    .mutation(({ ctx, input }) => completions.reviewCompletion(ctx, input)),

  people: policyProcedure('completions.people')
    .meta({
      openapi: {
        method: 'GET',
        path: '/completions/people',
        tags,
        summary:
          'The people a completion may be recorded for (live Agents and Brokers by name or license number, at most 20), with their licenses: the Record Completion form of a School',
        protect: true,
      },
    })
    .input(completionPeopleQuery.optional())
    .output(z.array(completionPersonSchema))
    .query(({ ctx, input }) => completions.completionPeople(ctx, input)),

  /** The Record Completion form's license choices (tRPC only; GET /api/licenses is the full list). */
  myLicenses: policyProcedure('completions.licenses')
    .input(z.object({ user_id: idParam.optional() }).optional())
    .output(z.array(completionLicenseOptionSchema))
    .query(({ ctx, input }) => completions.licenseOptions(ctx, input?.user_id)),
});
