/**
 * Certificate images (docs/ocr.md "Images"): photos read the right way up whatever their turn, a skewed scan
 * straightened, a blank scanned page refused as "nothing found" before any OCR, 1-bit scans inside PDFs read, and
 * the certificate page of a scanned PDF with a cover sheet. The images are made here from the committed scan
 * fixture (server/test/fixtures/certificates/certificate-scan.png, whose text is known). No database: the
 * PostgreSQL pass leaves this file out (vitest.config.ts ENGINE_FREE); the REST reading of a blank page is
 * extraction-blank.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import { EXTRACTION_MESSAGES } from '@lm/shared';
import { ocrImage, stopOcr } from '../src/modules/documents/extraction/ocr.ts';
import { pdfScanImage, readScannedPdf, unpackOneBit } from '../src/modules/documents/extraction/pdf-image.ts';
import { readCertificate } from '../src/modules/documents/extraction/index.ts';
import { blankScan } from './scans.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'certificates');
const scanPng = fs.readFileSync(path.join(FIXTURES, 'certificate-scan.png'));

/** Lines the scan fixture prints (its layout 1), as the OCR must find them. */
const SCAN_TEXT = [/LONE STAR REAL ESTATE SCHOOL/i, /Licensee: Carlos Rivera/i, /Contract Law Update 2026/i, /TX-778812/, /02\/14\/2026/];

function expectScanText(text: string) {
  for (const line of SCAN_TEXT) expect(text).toMatch(line);
}

/** The fixture as a phone photo: on a darker table, turned by `angle` degrees, JPEG-compressed. */
async function photo(angle: number): Promise<Buffer> {
  const onTable = await sharp(scanPng).extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#7d756a' }).png().toBuffer();
  return sharp(onTable).rotate(angle, { background: '#7d756a' }).jpeg({ quality: 70 }).toBuffer();
}

/** A PDF whose pages each paint one PNG over the whole page (a scanner's PDF: no text layer). */
async function scannedPdf(...pngs: Buffer[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const png of pngs) {
    const image = await doc.embedPng(png);
    const page = doc.addPage([792, 612]);
    page.drawImage(image, { x: 0, y: 0, width: 792, height: 612 });
  }
  return Buffer.from(await doc.save());
}

/** A PDF painting a 1-bit DeviceGray image (rows padded to bytes, 1 = white), as fax and office scanners write. */
async function oneBitPdf(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png).greyscale().threshold(140).raw().toBuffer({ resolveWithObject: true });
  const stride = Math.ceil(info.width / 8);
  const packed = Buffer.alloc(stride * info.height);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) if (data[y * info.width + x]! > 127) packed[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  const doc = await PDFDocument.create();
  const page = doc.addPage([792, 612]);
  // flateStream deflates the packed rows and names the filter.
  const image = doc.context.flateStream(packed, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: info.width,
    Height: info.height,
    BitsPerComponent: 1,
    ColorSpace: 'DeviceGray',
  });
  const name = page.node.newXObject('Scan', doc.context.register(image));
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(792, 0, 0, 612, 0, 0), drawObject(name), popGraphicsState());
  return Buffer.from(await doc.save());
}

// Each OCR test takes a few seconds of CPU (more on a machine busy with other suites): 60 s per test.
afterAll(() => stopOcr());

describe('photos are read the right way up', { timeout: 60_000 }, () => {
  it('an upright photo is read upright (not turned a quarter)', async () => {
    const read = await ocrImage(await photo(2));
    expectScanText(read.text);
    expect([0, 90, 180, 270].find((q) => Math.abs(((read.rotation - q + 540) % 360) - 180) <= 10)).toBe(0);
    for (const line of read.lines) {
      expect(line.confidence).toBeGreaterThanOrEqual(0);
      expect(line.confidence).toBeLessThanOrEqual(1);
    }
    expect(read.confidence).toBeGreaterThan(0.7);
  });

  it.each([
    ['02-tx-form-photo.jpg', 'Legal Update II'],
    ['46-fl-topics-photo.jpg', 'Florida Core Law'],
    ['50-transcript-photo.jpg', 'Contract Law Update 2026'],
  ])(
    'an upright phone photo of the realistic set (%s, which the line profile alone read sideways) is read upright',
    async (file, course) => {
      // test-data/certificates/ (docs/ocr.md "Accuracy"): photos at 100-150 dpi with perspective, light and JPEG.
      const read = await ocrImage(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'test-data', 'certificates', file)));
      // Within a few degrees of upright (the photo's own tilt), not a quarter turn.
      expect(Math.abs(((read.rotation + 180) % 360) - 180)).toBeLessThanOrEqual(10);
      expect(read.text.replace(/\s+/g, ' ')).toContain(course);
    },
  );

  it.each([90, 180, 270])('a photo turned %i° is turned back and read', async (angle) => {
    const read = await ocrImage(await photo(angle));
    expectScanText(read.text);
    // The image was turned clockwise by `angle`; reading it needs the rest of the circle.
    expect(Math.abs(((read.rotation - (360 - angle) + 540) % 360) - 180)).toBeLessThanOrEqual(10);
  });

  it('a scan skewed 9° is straightened and read', async () => {
    const skewed = await sharp(scanPng).rotate(9, { background: '#ffffff' }).png().toBuffer();
    const read = await ocrImage(skewed);
    expectScanText(read.text);
    expect(Math.abs(((read.rotation + 9 + 540) % 360) - 180)).toBeLessThanOrEqual(1.5);
  });
});

describe('a blank page is "nothing found" before any OCR', { timeout: 60_000 }, () => {
  it('a faint scan (contrast 0.2) and a speckled one are pages, not blanks, and are read', async () => {
    const faint = await sharp(scanPng)
      .linear(0.2, 128 * 0.8)
      .png()
      .toBuffer();
    expectScanText((await ocrImage(faint)).text);
    // 8 % salt and pepper: a dirty scanner glass.
    const { data, info } = await sharp(scanPng).greyscale().resize(1800).raw().toBuffer({ resolveWithObject: true });
    let seed = 11;
    for (let i = 0; i < data.length; i++) if ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff < 0.08) data[i] = 20;
    const speckled = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png()
      .toBuffer();
    expectScanText((await ocrImage(speckled)).text);
  });

  it('a blank scanned PNG', async () => {
    const started = performance.now();
    await expect(ocrImage(await blankScan())).rejects.toThrow(EXTRACTION_MESSAGES.nothingFound);
    console.log(`blank scanned PNG refused in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  });

  it('a blank page inside a scanned PDF', async () => {
    await expect(readCertificate(await scannedPdf(await blankScan()), 'application/pdf')).rejects.toThrow(EXTRACTION_MESSAGES.nothingFound);
  });
});

describe('scanned PDFs', { timeout: 60_000 }, () => {
  it('1-bit pixels unpack row by row, padded to whole bytes, a set bit white', () => {
    // 10 px wide: two bytes a row; row 0 = 1000000001, row 1 = 0111111110.
    const grey = unpackOneBit(Uint8Array.from([0b10000000, 0b01000000, 0b01111111, 0b10000000]), 10, 2);
    expect([...grey]).toEqual([255, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0]);
  });

  it('a 1-bit scanned PDF is read', async () => {
    const reading = await readCertificate(await oneBitPdf(scanPng), 'application/pdf');
    expect(reading.source).toBe('ocr');
    expectScanText(reading.text);
  });

  it('a cover sheet before the certificate: the certificate page (the larger scan) is read', async () => {
    const cover = await sharp({ create: { width: 500, height: 420, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="500" height="420"><text x="40" y="80" font-size="30" font-family="DejaVu Sans">FAX COVER SHEET</text></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const pdf = await getDocumentProxy(new Uint8Array(await scannedPdf(cover, scanPng)));
    const chosen = await pdfScanImage(pdf);
    await pdf.destroy();
    expect(chosen).not.toBeNull();
    const { width, height } = await sharp(chosen!).metadata();
    const fixture = await sharp(scanPng).metadata();
    expect([width, height]).toEqual([fixture.width, fixture.height]);
  });
});

describe('scanned PDFs of several pages', { timeout: 60_000 }, () => {
  it('a fax cover then the certificate: both pages are read, each line marked with its page; a blank page is skipped', async () => {
    const cover = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="700"><rect width="900" height="700" fill="#fff"/>' +
          '<text x="60" y="120" font-size="44" font-family="DejaVu Sans">FAX COVER SHEET</text>' +
          '<text x="60" y="220" font-size="28" font-family="DejaVu Sans">To: Licensing Office</text>' +
          '<text x="60" y="290" font-size="28" font-family="DejaVu Sans">Pages: 3 including this cover</text></svg>',
      ),
    )
      .png()
      .toBuffer();
    const pdf = await getDocumentProxy(new Uint8Array(await scannedPdf(cover, await blankScan(), scanPng)));
    const read = await readScannedPdf(pdf);
    await pdf.destroy();
    expect(read).not.toBeNull();
    expect(read!.text).toMatch(/FAX COVER SHEET/);
    expectScanText(read!.text);
    expect(new Set(read!.lines.map((l) => l.page))).toEqual(new Set([1, 3]));
    expect(read!.lines.find((l) => /Carlos Rivera/.test(l.text))?.page).toBe(3);
  });
});
