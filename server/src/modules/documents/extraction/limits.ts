/**
 * What a certificate may be before anything reads it (docs/ocr.md "Limits before reading", docs/security.md
 * "Certificates and uploads"): a PDF's page count and an image's pixel count. Checked in the reader's worker
 * thread (reader-worker.ts) when the upload arrives (the upload answers 400 at once) and again before a reading,
 * before pdf.js loads a page or sharp decodes a pixel.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';
import { badRequest } from '../../../base/errors.ts';

/** A certificate PDF may have at most this many pages (the reader looks at the first three). */
export const MAX_CERTIFICATE_PAGES = 50;
/** A certificate image may have at most this many pixels (50 MP: a 48 MP phone photo fits, 8,000 × 6,000). */
export const MAX_CERTIFICATE_PIXELS = 50_000_000;
/** One reading may take at most this long; past it the reader's worker is stopped. */
export const READ_TIME_LIMIT_MS = 60_000;
/** The check of an upload may take at most this long. */
export const CHECK_TIME_LIMIT_MS = 10_000;
/** The reader's worker thread: its JavaScript heap (pdf.js) is bounded by this. */
export const READER_HEAP_MB = 384;

const grouped = (n: number) => n.toLocaleString('en-US');

export const LIMIT_MESSAGES = {
  tooManyPages: (pages: number) =>
    `This PDF has ${grouped(pages)} pages; a certificate may have at most ${MAX_CERTIFICATE_PAGES} pages. Upload only the certificate's pages`,
  imageTooLarge: (width: number, height: number) =>
    `This image is ${grouped(width)} × ${grouped(height)} pixels; a certificate image may have at most ${MAX_CERTIFICATE_PIXELS / 1_000_000} megapixels (for example 8,000 × 6,000). Upload a smaller photo or scan`,
  timedOut: (ms: number) => `This certificate could not be read in time (limit ${Math.round(ms / 1000)} s); type the values in yourself`,
  checkTimedOut: 'This certificate could not be checked in time; upload a smaller file',
  tooLargeToRead: 'This certificate needs too much memory to read; upload a smaller file or type the values in yourself',
} as const;

const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/;
const PAGES_NODE = /\/Type\s*\/Pages(?![A-Za-z])/;
const COUNT = /\/Count\s+(\d{1,12})/;
/** The most the object streams may inflate to while counting (they hold only small dictionaries). */
const INFLATE_BUDGET = 64 * 1024 * 1024;

/**
 * The page count a PDF's bytes claim, without pdf.js: the page objects (`/Type /Page`) and the largest `/Count`
 * of a page tree node (`/Type /Pages`), in plain objects and inside object streams (inflated, at most 64 MiB in
 * all; more answers "too much memory"). Content streams are skipped. Runs in the reader's worker thread.
 */
export function pdfPageClaim(bytes: Buffer): number {
  const text = bytes.toString('latin1');
  let pages = 0;
  let largestCount = 0;
  let budget = INFLATE_BUDGET;
  const examine = (body: string) => {
    if (PAGES_NODE.test(body)) largestCount = Math.max(largestCount, Number(COUNT.exec(body)?.[1] ?? 0));
    else if (PAGE_OBJECT.test(body)) pages++;
  };
  const objectStart = /\d+\s+\d+\s+obj\b/g;
  for (let m = objectStart.exec(text); m; m = objectStart.exec(text)) {
    const from = m.index + m[0].length;
    const end = text.indexOf('endobj', from);
    const body = text.slice(from, end < 0 ? text.length : end);
    objectStart.lastIndex = end < 0 ? text.length : end;
    const streamAt = body.search(/\bstream\r?\n/);
    const dict = streamAt < 0 ? body : body.slice(0, streamAt);
    if (streamAt < 0 || !/\/Type\s*\/ObjStm\b/.test(dict)) {
      examine(dict);
      continue;
    }
    const dataStart = body.indexOf('\n', streamAt) + 1;
    const dataEnd = body.lastIndexOf('endstream');
    const raw = Buffer.from(body.slice(dataStart, dataEnd < dataStart ? body.length : dataEnd), 'latin1');
    let inflated: Buffer;
    try {
      inflated = /FlateDecode/.test(dict) ? zlib.inflateSync(raw, { maxOutputLength: Math.max(1, budget) }) : raw;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw badRequest(LIMIT_MESSAGES.tooLargeToRead);
      continue; // a damaged stream: pdf.js decides when reading
    }
    budget -= inflated.length;
    const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const content = inflated.toString('latin1');
    const offsets = content
      .slice(0, first)
      .trim()
      .split(/\s+/)
      .filter((_, i) => i % 2 === 1)
      .map(Number);
    offsets.forEach((o, i) => examine(content.slice(first + o, i + 1 < offsets.length ? first + offsets[i + 1]! : content.length)));
  }
  return Math.max(pages, largestCount);
}

/** 400 when a PDF has more pages than MAX_CERTIFICATE_PAGES. */
export function checkPageCount(pages: number): void {
  if (pages > MAX_CERTIFICATE_PAGES) throw badRequest(LIMIT_MESSAGES.tooManyPages(pages));
}

/** 400 when an image is larger than MAX_CERTIFICATE_PIXELS. */
export function checkPixels(width: number, height: number): void {
  if (width * height > MAX_CERTIFICATE_PIXELS) throw badRequest(LIMIT_MESSAGES.imageTooLarge(width, height));
}

/** An image's width and height from its header, by sharp's metadata() (the header only; nothing is decoded). */
export async function imageSize(bytes: Buffer): Promise<{ width: number; height: number } | null> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
  } catch {
    return null;
  }
}

/**
 * The check of a certificate before it is read: a PDF's claimed page count, an image's pixel count from its
 * header. 400 naming the limit when over it. Runs in the reader's worker thread (reader-worker.ts).
 */
export async function checkCertificate(bytes: Buffer, mime: string): Promise<void> {
  if (mime === 'application/pdf') checkPageCount(pdfPageClaim(bytes));
  else if (mime === 'image/png' || mime === 'image/jpeg') {
    const size = await imageSize(bytes);
    if (size) checkPixels(size.width, size.height);
  }
}
