/**
 * readCertificate: the text of an uploaded certificate (a PDF's text layer, else OCR) and the fields read
 * from it (docs/ocr.md). Pure: bytes in, reading out; nothing is stored here.
 */
import { getDocumentProxy } from 'unpdf';
import { EXTRACTION_MESSAGES } from '@lm/shared';
import { AppError, badRequest } from '../../../base/errors.ts';
import { ocrImage } from './ocr.ts';
import { readScannedPdf } from './pdf-image.ts';
import { CELL_SEPARATOR, parseCertificate, type TextCell, type TextLine } from './parse.ts';
import { unspace } from './parse-text.ts';
import type { CertificateReading } from './reading.ts';

export type { CertificateReading } from './reading.ts';
import { checkCertificate, checkPageCount, MAX_CERTIFICATE_PAGES } from './limits.ts';

/** Thrown inside pdfLines so the caller's "unreadable" mapping lets it through. */
class PageLimitError extends Error {
  constructor(readonly pages: number) {
    super('too many pages');
  }
}

const MAX_TEXT = 4000;
/** The reader looks at the first pages only; a cover sheet among them is skipped by the parser (parse.ts). */
const MAX_PAGES = 3;

interface PdfItem {
  str: string;
  hasEOL?: boolean;
  /** [a, b, c, d, x, y]: x at 4, the baseline's y at 5, the font size from the matrix. */
  transform?: number[];
  width?: number;
}

interface Placed {
  text: string;
  x: number;
  y: number;
  /** The font size (the text matrix's vertical scale). */
  size: number;
  width: number;
  /** A whitespace item: the gap it spans is a word space, however wide (justified text). */
  blank: boolean;
}

/** A gap wider than this many font sizes ends a word; the text is joined without a space below it. */
const SPACE_GAP = 0.18;
/** A gap wider than this many font sizes splits a line into cells (two columns, a table's cells). */
const CELL_GAP = 1.9;
/** A gap the PDF fills with a space character splits cells only when wider than this (justified text stretches spaces). */
const SPACED_CELL_GAP = 3.2;
/** Items whose baselines differ by less than this many font sizes are one line. */
const BASELINE_TOLERANCE = 0.45;

/** The line a placed item belongs to: its baseline, or a superscript ("3" "rd") or subscript beside a larger font. */
function sameLine(row: Placed[], p: Placed): boolean {
  const head = row[0]!;
  if (Math.abs(head.y - p.y) <= BASELINE_TOLERANCE * Math.min(head.size, p.size)) return true;
  const big = head.size >= p.size ? head : p;
  const small = big === head ? p : head;
  return small.size < 0.9 * big.size && small.y - big.y > -0.25 * big.size && small.y - big.y < 0.5 * big.size;
}

/**
 * One page's text items as lines, joined as the page lays them out (docs/ocr.md "Text"): items on one baseline
 * (within a tolerance) make a line, ordered by x; a space only where the gap between two items is wider than a
 * fraction of the font size (PDFs printed by Chromium or a word processor split words at ligatures: "Paci" "fi"
 * "c"); a gap of about two font sizes or more splits the line into cells. Ligature glyphs are unfolded (NFKC).
 */
export function layoutLines(items: PdfItem[], page: number): TextLine[] {
  const placed: Placed[] = [];
  for (const item of items) {
    if (typeof item.str !== 'string' || !item.str || !item.transform) continue;
    const [a = 1, b = 0, c = 0, d = 1, x = 0, y = 0] = item.transform;
    const size = Math.max(1, Math.hypot(c, d) || Math.hypot(a, b));
    const text = unspace(item.str.normalize('NFKC'));
    const width = item.width ?? 0;
    if (!text.trim()) {
      placed.push({ text: '', x, y, size, width, blank: true });
      continue;
    }
    // Leading and trailing blanks inside an item move its visible start and end.
    const lead = text.length - text.trimStart().length;
    const trail = text.length - text.trimEnd().length;
    const perChar = text.length ? width / text.length : 0;
    placed.push({ text: text.trim(), x: x + lead * perChar, y, size, width: Math.max(0, width - (lead + trail) * perChar), blank: false });
  }
  // Top of the page first; items of one baseline grouped (the larger font first, so a superscript joins its line).
  placed.sort((p, q) => q.size - p.size || q.y - p.y || p.x - q.x);
  const rows: Placed[][] = [];
  for (const p of placed) {
    const row = rows.find((r) => sameLine(r, p));
    if (row) row.push(p);
    else rows.push([p]);
  }
  rows.sort((r, s) => s[0]!.y - r[0]!.y);
  const lines: TextLine[] = [];
  for (const row of rows) {
    row.sort((p, q) => p.x - q.x);
    const cells: TextCell[] = [];
    let cell: TextCell | null = null;
    let end = 0;
    let size = 0;
    let bridged = false;
    for (const p of row) {
      if (p.blank) {
        bridged = true;
        continue;
      }
      const gap = p.x - end;
      const em = Math.max(size, p.size);
      if (!cell || gap > (bridged ? SPACED_CELL_GAP : CELL_GAP) * em) {
        cell = { text: p.text, x: p.x };
        cells.push(cell);
      } else {
        // Items that touch are one word (a ligature split it), unless a lower-case letter meets a capital or a digit
        // meets a digit: two columns' words printed edge to edge ("Hours" "Completed", "3.0" "09/03/2026").
        const edge = /[a-z]$/.test(cell.text) ? /^[A-Z]/.test(p.text) : /\d$/.test(cell.text) && /^\d/.test(p.text);
        cell.text += (gap > SPACE_GAP * em || bridged || edge ? ' ' : '') + p.text;
      }
      end = Math.max(end, p.x + (p.width || p.text.length * p.size * 0.5));
      size = p.size;
      bridged = false;
    }
    if (!cells.length) continue;
    const real = row.filter((p) => !p.blank);
    lines.push({
      text: cells.map((c) => c.text).join(CELL_SEPARATOR),
      confidence: 1,
      x: cells[0]!.x,
      y: real[0]!.y,
      height: Math.max(...real.map((p) => p.size)),
      page,
      cells: cells.length > 1 ? cells : undefined,
    });
  }
  return lines;
}

/** The PDF's text layer as lines, at most the first pages. */
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
    lines.push(...layoutLines(content.items as PdfItem[], p));
  }
  return { lines, pdf };
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
    try {
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
        // A scan: each of the first pages carrying one is read by OCR, its lines marked with their page, so the
        // parser passes over a fax cover before the certificate (pdf-image.ts).
        const ocr = await readScannedPdf(read.pdf).catch((err: unknown) => {
          if (err instanceof AppError) throw err; // an image over the pixel limit, a blank page
          return null;
        });
        if (!ocr) throw badRequest(EXTRACTION_MESSAGES.noTextLayer);
        ({ lines, text } = ocr);
        source = 'ocr';
        textConfidence = ocr.confidence;
      }
    } finally {
      await read.pdf.destroy();
    }
  } else if (mime === 'image/png' || mime === 'image/jpeg') {
    const ocr = await ocrImage(bytes);
    ({ lines, text } = ocr);
    source = 'ocr';
    textConfidence = ocr.confidence;
  } else {
    throw badRequest(EXTRACTION_MESSAGES.unsupported);
  }
  return {
    ...parseCertificate(lines),
    source,
    text_confidence: Math.round(Math.max(0, Math.min(1, textConfidence)) * 100) / 100,
    text: text.trim().slice(0, MAX_TEXT),
    duration_ms: Math.round(performance.now() - started),
  };
}
