/** GET /api/completions/export: the Completions list's filtered, sorted view as CSV (server/src/http/list-export.ts). */
import { completionPageQuery, type Completion } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { pageCompletions } from './completions.service.ts';

export const completionsExport = listExports({
  path: '/completions/export',
  name: 'completions',
  action: 'completions.read',
  query: completionPageQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await pageCompletions(ctx, { ...q, cursor, limit });
    return chunkOf(p.completions, p);
  },
  rows: "One row per completion in the caller's scope (Admin all, Broker its brokerage's, Agent own, School its courses') matching the filters of GET /completions/page (status, course_id, user_id, license_id, search), in its sort and order",
  parameters: ['status', 'course_id', 'user_id', 'license_id', 'search', 'sort', 'order'].map((name) => ({ name })),
  columns: [
    { header: 'Completion ID', value: (c: Completion) => c.completion_id },
    { header: 'Name', value: (c: Completion) => `${c.first_name} ${c.last_name}` },
    { header: 'Course', value: (c: Completion) => c.course_name },
    { header: 'License', value: (c: Completion) => c.license_number ?? '' },
    { header: 'License State', value: (c: Completion) => c.license_state ?? '' },
    { header: 'Completion Date', value: (c: Completion) => c.completion_date },
    { header: 'Hours', value: (c: Completion) => c.hours },
    { header: 'Rating', value: (c: Completion) => c.rating ?? '' },
    { header: 'Status', value: (c: Completion) => c.status },
    { header: 'Reviewed At', value: (c: Completion) => c.reviewed_at ?? '' },
    { header: 'Note', value: (c: Completion) => c.note ?? '' },
  ],
});
