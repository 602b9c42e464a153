/**
 * GET /api/licenses/{id}/audit-pack: what an auditor asks for about one license, as one zip streamed with yazl
 * (docs/decisions.md "Documents"): the CE transcript of the current cycle and of the previous closed one
 * (transcript.csv and transcript.txt), every certificate behind it (the current version of each document linked
 * to the license or to one of its completions, under certificates/) and manifest.txt listing them. Same scope as
 * the license's transcript; audited as an export.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { auditPackFileName, idParam, type Transcript, type TranscriptCurrentCycle } from '@lm/shared';
import type { RouteDeps } from '../../http/file-routes.ts';
import { authenticate } from '../../http/authenticate.ts';
import { csvStream, rowsSource } from '../../http/csv.ts';
import { badRequest, conflict } from '../../base/errors.ts';
import { audit } from '../../core/audit.ts';
import { TRANSCRIPT_COLUMNS, transcriptRows } from '../licenses/licenses.http.ts';
import { getTranscript } from '../licenses/licenses.service.ts';
import { certificatesOfLicense } from './documents.service.ts';
import { contentDisposition } from './documents.content.ts';

/** The current cycle and the previous closed one (the newest closed). */
function lastTwoCycles(t: Transcript): Transcript {
  return { ...t, closed: t.closed.slice(0, 1) };
}

function cycleText(label: string, c: TranscriptCurrentCycle): string[] {
  const lines = [
    `${label}: ${c.start_date} to ${c.end_date}`,
    `  Hours: ${c.completed} of ${c.required} (${c.complete ? 'complete' : `${c.remaining} remaining`})`,
  ];
  for (const topic of c.topics) lines.push(`  Topic ${topic.topic}: ${topic.completed} of ${topic.required}`);
  if (c.completions.length) lines.push('  Completions:');
  for (const comp of c.completions) {
    lines.push(
      `    ${comp.completion_date}  ${comp.course_name} (${comp.provider})${comp.topic ? ` [${comp.topic}]` : ''}  ${comp.hours} h`,
    );
  }
  if (c.adjustments.length) lines.push('  Adjustments:');
  for (const adj of c.adjustments) lines.push(`    ${adj.created_at.slice(0, 10)}  ${adj.reason}  ${adj.hours} h`);
  return lines;
}

/** The transcript as plain text, for people without a spreadsheet. */
export function transcriptText(t: Transcript): string {
  const l = t.license;
  const lines = [
    `CE transcript of license ${l.license_number} (${l.state}, ${l.license_type})`,
    `Holder: ${l.first_name} ${l.last_name}`,
    `Expires: ${l.expiration_date}`,
    '',
    ...cycleText('Current cycle', t.current),
  ];
  for (const c of t.closed) lines.push('', ...cycleText(`Closed cycle (closed ${c.closed_at.slice(0, 10)})`, c));
  return `${lines.join('\n')}\n`;
}

/** The 409 of an audit pack whose certificate's file is not in the file store. */
export const missingFileMessage = (fileName: string) =>
  `A document's file is missing: "${fileName}". The audit pack is not complete without it; upload the certificate again, or ask your administrator to restore the file.`;

/** A file name fit for a zip entry: no folders, no control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const entryName = (name: string) => name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');

export async function sendAuditPack(deps: RouteDeps, req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, 'licenses.read');
  const id = idParam.safeParse(req.params.id);
  if (!id.success) throw badRequest('License id must be a positive whole number');
  const transcript = lastTwoCycles(await getTranscript(ctx, id.data));
  const certificates = await certificatesOfLicense(ctx, id.data);
  // docs/decisions.md "Faults": a pack that would lack a certificate is refused before anything is sent (409
  // naming the file), so an auditor never gets an incomplete pack that looks complete; the server keeps answering.
  for (const c of certificates) {
    if (!(await ctx.db.files.has(c.storage_key))) throw conflict(missingFileMessage(c.file_name));
  }
  const fileName = auditPackFileName(transcript.license.license_number);

  const zip = new yazl.ZipFile();
  // Every stream has its error handled (docs/security.md "Faults"): a file that disappears or a database that goes
  // away after the checks above ends this download (the client sees a cut-off zip), never the process.
  zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));
  zip.outputStream.on('error', (err: Error) => req.log.warn({ err }, 'audit pack stream failed'));
  const transcriptCsv = csvStream(rowsSource(TRANSCRIPT_COLUMNS, transcriptRows(transcript)));
  transcriptCsv.on('error', (err: Error) => zip.emit('error', err));
  zip.addReadStream(transcriptCsv, 'transcript.csv');
  zip.addBuffer(Buffer.from(transcriptText(transcript)), 'transcript.txt');
  const listed: string[] = [];
  const used = new Set<string>();
  for (const c of certificates) {
    let name = `certificates/${c.completion_id ? `completion-${c.completion_id}` : `document-${c.document_id}`}_${entryName(c.file_name)}`;
    if (used.has(name)) name = `certificates/document-${c.document_id}_${entryName(c.file_name)}`;
    used.add(name);
    listed.push(name);
    // Opened one at a time as the zip reaches it: streamed from the file store.
    zip.addReadStreamLazy(name, (cb) => {
      ctx.db.files.openRead(c.storage_key).then(
        (stream) => {
          stream.on('error', (err: Error) => zip.emit('error', err));
          cb(null, stream);
        },
        (err: unknown) => cb(err, undefined as never),
      );
    });
  }
  const manifest = [
    `Audit pack of license ${transcript.license.license_number}`,
    `Made ${new Date().toISOString()}`,
    '',
    'transcript.csv  CE transcript (current cycle and the previous closed cycle)',
    'transcript.txt  the same as plain text',
    ...(listed.length ? listed.map((n) => `${n}`) : ['(no certificates on file)']),
    '',
  ].join('\n');
  zip.addBuffer(Buffer.from(manifest), 'manifest.txt');
  zip.end();

  await ctx.db.transaction((tx) =>
    audit(tx, ctx.actor, { action: 'export', table: 'licenses', id: id.data, new: { export: 'audit_pack', certificates: listed.length } }),
  );
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition('attachment', fileName))
    .header('cache-control', 'no-store')
    .send(zip.outputStream);
}

export const auditPackPaths = {
  '/licenses/{id}/audit-pack': {
    get: {
      tags: ['licenses'],
      summary: 'Download the audit pack of a license: transcript (CSV and text) and certificates, as a zip',
      description:
        'audit-pack_{license_number}.zip with transcript.csv and transcript.txt (the current cycle and the previous closed cycle), every certificate on file for the license or its completions (current versions, under certificates/) and manifest.txt. Same scope as the license’s transcript. Recorded in the audit log as an export.',
      security: [{ Authorization: [] }],
      parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'integer' } }],
      responses: {
        '200': {
          description: 'application/zip attachment',
          content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
        },
        '400': { description: 'The id is not a positive integer' },
        '401': { description: 'Not signed in' },
        '403': { description: 'A School user' },
        '404': { description: 'No such license in your scope' },
        '409': { description: 'A certificate’s file is missing from the file store (the message names it)' },
        '503': { description: 'Maintenance mode: only Admins may use the API' },
      },
    },
  },
};
