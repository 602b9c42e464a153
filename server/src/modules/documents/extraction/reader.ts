/**
 * readCertificate: the text of an uploaded certificate (a PDF's text layer, else OCR) and the fields read
 * from it (docs/ocr.md). Pure: bytes in, reading out; nothing is stored here.
 */
import sharp from 'sharp';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { EXTRACTION_MESSAGES, type CertificateExtraction } from '@lm/shared';
import { AppError, badRequest } from '../../../base/errors.ts';
import { ocrImage } from './ocr.ts';
import { parseCertificate, type TextLine } from './parse.ts';
import { checkCertificate, checkPageCount, checkPixels, MAX_CERTIFICATE_PAGES } from './limits.ts';

/** Thrown inside pdfLines so the caller's "unreadable" mapping lets it through. */
class PageLimitError extends Error {
  constructor(readonly pages: number) {
    super('too many pages');
  }
}

export type CertificateReading = Omit<CertificateExtraction, 'suggestion'>;

const MAX_TEXT = 4000;
const MAX_PAGES = 3;

interface PdfItem {
  str: string;
  hasEOL?: boolean;
  transform?: number[];
}

/** The PDF's text layer as lines (items on one baseline joined), at most the first pages. */
async function pdfLines(bytes: Buffer): Promise<{ lines: TextLine[]; pdf: Awaited<ReturnType<typeof getDocumentProxy>> }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  // The page tree's count, before any page is loaded (docs/ocr.md "Limits before reading").
  if (pdf.numPages > MAX_CERTIFICATE_PAGES) {
    await pdf.destroy();
    throw new PageLimitError(pdf.numPages);
  }
  const lines: TextLine[] = [];
  for (let p = 1; p <= Math.min(pdf.numPages, MAX_PAGES); p++) {
    const page = await pdf.getPage(p);
    const content = await page.getTextContent();
    let current = '';
    let lastY: number | null = null;
    for (const item of content.items as PdfItem[]) {
      if (typeof item.str !== 'string') continue;
      const y = item.transform?.[5] ?? null;
      if (lastY !== null && y !== null && Math.abs(y - lastY) > 2 && current.trim()) {
        lines.push({ text: current.trim(), confidence: 1 });
        current = '';
      }
      current += (current && !current.endsWith(' ') && item.str && !item.str.startsWith(' ') ? ' ' : '') + item.str;
      lastY = y;
      if (item.hasEOL && current.trim()) {
        lines.push({ text: current.trim(), confidence: 1 });
        current = '';
        lastY = null;
      }
    }
    if (current.trim()) lines.push({ text: current.trim(), confidence: 1 });
  }
  return { lines, pdf };
}

/**
 * A scanned PDF: the largest image painted on its first page, when it has one, read by OCR. (The page's own
 * object store is awaited for each image: unpdf's extractImages asks for objects before they are resolved.)
 */
async function pdfScanImage(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<Buffer | null> {
  const { OPS } = await getResolvedPDFJS();
  const page = await pdf.getPage(1);
  const ops = await page.getOperatorList();
  let largest: PdfImage | null = null;
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
    const name = (ops.argsArray[i] as unknown[])[0] as string;
    const image = await new Promise<PdfImage | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      page.objs.get(name, (value: PdfImage) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
    if (image?.data && (!largest || image.width * image.height > largest.width * largest.height)) largest = image;
  }
  if (!largest || largest.width * largest.height < 200_000) return null;
  checkPixels(largest.width, largest.height);
  // pdf.js image kinds: 1 one bit per pixel (not handled), 2 RGB, 3 RGBA.
  const channels = largest.kind === 3 ? 4 : largest.kind === 2 ? 3 : 0;
  if (!channels) return null;
  return sharp(Buffer.from(largest.data.buffer, largest.data.byteOffset, largest.data.byteLength), {
    raw: { width: largest.width, height: largest.height, channels },
  })
    .png()
    .toBuffer();
}

interface PdfImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

export async function readCertificate(bytes: Buffer, mime: string): Promise<CertificateReading> {
  const started = performance.now();
  // Page count and pixel count before pdf.js or sharp decodes anything (limits.ts).
  await checkCertificate(bytes, mime);
  let lines: TextLine[];
  let source: CertificateReading['source'];
  let textConfidence: number;
  let text: string;
  if (mime === 'application/pdf') {
    // A damaged or encrypted PDF is the uploader's file, not a server fault: say so, without a stack trace.
    const read = await pdfLines(bytes).catch((err: unknown) => {
      if (err instanceof PageLimitError) checkPageCount(err.pages);
      throw badRequest(EXTRACTION_MESSAGES.unreadable);
    });
    const letters = read.lines
      .map((l) => l.text)
      .join('')
      .replace(/[^A-Za-z]/g, '').length;
    if (letters >= 20) {
      lines = read.lines;
      source = 'text_layer';
      textConfidence = 1;
      text = lines.map((l) => l.text).join('\n');
    } else {
      const image = await pdfScanImage(read.pdf).catch((err: unknown) => {
        if (err instanceof AppError) throw err; // an image over the pixel limit
        return null;
      });
      if (!image) throw badRequest(EXTRACTION_MESSAGES.noTextLayer);
      const ocr = await ocrImage(image);
      ({ lines, text } = ocr);
      source = 'ocr';
      textConfidence = ocr.confidence;
    }
    await read.pdf.destroy();
  } else if (mime === 'image/png' || mime === 'image/jpeg') {
    const ocr = await ocrImage(bytes);
    ({ lines, text } = ocr);
    source = 'ocr';
    textConfidence = ocr.confidence;
  } else {
    throw badRequest(EXTRACTION_MESSAGES.unsupported);
  }
  return {
    source,
    text_confidence: Math.round(Math.max(0, Math.min(1, textConfidence)) * 100) / 100,
    fields: parseCertificate(lines),
    text: text.trim().slice(0, MAX_TEXT),
    duration_ms: Math.round(performance.now() - started),
  };
}
