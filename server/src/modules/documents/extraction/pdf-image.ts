/**
 * The scan inside a PDF that has no text layer (docs/ocr.md "Images"): the image painted on a page, as a PNG for
 * the OCR. RGB, RGBA and 1-bit (fax, black-and-white scanner) images are read.
 */
import sharp from 'sharp';
import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf';
import { EXTRACTION_MESSAGES } from '@lm/shared';
import { AppError, badRequest } from '../../../base/errors.ts';
import { checkPixels } from './limits.ts';
import { ocrImage, type OcrResult } from './ocr.ts';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The pages looked at for a scan: a cover sheet (a fax cover, a letter) often comes before the certificate. */
export const SCAN_PAGES = 3;
/** A page's image smaller than this (pixels) is a logo or a signature, not a scan. */
const MIN_SCAN_PIXELS = 200_000;

/** pdf.js's ImageKind (src/shared/util.js): how the decoded pixels of an image are laid out. */
const ImageKind = { GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 3 } as const;

interface PdfImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** The largest image painted on a page (the page's own object store is awaited for each image). */
async function largestImage(pdf: PdfDocument, pageNumber: number): Promise<PdfImage | null> {
  const { OPS } = await getResolvedPDFJS();
  const page = await pdf.getPage(pageNumber);
  const ops = await page.getOperatorList();
  let largest: PdfImage | null = null;
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
    const name = (ops.argsArray[i] as unknown[])[0] as string;
    // (unpdf's extractImages asks for objects before they are resolved, hence the callback form.)
    const image = await new Promise<PdfImage | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      page.objs.get(name, (value: PdfImage) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
    if (image?.data && (!largest || image.width * image.height > largest.width * largest.height)) largest = image;
  }
  return largest && largest.width * largest.height >= MIN_SCAN_PIXELS ? largest : null;
}

/**
 * A 1-bit image as 8-bit grey: pdf.js keeps each row padded to whole bytes, the most significant bit first, a set
 * bit white (it has already applied the image's /Decode array and /ImageMask inversion).
 */
export function unpackOneBit(data: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  const stride = Math.ceil(width / 8);
  // Fewer bytes than the size says: a damaged PDF.
  if (data.length < stride * height) throw badRequest(EXTRACTION_MESSAGES.unreadable);
  const grey = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * width;
    for (let x = 0; x < width; x++) grey[out + x] = data[row + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
  }
  return grey;
}

/** A decoded pdf.js image as a PNG, or null for a layout not handled. */
async function toPng(image: PdfImage): Promise<Buffer | null> {
  const { width, height, data } = image;
  if (image.kind === ImageKind.GRAYSCALE_1BPP) {
    return sharp(unpackOneBit(data, width, height), { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer();
  }
  const channels = image.kind === ImageKind.RGBA_32BPP ? 4 : image.kind === ImageKind.RGB_24BPP ? 3 : 0;
  if (!channels) return null;
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels } })
    .png()
    .toBuffer();
}

/**
 * A scanned PDF's certificate page (docs/ocr.md "Images"): among its first SCAN_PAGES pages, the largest image
 * painted on a page (a logo or a signature is not a scan); a certificate is scanned whole, a fax cover or a letter
 * before it is often smaller; on a tie the first page wins. Checked against the pixel limit (limits.ts), then
 * returned as a PNG; null when no page carries a scan in a layout handled.
 */
export async function pdfScanImage(pdf: PdfDocument, pages = SCAN_PAGES): Promise<Buffer | null> {
  let best: PdfImage | null = null;
  for (let p = 1; p <= Math.min(pdf.numPages, pages); p++) {
    const image = await largestImage(pdf, p);
    if (!image) continue;
    checkPixels(image.width, image.height);
    if (!best || image.width * image.height > best.width * best.height) best = image;
  }
  return best ? toPng(best) : null;
}

/**
 * A scanned PDF read by OCR (docs/ocr.md "Images"): every page of the first SCAN_PAGES that carries a scan is
 * read, in page order, its lines marked with their page, so a fax cover or a letter before the certificate is
 * text the parser can pass over (as it does a text layer's first pages) rather than the only page read. Blank
 * pages are skipped; when every scanned page is blank the reading is "nothing found". null when no page carries a
 * scan (the PDF is then "no text layer").
 */
export async function readScannedPdf(pdf: PdfDocument, pages = SCAN_PAGES): Promise<OcrResult | null> {
  const readings: Array<{ page: number; ocr: OcrResult }> = [];
  let scans = 0;
  let blank: AppError | null = null;
  for (let p = 1; p <= Math.min(pdf.numPages, pages); p++) {
    const image = await largestImage(pdf, p);
    if (!image) continue;
    checkPixels(image.width, image.height);
    const png = await toPng(image);
    if (!png) continue;
    scans++;
    try {
      readings.push({ page: p, ocr: await ocrImage(png) });
    } catch (err) {
      if (!(err instanceof AppError) || err.message !== EXTRACTION_MESSAGES.nothingFound) throw err;
      blank = err;
    }
  }
  if (!scans) return null;
  if (!readings.length) throw blank ?? badRequest(EXTRACTION_MESSAGES.nothingFound);
  const lines = readings.flatMap(({ page, ocr }) => ocr.lines.map((line) => ({ ...line, page })));
  const chars = readings.map(({ ocr }) => Math.max(1, ocr.text.replace(/\s/g, '').length));
  const total = chars.reduce((a, b) => a + b, 0);
  return {
    lines,
    text: readings.map(({ ocr }) => ocr.text.trim()).join('\n\n'),
    confidence: readings.reduce((sum, { ocr }, i) => sum + ocr.confidence * chars[i]!, 0) / total,
    rotation: readings[0]!.ocr.rotation,
  };
}
