/**
 * Uploads refused early (docs/security.md "Certificates and uploads"): a multipart request whose declared size
 * (Content-Length) is over the file limit plus room for the form's framing and fields answers 413 before its body
 * is read. A body sent without a length (chunked) is cut by the multipart parser's file limit at the first byte
 * over it. Every 413 closes the connection (app.ts), so the rest of a refused body is never read.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../base/errors.ts';

/** Room for the multipart boundaries, part headers and the small text fields beside the file. */
export const MULTIPART_ALLOWANCE = 64 * 1024;

/** Throws 413 `message` when the request declares a body larger than `maxFileBytes` plus MULTIPART_ALLOWANCE. */
export function refuseDeclaredSize(req: FastifyRequest, maxFileBytes: number, message: string): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxFileBytes + MULTIPART_ALLOWANCE) throw new AppError('PAYLOAD_TOO_LARGE', message);
}
