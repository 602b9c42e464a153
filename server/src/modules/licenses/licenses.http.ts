/**
 * The CE transcript as CSV: GET /api/licenses/{id}/transcript/export. A plain Fastify route (the REST
 * adapter cannot return files) behind the same session and scope checks as licenses.transcript; the
 * cells go through csv-stringify with formula-like text neutralised, as the report exports do.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { idParam, neutraliseCsvCell, transcriptFileName, type Transcript } from '@lm/shared';
import type { FileRoutes, RouteDeps } from '../../http/file-routes.ts';
import { authenticate } from '../../http/authenticate.ts';
import { today } from '../../core/dates.ts';
import { getTranscript } from './licenses.service.ts';

export const TRANSCRIPT_COLUMNS = [
  'Cycle',
  'Cycle Start',
  'Cycle End',
  'Line',
  'Date',
  'Description',
  'Provider',
  'Topic',
  'Hours',
  'Required',
  'Remaining',
] as const;

type Row = Record<(typeof TRANSCRIPT_COLUMNS)[number], string | number>;

/** One row per cycle total, per topic, per completion and per adjustment; the current cycle first. */
export function transcriptRows(t: Transcript): Row[] {
  const rows: Row[] = [];
  const cycles = [{ label: 'Current', ...t.current }, ...t.closed.map((c) => ({ label: `Closed ${c.closed_at.slice(0, 10)}`, ...c }))];
  for (const c of cycles) {
    const base = { Cycle: c.label, 'Cycle Start': c.start_date, 'Cycle End': c.end_date };
    const blank = { Date: '', Description: '', Provider: '', Topic: '', Hours: '', Required: '', Remaining: '' };
    rows.push({
      ...base,
      ...blank,
      Line: 'Total',
      Description: c.complete ? 'Complete' : 'Incomplete',
      Hours: c.completed,
      Required: c.required,
      Remaining: c.remaining,
    });
    for (const topic of c.topics) {
      rows.push({
        ...base,
        ...blank,
        Line: 'Topic',
        Topic: topic.topic,
        Hours: topic.completed,
        Required: topic.required,
        Remaining: topic.remaining,
      });
    }
    for (const comp of c.completions) {
      rows.push({
        ...base,
        ...blank,
        Line: 'Completion',
        Date: comp.completion_date,
        Description: comp.course_name,
        Provider: comp.provider,
        Topic: comp.topic ?? '',
        Hours: comp.hours,
      });
    }
    for (const adj of c.adjustments) {
      rows.push({
        ...base,
        ...blank,
        Line: 'Adjustment',
        Date: adj.created_at.slice(0, 10),
        Description: adj.created_by_name ? `${adj.reason} (${adj.created_by_name})` : adj.reason,
        Hours: adj.hours,
      });
    }
  }
  return rows;
}

async function exportTranscript(deps: RouteDeps, req: FastifyRequest, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, ['Admin', 'Broker', 'Agent']);
  const id = idParam.parse((req.params as { id?: string }).id);
  const transcript = await getTranscript(ctx, id);
  const csv = stringify(transcriptRows(transcript), {
    header: true,
    columns: [...TRANSCRIPT_COLUMNS],
    bom: true,
    cast: { string: (value) => neutraliseCsvCell(value) },
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${transcriptFileName(transcript.license.license_number, today())}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

export const licensesFileRoutes: FileRoutes = {
  register(api, deps) {
    api.get('/licenses/:id/transcript/export', (req, reply) => exportTranscript(deps, req, reply));
  },
  paths: {
    '/licenses/{id}/transcript/export': {
      get: {
        tags: ['licenses'],
        summary: 'Download the CE transcript of a license as CSV (same scope as the license)',
        description:
          'One row per cycle total, topic, completion and adjustment; the current cycle first, then the closed cycles, newest first. Saved as transcript_{license_number}_{today}.csv. Cells that a spreadsheet would run as a formula are prefixed with a single quote.',
        security: [{ Authorization: [] }],
        parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'text/csv attachment transcript_{license_number}_{today}.csv',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          '400': { description: 'The id is not a positive integer' },
          '401': { description: 'Not signed in' },
          '403': { description: 'A School user' },
          '404': { description: 'No such license in your scope' },
          '503': { description: 'Maintenance mode: only Admins may use the API' },
        },
      },
    },
  },
};
