/**
 * The document routes the REST adapter cannot serve (files), as plain Fastify routes with the same checks
 * (authenticate(): session, maintenance, role; the service: scope, 404 outside it):
 *   POST /api/documents                                  multipart upload of a new document
 *   POST /api/documents/{id}/versions                    multipart upload of a new version
 *   GET  /api/documents/{id}/download                    the current version's file
 *   GET  /api/documents/{id}/versions/{version}/download one version's file
 *   GET  /api/documents/export                           the list as CSV
 *   GET  /api/licenses/{id}/audit-pack                   transcript and certificates as a zip (audit-pack.ts)
 * Uploads stream into the file store (db/files.ts) under a fresh key before the transaction that records them;
 * the limits (settings.max_file_size_mb, settings.allowed_file_types) are read on every request; the content
 * must be what the extension says (documents.content.ts). Downloads stream from the store.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DOCUMENT_CATEGORY_LABELS,
  DOCUMENT_SORT_COLUMNS,
  DOCUMENT_STRINGS,
  documentDetailSchema,
  documentListQuery,
  documentUploadFields,
  formatBytes,
  idParam,
  INLINE_MIME_TYPES,
  type DocumentItem,
  type DocumentListQuery,
} from '@lm/shared';
import type { FileRoutes, RouteDeps } from '../../http/file-routes.ts';
import { authenticate, type AuthedContext } from '../../http/authenticate.ts';
import { AppError, badRequest } from '../../base/errors.ts';
import { getSettings } from '../../core/settings.ts';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { newStorageKey } from '../../db/client.ts';
import * as documents from './documents.service.ts';
import { checkExtension, cleanFileName, contentDisposition, detectedType, inspector } from './documents.content.ts';
import { auditPackPaths, sendAuditPack } from './audit-pack.ts';
import { checkCertificateUpload } from './extraction/index.ts';
import { registerMultipart, uploadLimit } from '../../http/upload-limit.ts';

/**
 * Reads a multipart upload: the "file" part streams into the store while its bytes are inspected; the other
 * parts are the fields. Returns the stored file (removed again by the caller if the request fails later).
 */
async function receiveUpload(
  ctx: AuthedContext,
  req: FastifyRequest,
  knownCategory?: string,
): Promise<{ raw: Record<string, string>; file: documents.StoredUpload }> {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the document as multipart/form-data with a "file" field');
  const settings = await getSettings(ctx.db);
  // docs/security.md "Certificates and uploads": a declared size over the limit is refused before the body is read.
  const { bytes: limitBytes, tooLarge } = await uploadLimit(ctx.db, req);
  const raw: Record<string, string> = {};
  let file: documents.StoredUpload | null = null;
  let refused: unknown = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: limitBytes, files: 1 } })) {
      if (part.type !== 'file') {
        raw[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || file || refused) {
        part.file.resume();
        continue;
      }
      const fileName = cleanFileName(part.filename);
      let ext: string;
      try {
        ext = checkExtension(fileName, settings.allowed_file_types);
      } catch (err) {
        refused = err;
        part.file.resume();
        continue;
      }
      const key = newStorageKey();
      const look = inspector();
      part.file.on('error', (err) => look.stream.destroy(err));
      // At the first byte over the limit the part is cut, not read on to its end (docs/security.md "Certificates and uploads").
      part.file.once('limit', () => part.file.destroy(new AppError('PAYLOAD_TOO_LARGE', tooLarge)));
      try {
        const stored = await ctx.db.files.put(key, part.file.pipe(look.stream), { maxBytes: limitBytes, tooLargeMessage: tooLarge });
        if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
        const mime = await detectedType(fileName, ext, look.head(), look.isText());
        file = { storage_key: key, file_name: fileName, mime_type: mime, size: stored.size, sha256: stored.sha256 };
      } catch (err) {
        await ctx.db.files.remove(key).catch(() => undefined);
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
        throw err;
      }
    }
  } catch (err) {
    if (file) await ctx.db.files.remove(file.storage_key).catch(() => undefined);
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
    if (err instanceof AppError) throw err;
    throw badRequest('The upload could not be read; send multipart/form-data with the document in a "file" field');
  }
  if (refused) {
    if (file) await ctx.db.files.remove(file.storage_key).catch(() => undefined);
    throw refused;
  }
  if (!file) throw badRequest(DOCUMENT_STRINGS.noFile);
  if ((knownCategory ?? raw.category) === 'ce_certificate') {
    // A certificate's page or pixel count is checked now, in the reader's worker thread, before it is recorded
    // (docs/ocr.md "Limits before reading"): a 60,000-page PDF answers 400 instead of waiting in the reading queue.
    const stored = file;
    await checkCertificateUpload(await ctx.db.files.readAll(stored.storage_key), stored.mime_type).catch(async (err: unknown) => {
      await ctx.db.files.remove(stored.storage_key).catch(() => undefined);
      throw err;
    });
  }
  return { raw, file };
}

/** Runs `record` with the stored file; removes the file again when recording fails. */
async function recording<T>(ctx: AuthedContext, file: documents.StoredUpload, record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (err) {
    await ctx.db.files.remove(file.storage_key).catch(() => undefined);
    throw err;
  }
}

async function upload(deps: RouteDeps, req: FastifyRequest, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, 'documents.upload');
  const { raw, file } = await receiveUpload(ctx, req);
  const doc = await recording(ctx, file, async () => {
    const fields = documentUploadFields.safeParse(raw);
    if (!fields.success) throw badRequest(fields.error.issues[0]?.message ?? 'The request is not valid');
    return documents.createDocument(ctx, fields.data, file);
  });
  return reply.code(201).send(doc);
}

async function uploadVersion(deps: RouteDeps, req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, 'documents.upload');
  const id = idParam.safeParse(req.params.id);
  if (!id.success) throw badRequest('Document id must be a positive whole number');
  // Out of scope answers 404 before anything is stored (the body is then not read).
  const { category } = await documents.assertDocumentVisible(ctx, id.data);
  const { file } = await receiveUpload(ctx, req, category);
  const doc = await recording(ctx, file, () => documents.addVersion(ctx, id.data, file));
  return reply.code(201).send(doc);
}

async function download(
  deps: RouteDeps,
  req: FastifyRequest<{ Params: { id: string; version?: string }; Querystring: { inline?: string } }>,
  reply: FastifyReply,
) {
  const ctx = await authenticate(deps, req, 'documents.read');
  const id = idParam.safeParse(req.params.id);
  if (!id.success) throw badRequest('Document id must be a positive whole number');
  let version: number | undefined;
  if (req.params.version !== undefined) {
    const v = idParam.safeParse(req.params.version);
    if (!v.success) throw badRequest('Version must be a positive whole number');
    version = v.data;
  }
  const f = await documents.versionFile(ctx, id.data, version);
  const wantsInline = req.query.inline === '1' || req.query.inline === 'true';
  const inline = wantsInline && (INLINE_MIME_TYPES as readonly string[]).includes(f.mime_type);
  const stream = await ctx.db.files.openRead(f.storage_key);
  return reply
    .header('content-type', f.mime_type)
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', f.file_name))
    .header('content-length', String(f.size))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox")
    .header('cache-control', 'no-store')
    .send(stream);
}

const errors = {
  '400': { description: 'Bad id, field, file type or content (a renamed file): {error, code}' },
  '401': { description: 'Not signed in' },
  '404': { description: 'No such document in your scope' },
  '503': { description: 'Maintenance mode: only Admins may use the API' },
};

const documentResponse = {
  description: 'The document with its versions',
  content: { 'application/json': { schema: documentDetailSchema } },
};

/** The stored file's detected type: the common ones, and any other. */
const FILE_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
  'text/csv',
  '*/*',
];
const binary = (description: string) => ({
  description,
  content: Object.fromEntries(FILE_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
});

const uploadErrors = {
  ...errors,
  '400': {
    description:
      'Bad id, field, file type or content (a renamed file); a CE certificate PDF of more than 50 pages or image of more than 50 megapixels: {error, code}',
  },
  '403': { description: 'A School user' },
  '413': {
    description:
      'Larger than settings.max_file_size_mb (a declared Content-Length over it: before the body is read); the connection is closed',
  },
  '415': { description: 'Not multipart/form-data' },
};

export const documentsFileRoutes: FileRoutes = {
  register(api, deps) {
    // A scope of its own, so the multipart parser exists only for these routes.
    void api.register(async (scope) => {
      await registerMultipart(scope, { fields: 10, fieldSize: 1024, parts: 12 });
      scope.post('/documents', (req, reply) => upload(deps, req, reply));
      scope.post<{ Params: { id: string } }>('/documents/:id/versions', (req, reply) => uploadVersion(deps, req, reply));
    });
    api.get<{ Params: { id: string }; Querystring: { inline?: string } }>('/documents/:id/download', (req, reply) =>
      download(deps, req, reply),
    );
    api.get<{ Params: { id: string; version: string }; Querystring: { inline?: string } }>(
      '/documents/:id/versions/:version/download',
      (req, reply) => download(deps, req, reply),
    );
    api.get<{ Params: { id: string } }>('/licenses/:id/audit-pack', (req, reply) => sendAuditPack(deps, req, reply));
  },
  access: {
    'POST /documents': 'documents.upload',
    'POST /documents/{id}/versions': 'documents.upload',
    'GET /documents/{id}/download': 'documents.read',
    'GET /documents/{id}/versions/{version}/download': 'documents.read',
    'GET /licenses/{id}/audit-pack': 'licenses.read',
  },
  paths: {
    '/documents': {
      post: {
        tags: ['documents'],
        summary: 'Upload a document (multipart: file, category, license_id?, completion_id?, owner_id?)',
        description:
          'The file must be at most settings.max_file_size_mb, of a type in settings.allowed_file_types, and its content must match its extension. owner_id defaults to the caller; an Admin may upload for anyone, a Broker for the people of its brokerage, an Agent only for itself. The license and the completion must be the owner’s own. A CE certificate is read in the background (extraction_status pending).',
        security: [{ Authorization: [] }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file', 'category'],
                properties: {
                  file: { type: 'string', format: 'binary' },
                  category: { type: 'string', enum: Object.keys(DOCUMENT_CATEGORY_LABELS) },
                  license_id: { type: 'integer' },
                  completion_id: { type: 'integer' },
                  owner_id: { type: 'integer' },
                },
              },
            },
          },
        },
        responses: { '201': documentResponse, ...uploadErrors },
      },
    },
    '/documents/{id}/versions': {
      post: {
        tags: ['documents'],
        summary: 'Upload a new version of a document (multipart: file); older versions stay downloadable',
        security: [{ Authorization: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
            },
          },
        },
        responses: { '201': documentResponse, ...uploadErrors },
      },
    },
    '/documents/{id}/download': {
      get: {
        tags: ['documents'],
        summary: 'Download the current version under its original file name (?inline=1: inline, for images and PDF)',
        security: [{ Authorization: [] }],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'inline', in: 'query', required: false, schema: { type: 'string', enum: ['1'] } },
        ],
        responses: { '200': binary('The file, with its detected content type'), ...errors },
      },
    },
    '/documents/{id}/versions/{version}/download': {
      get: {
        tags: ['documents'],
        summary: 'Download one version under its original file name (?inline=1: inline, for images and PDF)',
        security: [{ Authorization: [] }],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'version', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'inline', in: 'query', required: false, schema: { type: 'string', enum: ['1'] } },
        ],
        responses: { '200': binary('The file, with its detected content type'), ...errors },
      },
    },
    ...auditPackPaths,
  },
};

/** GET /api/documents/export: the Documents screen's filtered, sorted view as CSV. */
export const documentsExport = listExports({
  path: '/documents/export',
  name: 'documents',
  action: 'documents.read',
  query: documentListQuery,
  page: async (ctx, q: DocumentListQuery, cursor, limit) => {
    const p = await documents.pageDocuments(ctx, { ...q, cursor, limit });
    return chunkOf(p.documents, p);
  },
  rows: 'One row per document in your scope matching the filters of GET /documents (owner_id, category, license_id, completion_id, search), in its sort and order',
  parameters: [
    ...['owner_id', 'category', 'license_id', 'completion_id', 'search'].map((name) => ({ name })),
    { name: 'sort', schema: { type: 'string', enum: [...DOCUMENT_SORT_COLUMNS] } },
    { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
  ],
  columns: [
    { header: 'Document ID', value: (d: DocumentItem) => d.document_id },
    { header: 'Title', value: (d: DocumentItem) => d.title },
    { header: 'Category', value: (d: DocumentItem) => DOCUMENT_CATEGORY_LABELS[d.category] },
    { header: 'Owner', value: (d: DocumentItem) => d.owner_name },
    { header: 'License Number', value: (d: DocumentItem) => d.license_number },
    { header: 'Course', value: (d: DocumentItem) => d.completion_course_name },
    { header: 'Version', value: (d: DocumentItem) => d.current_version },
    { header: 'File Name', value: (d: DocumentItem) => d.file_name },
    { header: 'Type', value: (d: DocumentItem) => d.mime_type },
    { header: 'Size', value: (d: DocumentItem) => formatBytes(d.size) },
    { header: 'Uploaded By', value: (d: DocumentItem) => d.uploaded_by_name },
    { header: 'Created', value: (d: DocumentItem) => d.created_at },
  ],
});
