/**
 * The import routes the REST adapter cannot serve (files), as plain Fastify routes with the same checks:
 *   POST /api/imports                        multipart upload (file, kind, sheet?, send_welcome?) → the preview (201)
 *   GET  /api/imports/{id}/errors.csv        the rejected rows with their original columns and a Reason column
 *   GET  /api/imports/template/{kind}.csv    an empty file with the kind's columns, to fill in
 * The upload is read into memory up to settings.max_file_size_mb (the documents' limit, 413 over it: a declared
 * Content-Length before the body is read) and never stored as a file: its rows are kept in import_rows.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IMPORT_FIELDS, IMPORT_KINDS, IMPORT_STRINGS, idParam, importKindSchema, importPreviewSchema } from '@lm/shared';
import type { FileRoutes, RouteDeps } from '../../http/file-routes.ts';
import { authenticate } from '../../http/authenticate.ts';
import { rowsSource, sendCsv } from '../../http/csv.ts';
import { registerMultipart, uploadLimit } from '../../http/upload-limit.ts';
import { AppError, badRequest } from '../../base/errors.ts';
import { cleanFileName } from '../documents/documents.content.ts';
import * as imports from './imports.service.ts';

async function upload(deps: RouteDeps, req: FastifyRequest, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, 'imports.create');
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with a "file" field');
  const limit = await uploadLimit(ctx.db, req);
  const raw: Record<string, string> = {};
  let file: { file_name: string; bytes: Buffer } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: limit.bytes, files: 1 } })) {
      if (part.type !== 'file') raw[part.fieldname] = String(part.value);
      else if (part.fieldname !== 'file' || file) part.file.resume();
      else file = { file_name: cleanFileName(part.filename), bytes: await part.toBuffer() };
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', limit.tooLarge);
    if (err instanceof AppError) throw err;
    throw badRequest('The upload could not be read; send multipart/form-data with the file in a "file" field');
  }
  if (!file) throw badRequest(IMPORT_STRINGS.noFile);
  return reply.code(201).send(await imports.createImport(ctx, raw, file));
}

async function errorsCsv(deps: RouteDeps, req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, 'imports.read');
  const id = idParam.safeParse(req.params.id);
  if (!id.success) throw badRequest('Import id must be a positive whole number');
  const { headers, file_name, rows } = await imports.errorRows(ctx, id.data);
  const columns = [IMPORT_STRINGS.rowColumn, ...headers, IMPORT_STRINGS.reasonColumn];
  const data = rows.map((r) => {
    const out: Record<string, unknown> = { [IMPORT_STRINGS.rowColumn]: r.row };
    headers.forEach((h, i) => (out[h] = r.cells[i] ?? ''));
    out[IMPORT_STRINGS.reasonColumn] = r.errors.map((e) => `${e.column}: ${e.message}`).join('; ');
    return out;
  });
  const base = file_name.replace(/\.[^.]+$/, '').replace(/[^\w.-]+/g, '_') || 'import';
  return sendCsv(reply, rowsSource(columns, data), `${base}-errors.csv`);
}

async function template(deps: RouteDeps, req: FastifyRequest<{ Params: { kind: string } }>, reply: FastifyReply) {
  await authenticate(deps, req, 'imports.read');
  const kind = importKindSchema.safeParse(req.params.kind);
  if (!kind.success) throw badRequest(`No template "${req.params.kind}": use ${IMPORT_KINDS.join(' or ')}`);
  const columns = IMPORT_FIELDS[kind.data].map((f) => f.label);
  return sendCsv(reply, rowsSource(columns, []), `${kind.data}-template.csv`);
}

const errors = {
  '400': { description: 'Bad id, field, file type or content: {error, code}' },
  '401': { description: 'Not signed in' },
  '403': { description: 'An Agent; a kind the role may not import' },
  '404': { description: 'No such import of yours' },
  '503': { description: 'Maintenance mode: only Admins may use the API' },
};
const csvResponse = (description: string) => ({ description, content: { 'text/csv': { schema: { type: 'string' } } } });

export const importsFileRoutes: FileRoutes = {
  register(api, deps) {
    void api.register(async (scope) => {
      await registerMultipart(scope, { fields: 10, fieldSize: 1024, parts: 12 });
      scope.post('/imports', (req, reply) => upload(deps, req, reply));
    });
    api.get<{ Params: { id: string } }>('/imports/:id/errors.csv', (req, reply) => errorsCsv(deps, req, reply));
    api.get<{ Params: { kind: string } }>('/imports/template/:kind.csv', (req, reply) => template(deps, req, reply));
  },
  access: {
    'POST /imports': 'imports.create',
    'GET /imports/{id}/errors.csv': 'imports.read',
    'GET /imports/template/{kind}.csv': 'imports.read',
  },
  paths: {
    '/imports': {
      post: {
        tags: ['imports'],
        summary:
          'Upload a CSV or XLSX file to import (multipart: file, kind, sheet?, send_welcome?); answers the preview, writing nothing else',
        description:
          'kind roster (Admin; a Broker into its own brokerage) or completions (a School for its own courses; an Admin any). CSV: any of , ; TAB | as delimiter, UTF-8 with or without BOM. XLSX: the first sheet or `sheet`. At most settings.max_file_size_mb and 50,000 rows. The mapping is guessed from the headers; change it with PUT /imports/{id}, then POST /imports/{id}/commit.',
        security: [{ Authorization: [] }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file', 'kind'],
                properties: {
                  file: { type: 'string', format: 'binary' },
                  kind: { type: 'string', enum: [...IMPORT_KINDS] },
                  sheet: { type: 'string' },
                  send_welcome: { type: 'string', enum: ['true', 'false'] },
                },
              },
            },
          },
        },
        responses: {
          '201': { description: 'The preview (first page of rows)', content: { 'application/json': { schema: importPreviewSchema } } },
          ...errors,
          '413': { description: 'Larger than settings.max_file_size_mb, or a workbook that unpacks to more than 20 times it' },
          '415': { description: 'Not multipart/form-data' },
        },
      },
    },
    '/imports/{id}/errors.csv': {
      get: {
        tags: ['imports'],
        summary: 'The rejected rows as CSV: Row, the file’s own columns, and Reason (fix them and upload again)',
        security: [{ Authorization: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': csvResponse('The rejected rows'), ...errors },
      },
    },
    '/imports/template/{kind}.csv': {
      get: {
        tags: ['imports'],
        summary: 'An empty CSV with the columns of a kind of import (roster or completions)',
        security: [{ Authorization: [] }],
        parameters: [{ name: 'kind', in: 'path', required: true, schema: { type: 'string', enum: [...IMPORT_KINDS] } }],
        responses: { '200': csvResponse('The header row'), ...errors },
      },
    },
  },
};
