/** GET /api/courses/export: the Courses list's filtered, sorted view as CSV (server/src/http/list-export.ts). */
import { coursePageQuery, type Course } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { pageCourses } from './courses.service.ts';

export const coursesExport = listExports({
  path: '/courses/export',
  name: 'courses',
  action: 'courses.read',
  query: coursePageQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await pageCourses(ctx, { ...q, cursor, limit });
    return chunkOf(p.courses, p);
  },
  rows: 'One row per course matching the filters of GET /courses (is_active, course_type, search, school_id), in the sort and order of GET /courses/page',
  parameters: ['is_active', 'course_type', 'search', 'school_id', 'sort', 'order'].map((name) => ({ name })),
  columns: [
    { header: 'Course ID', value: (c: Course) => c.course_id },
    { header: 'Course Name', value: (c: Course) => c.course_name },
    { header: 'Description', value: (c: Course) => c.description },
    { header: 'Provider', value: (c: Course) => c.provider },
    { header: 'Type', value: (c: Course) => c.course_type },
    { header: 'CE Hours', value: (c: Course) => c.ce_hours },
    { header: 'CE Topic', value: (c: Course) => c.topic ?? '' },
    { header: 'Cost', value: (c: Course) => c.cost.toFixed(2) },
    { header: 'Status', value: (c: Course) => (c.is_active ? 'Active' : 'Inactive') },
    { header: 'School', value: (c: Course) => c.school_name ?? '' },
    { header: 'Completions', value: (c: Course) => c.completion_count },
    { header: 'Created', value: (c: Course) => c.created_at },
  ],
});
