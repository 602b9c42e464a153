/**
 * What an uploaded file really is (docs/decisions.md "Documents"): its extension must be in
 * settings.allowed_file_types, and its content must be what the extension says, read from the bytes with
 * file-type (a renamed executable, or a ".pdf" that is really HTML, is refused). Plain-text types that have no
 * signature (txt, csv) are accepted only as valid UTF-8 without NUL bytes. The inspector watches the bytes as
 * they stream into the file store, so the file is never whole in memory.
 */
import path from 'node:path';
import { Transform } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { badRequest } from '../../base/errors.ts';

/** Bytes file-type needs to recognise a format. */
const HEAD_BYTES = 4100;

/** Extensions without a signature: text. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
};

/** What file-type may report for an extension (its own `ext` values) and the type stored when it does. */
const EXPECTED: Record<string, { detected: string[]; mime?: string }> = {
  pdf: { detected: ['pdf'] },
  png: { detected: ['png'] },
  jpg: { detected: ['jpg'] },
  jpeg: { detected: ['jpg'] },
  gif: { detected: ['gif'] },
  webp: { detected: ['webp'] },
  tif: { detected: ['tif'] },
  tiff: { detected: ['tif'] },
  heic: { detected: ['heic'] },
  // Office Open XML files are zips; from the first bytes file-type may only see the zip.
  docx: { detected: ['docx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { detected: ['xlsx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { detected: ['pptx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  // Older Office files are OLE compound files.
  doc: { detected: ['cfb'], mime: 'application/msword' },
  xls: { detected: ['cfb'], mime: 'application/vnd.ms-excel' },
  ppt: { detected: ['cfb'], mime: 'application/vnd.ms-powerpoint' },
  odt: { detected: ['odt', 'zip'] },
  ods: { detected: ['ods', 'zip'] },
  zip: { detected: ['zip'] },
};

export const extensionOf = (fileName: string) => path.extname(fileName).slice(1).toLowerCase();

/** The allowed extensions of settings.allowed_file_types ("pdf, .docx,PNG" → pdf, docx, png). */
export function allowedTypes(setting: string): string[] {
  return setting
    .split(',')
    .map((t) => t.trim().replace(/^\./, '').toLowerCase())
    .filter(Boolean);
}

/** 400 when the name's extension is not allowed (checked before the bytes are read). */
export function checkExtension(fileName: string, setting: string): string {
  const ext = extensionOf(fileName);
  const allowed = allowedTypes(setting);
  if (!ext || !allowed.includes(ext)) {
    throw badRequest(
      `${ext ? `.${ext} files are` : 'Files without an extension are'} not accepted. Allowed file types: ${allowed.join(', ')} (Settings › File Uploads)`,
    );
  }
  return ext;
}

/** Watches a stream: keeps its first bytes and whether it is UTF-8 text without NUL bytes. */
export function inspector() {
  let head = Buffer.alloc(0);
  let text = true;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      if (text) {
        if (chunk.includes(0)) text = false;
        else {
          try {
            decoder.decode(chunk, { stream: true });
          } catch {
            text = false;
          }
        }
      }
      cb(null, chunk);
    },
    flush(cb) {
      if (text) {
        try {
          decoder.decode();
        } catch {
          text = false;
        }
      }
      cb();
    },
  });
  return { stream, head: () => head, isText: () => text };
}

/**
 * The content type of an uploaded file whose bytes were inspected, or 400 with a message a person
 * understands when the content is not what the extension says.
 */
export async function detectedType(fileName: string, ext: string, head: Buffer, isText: boolean): Promise<string> {
  const found = head.length ? await fileTypeFromBuffer(head) : undefined;
  const upper = ext.toUpperCase();
  const text = TEXT_TYPES[ext];
  if (text) {
    if (found || !isText)
      throw badRequest(`${fileName} is not a plain text file${found ? ` (its content is ${found.ext.toUpperCase()})` : ''}`);
    return text;
  }
  if (!found) {
    const looksHtml = isText && /^\s*(<!doctype html|<html|<head|<body|<script|<\?xml|<svg)/i.test(head.toString('utf8'));
    throw badRequest(
      `${fileName} is not a real ${upper} file: its content ${looksHtml ? 'is HTML or XML' : isText ? 'is plain text' : 'was not recognised'}`,
    );
  }
  const expected = EXPECTED[ext] ?? { detected: [ext] };
  if (!expected.detected.includes(found.ext)) {
    throw badRequest(`${fileName} is not a real ${upper} file: its content is ${found.ext.toUpperCase()} (${found.mime})`);
  }
  return found.ext === 'zip' || found.ext === 'cfb' ? (expected.mime ?? found.mime) : found.mime;
}

/** A browser-supplied name made safe to keep and to send back: no folders, no control characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(-200);
  return cleaned || 'file';
}

/** Content-Disposition with the original name (RFC 6266 / RFC 5987: an ASCII fallback and filename*). */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
