/**
 * The two backup routes the REST adapter cannot serve, as plain Fastify routes with the same checks
 * (authenticate(): session, maintenance, Admin role):
 *   GET  /api/admin/backups/{id}/download  the zip, as an attachment named backup_{id}.zip
 *   POST /api/admin/backups/upload          multipart/form-data: a backup zip (field "file") is validated
 *        and imported as a new completed backup of type 'uploaded'; with restore=true and include_*
 *        flags it is then restored exactly like POST /api/admin/backups/{id}/restore.
 * Uploads are streamed to a temporary file under $DATA_DIR/backups/.work (never held in memory) and limited to
 * BACKUP_UPLOAD_LIMIT_MB (config.ts, default 8 GB; not Settings › File Uploads, which is for documents and imports):
 * a declared size over it answers 413 before the body is read, a chunked body at the first byte over it; nothing is
 * kept. A backup larger still is restored from a file on the server (restore-cli.ts, `npm run db:restore`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import {
  BACKUP_SORT_COLUMNS,
  BACKUP_STRINGS,
  BACKUP_TYPE_LABELS,
  backupFileName,
  backupPageQuery,
  backupUploadTooLarge,
  can,
  formatBytes,
  type Backup,
  type BackupPageQuery,
  chosenGroups,
  idParam,
  restoreFlagsSchema,
  uploadResultSchema,
  type UploadResult,
} from '@lm/shared';
import type { FileRoutes } from '../../http/file-routes.ts';
import { authenticate } from '../../http/authenticate.ts';
import { AppError, badRequest, forbidden } from '../../base/errors.ts';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { refuseDeclaredSize, registerMultipart } from '../../http/upload-limit.ts';
import * as backups from './backups.service.ts';

const uploadFields = z.object({
  description: z.string().trim().max(500, 'Description must be at most 500 characters').optional(),
  restore: z.stringbool().optional().default(false),
  include_users: z.stringbool().optional(),
  include_licenses: z.stringbool().optional(),
  include_courses: z.stringbool().optional(),
  include_payments: z.stringbool().optional(),
  include_documents: z.stringbool().optional(),
  include_brokerages: z.stringbool().optional(),
  include_settings: z.stringbool().optional(),
});

const errorResponses = {
  '400': { description: 'Not a valid License Manager backup, or bad fields: {error, code}' },
  '401': { description: 'Not signed in' },
  '403': { description: 'Not an Admin' },
  '404': { description: 'No such backup, or its file is gone' },
  '409': { description: 'The backup is not completed, is from a newer version, or the chosen groups would break links' },
};

export const backupsFileRoutes: FileRoutes = {
  register(api, deps) {
    // A scope of its own, so the multipart parser exists only for these routes.
    void api.register(async (scope) => {
      await registerMultipart(scope, { fields: 20, fieldSize: 4096, parts: 25 });

      scope.get<{ Params: { id: string } }>('/admin/backups/:id/download', async (req, reply) => {
        const ctx = await authenticate(deps, req, 'backups.read');
        const id = idParam.safeParse(req.params.id);
        if (!id.success) throw badRequest('Backup id must be a positive whole number');
        const file = await backups.zipPathOf(ctx, id.data);
        await backups.auditDownload(ctx, id.data);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${backupFileName(id.data)}"`)
          .header('content-length', String(fs.statSync(file).size))
          .header('cache-control', 'no-store')
          .send(fs.createReadStream(file));
      });

      scope.post('/admin/backups/upload', async (req): Promise<UploadResult> => {
        const ctx = await authenticate(deps, req, 'backups.upload');
        if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the backup as multipart/form-data with a "file" field');
        // docs/security.md "Certificates and uploads": a declared size over the limit is refused before the body is read.
        const limitBytes = deps.config.backupUploadLimitMb * 1024 * 1024;
        const tooLarge = backupUploadTooLarge(deps.config.backupUploadLimitMb);
        refuseDeclaredSize(req, limitBytes, tooLarge);
        const work = backups.workDir(ctx);
        fs.mkdirSync(work, { recursive: true });
        const raw: Record<string, string> = {};
        let saved: string | null = null;
        try {
          try {
            for await (const part of req.parts({ limits: { fileSize: limitBytes, files: 1 } })) {
              if (part.type === 'file') {
                if (part.fieldname !== 'file' || saved) {
                  part.file.resume();
                  continue;
                }
                // At the first byte over the limit the part is cut, not read on to its end (docs/security.md "Certificates and uploads").
                part.file.once('limit', () => part.file.destroy(new AppError('PAYLOAD_TOO_LARGE', tooLarge)));
                saved = path.join(work, `upload_${crypto.randomBytes(6).toString('hex')}.zip`);
                await pipeline(part.file, fs.createWriteStream(saved));
              } else {
                raw[part.fieldname] = String(part.value);
              }
            }
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
              throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
            }
            if (err instanceof AppError) throw err;
            throw badRequest('The upload could not be read; send multipart/form-data with the backup in a "file" field');
          }
          if (!saved) throw badRequest('Choose a backup file (.zip) to upload');
          const fields = uploadFields.safeParse(raw);
          if (!fields.success) throw badRequest(fields.error.issues[0]?.message ?? 'The request is not valid');
          const { description, restore, ...flagFields } = fields.data;
          // Restoring what was uploaded is the restore action's (the route itself is the upload's).
          if (restore && !can(ctx.user, 'backups.restore')) throw forbidden();
          const flags = restoreFlagsSchema.parse(flagFields);
          if (restore && chosenGroups(flags).length === 0) throw badRequest(BACKUP_STRINGS.noGroup);

          const backup = await backups.importUpload(ctx, saved, description);
          saved = null; // moved into $DATA_DIR/backups
          if (!restore) return uploadResultSchema.parse(backup);
          const result = await backups.restore(ctx, backup.id, flags, 'upload');
          return uploadResultSchema.parse({ ...(await backups.getBackup(ctx, backup.id)), restore: result });
        } finally {
          if (saved) fs.rmSync(saved, { force: true });
        }
      });
    });
  },
  access: {
    'GET /admin/backups/{id}/download': 'backups.read',
    'POST /admin/backups/upload': 'backups.upload',
  },
  paths: {
    '/admin/backups/{id}/download': {
      get: {
        tags: ['backups'],
        summary: 'Download a completed backup as backup_{id}.zip',
        security: [{ Authorization: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'The backup zip: database.sqlite, manifest.json and, with include_files, files/',
            content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses,
        },
      },
    },
    '/admin/backups/upload': {
      post: {
        tags: ['backups'],
        summary: 'Upload a backup zip: import it as a new backup, and optionally restore it (restore=true with include_* flags)',
        security: [{ Authorization: [] }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: { type: 'string', format: 'binary', description: 'A backup_{id}.zip made by License Manager' },
                  description: { type: 'string' },
                  restore: { type: 'boolean', default: false },
                  include_users: { type: 'boolean' },
                  include_licenses: { type: 'boolean' },
                  include_courses: { type: 'boolean' },
                  include_payments: { type: 'boolean' },
                  include_documents: { type: 'boolean' },
                  include_brokerages: { type: 'boolean' },
                  include_settings: { type: 'boolean' },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'The imported backup, with `restore` (the restore result) when restore=true',
            content: { 'application/json': { schema: uploadResultSchema } },
          },
          ...errorResponses,
          '413': { description: "Larger than the server's backup upload limit (BACKUP_UPLOAD_LIMIT_MB, default 8192 MB)" },
          '415': { description: 'Not multipart/form-data' },
        },
      },
    },
  },
};

/** GET /api/admin/backups/export: the backups list (its filters and sort) as CSV; the rows, not the zips. */
export const backupsExport = listExports({
  path: '/admin/backups/export',
  name: 'backups',
  action: 'backups.read',
  query: backupPageQuery,
  page: async (ctx, q: BackupPageQuery, cursor, limit) => {
    const p = await backups.page(ctx, { ...q, cursor, limit });
    return chunkOf(p.backups, p);
  },
  rows: 'One row per backup matching the filters of GET /admin/backups/page (search, status, type), in its sort and order (default newest first); the list, not the backup files',
  parameters: [
    ...['search', 'status', 'type'].map((name) => ({ name })),
    { name: 'sort', schema: { type: 'string', enum: [...BACKUP_SORT_COLUMNS] } },
    { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
  ],
  columns: [
    { header: 'ID', value: (b: Backup) => b.id },
    { header: 'Description', value: (b: Backup) => b.description },
    { header: 'Created By', value: (b: Backup) => b.created_by_name },
    { header: 'Created', value: (b: Backup) => b.created_at },
    { header: 'Completed', value: (b: Backup) => b.completed_at },
    { header: 'Size (bytes)', value: (b: Backup) => b.size },
    { header: 'Size', value: (b: Backup) => formatBytes(b.size) },
    { header: 'Status', value: (b: Backup) => b.status },
    { header: 'Type', value: (b: Backup) => BACKUP_TYPE_LABELS[b.type] },
    { header: 'Includes Files', value: (b: Backup) => (b.include_files ? 'Yes' : 'No') },
    { header: 'File', value: (b: Backup) => (b.status === 'completed' ? backupFileName(b.id) : '') },
    { header: 'Error', value: (b: Backup) => b.error },
  ],
});
