import {
  courseCreateInput,
  courseListQuery,
  coursePageOutput,
  coursePageQuery,
  courseSchema,
  courseUpdateInput,
  idParam,
  successSchema,
} from '@lm/shared';
import { z } from 'zod';
import { authedProcedure, policyProcedure, router } from '../../core/trpc.ts';
import * as courses from './courses.service.ts';

const tags = ['courses'];

export const coursesRouter = router({
  list: authedProcedure('courses.read')
    .meta({
      openapi: { method: 'GET', path: '/courses', tags, summary: 'All courses (every signed-in user may read them)', protect: true },
    })
    .input(courseListQuery)
    .output(z.array(courseSchema))
    .query(({ ctx, input }) => courses.listCourses(ctx, input)),

  page: authedProcedure('courses.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/courses/page',
        tags,
        summary: 'One page of courses with {courses, pagination} (the filters of GET /courses, plus sort, order, page, limit)',
        protect: true,
      },
    })
    .input(coursePageQuery.optional())
    .output(coursePageOutput)
    .query(({ ctx, input }) => courses.pageCourses(ctx, input)),

  get: authedProcedure('courses.read')
    .meta({ openapi: { method: 'GET', path: '/courses/{id}', tags, summary: 'One course', protect: true } })
    .input(z.object({ id: idParam }))
    .output(courseSchema)
    .query(({ ctx, input }) => courses.getVisibleCourse(ctx, input.id)),

  create: policyProcedure('courses.create')
    .meta({
      openapi: { method: 'POST', path: '/courses', tags, summary: 'Create a course (Admin, or a School for itself)', protect: true },
    })
    .input(courseCreateInput)
    .output(courseSchema)
    .mutation(({ ctx, input }) => courses.createCourse(ctx, input)),

  update: policyProcedure('courses.update')
    .meta({
      openapi: { method: 'PUT', path: '/courses/{id}', tags, summary: 'Update a course (Admin, or the owning School)', protect: true },
      errors: ['PRECONDITION_FAILED'],
    })
    .input(courseUpdateInput)
    .output(courseSchema)
    .mutation(({ ctx, input }) => courses.updateCourse(ctx, input)),

  delete: policyProcedure('courses.delete')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/courses/{id}',
        tags,
        summary: 'Delete a course without completions (409 otherwise: deactivate it instead)',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(z.object({ id: idParam }))
    .output(successSchema)
    .mutation(({ ctx, input }) => courses.deleteCourse(ctx, input.id)),
});
