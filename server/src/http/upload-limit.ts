/**
 * Uploads refused early (docs/security.md "Certificates and uploads"): a multipart request whose declared size
 * (Content-Length) is over the file limit plus room for the form's framing and fields answers 413 before its body
 * is read. A body sent without a length (chunked) is cut by the multipart parser's file limit at the first byte
 * over it. Every 413 closes the connection (app.ts), so the rest of a refused body is never read.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { SETTINGS_RANGES } from '@lm/shared';
import { AppError } from '../base/errors.ts';
import { getSettings } from '../core/settings.ts';
import type { Db } from '../db/client.ts';

const MB = 1024 * 1024;

/** Room for the multipart boundaries, part headers and the small text fields beside the file. */
export const MULTIPART_ALLOWANCE = 64 * 1024;

/** Throws 413 `message` when the request declares a body larger than `maxFileBytes` plus MULTIPART_ALLOWANCE. */
export function refuseDeclaredSize(req: FastifyRequest, maxFileBytes: number, message: string): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxFileBytes + MULTIPART_ALLOWANCE) throw new AppError('PAYLOAD_TOO_LARGE', message);
}

/**
 * The file limit of one upload (Settings › File Uploads, read on every request so a change applies at once) and its
 * 413 message; a declared size over it is refused here, before the body is read.
 */
export async function uploadLimit(db: Db, req: FastifyRequest, what = 'The file'): Promise<{ bytes: number; tooLarge: string }> {
  const limitMb = (await getSettings(db)).max_file_size_mb;
  const tooLarge = `${what} is larger than the upload limit of ${limitMb} MB (Settings › File Uploads)`;
  refuseDeclaredSize(req, limitMb * MB, tooLarge);
  return { bytes: limitMb * MB, tooLarge };
}

/**
 * The multipart parser for a scope of upload routes (documents, imports, backups): one file, at most the largest
 * limit the setting allows (each request is then held to the setting's value by uploadLimit and its parts() limit),
 * and the form fields the routes take.
 */
export async function registerMultipart(
  scope: FastifyInstance,
  fields: { fields: number; fieldSize: number; parts: number },
): Promise<void> {
  await scope.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: SETTINGS_RANGES.max_file_size_mb.max * MB, files: 1, ...fields },
  });
}
