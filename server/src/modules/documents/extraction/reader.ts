/**
 * readCertificate: the text of an uploaded certificate (a PDF's text layer, else OCR) and the fields read
 * from it (docs/ocr.md). Pure: bytes in, reading out; nothing is stored here.
 */
import sharp from 'sharp';
import { extractImages, getDocumentProxy } from 'unpdf';
import { EXTRACTION_MESSAGES, type CertificateExtraction } from '@lm/shared';
import { badRequest } from '../../../core/errors.ts';
import { ocrImage } from './ocr.ts';
import { parseCertificate, type TextLine } from './parse.ts';

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

/** A scanned PDF: the largest image of its first page, when it has one, read by OCR. */
async function pdfScanImage(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<Buffer | null> {
  const images = await extractImages(pdf, 1);
  const largest = images.sort((a, b) => b.width * b.height - a.width * a.height)[0];
  if (!largest || largest.width * largest.height < 200_000) return null;
  return sharp(Buffer.from(largest.data), { raw: { width: largest.width, height: largest.height, channels: largest.channels } })
    .png()
    .toBuffer();
}

export async function readCertificate(bytes: Buffer, mime: string): Promise<CertificateReading> {
  const started = performance.now();
  let lines: TextLine[];
  let source: CertificateReading['source'];
  let textConfidence: number;
  let text: string;
  if (mime === 'application/pdf') {
    const read = await pdfLines(bytes);
    const letters = read.lines.map((l) => l.text).join('').replace(/[^A-Za-z]/g, '').length;
    if (letters >= 20) {
      lines = read.lines;
      source = 'text_layer';
      textConfidence = 1;
      text = lines.map((l) => l.text).join('\n');
    } else {
      const image = await pdfScanImage(read.pdf).catch(() => null);
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
