/**
 * The CE transcript as CSV: GET /api/licenses/{id}/transcript/export. A plain Fastify route (the REST
 * adapter cannot return files) behind the same session and scope checks as licenses.transcript; the
 * cells go through csv-stringify with formula-like text neutralised, as the report exports do.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPLIANCE_LABELS, idParam, licenseListQuery, transcriptFileName, type License, type Transcript } from '@lm/shared';
import type { FileRoutes, RouteDeps } from '../../http/file-routes.ts';
import { authenticate } from '../../http/authenticate.ts';
import { rowsSource, sendCsv } from '../../http/csv.ts';
import { today } from '../../core/dates.ts';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { getTranscript, pageLicenses } from './licenses.service.ts';

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
  const ctx = await authenticate(deps, req, 'licenses.read');
  const id = idParam.parse((req.params as { id?: string }).id);
  const transcript = await getTranscript(ctx, id);
  return sendCsv(
    reply,
    rowsSource(TRANSCRIPT_COLUMNS, transcriptRows(transcript)),
    transcriptFileName(transcript.license.license_number, today()),
  );
}

export const licensesFileRoutes: FileRoutes = {
  register(api, deps) {
    api.get('/licenses/:id/transcript/export', (req, reply) => exportTranscript(deps, req, reply));
  },
  access: { 'GET /licenses/{id}/transcript/export': 'licenses.read' },
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

/** GET /api/licenses/export: the Licenses screen's filtered, sorted view as CSV. */
export const licensesExport = listExports({
  path: '/licenses/export',
  name: 'licenses',
  action: 'licenses.read',
  query: licenseListQuery,
  page: async (ctx, q, cursor, limit) => {
    const p = await pageLicenses(ctx, { ...q, cursor, limit });
    return chunkOf(p.licenses, p);
  },
  rows: 'One row per license in your scope matching the filters of GET /licenses (status, state, license_type, expiring_within, compliance, search, user_id), in its sort and order',
  parameters: ['status', 'state', 'license_type', 'expiring_within', 'compliance', 'search', 'user_id', 'sort', 'order'].map((name) => ({
    name,
  })),
  columns: [
    { header: 'License ID', value: (l: License) => l.license_id },
    { header: 'Holder', value: (l: License) => `${l.first_name} ${l.last_name}` },
    { header: 'License Number', value: (l: License) => l.license_number },
    { header: 'State', value: (l: License) => l.state },
    { header: 'Type', value: (l: License) => l.license_type },
    { header: 'Issue Date', value: (l: License) => l.issue_date },
    { header: 'Expiration Date', value: (l: License) => l.expiration_date },
    { header: 'Status', value: (l: License) => l.status },
    { header: 'CE Hours Completed', value: (l: License) => l.ce_hours_completed },
    { header: 'CE Hours Required', value: (l: License) => l.ce_hours_required },
    { header: 'Compliance', value: (l: License) => COMPLIANCE_LABELS[l.compliance.state] },
    { header: 'CE Hours Remaining', value: (l: License) => l.compliance.hours_remaining },
    { header: 'Topics Missing', value: (l: License) => l.compliance.topics_missing.map((t) => `${t.topic} (${t.hours} h)`).join('; ') },
  ],
});
