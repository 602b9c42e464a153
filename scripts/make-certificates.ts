/**
 * Writes the two small committed test fixtures (server/test/fixtures/certificates/certificate-typed.pdf, a typed PDF,
 * and certificate-scan.png, a mildly noisy greyscale scan, with fixtures.json as their truth).
 *
 *   npx tsx scripts/make-certificates.ts --fixtures [server/test/fixtures/certificates]
 *
 * Deterministic (seeded). The realistic accuracy set is another thing: scripts/certificate-set/generate.ts
 * (docs/ocr.md "Test set").
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';

export type CertificateKind = 'typed_pdf' | 'scan' | 'rotated_photo' | 'scanned_pdf';

export interface CertificateTruth {
  file: string;
  mime: string;
  kind: CertificateKind;
  /** What the variation is (for the report). */
  variant: string;
  course_name: string;
  provider: string;
  hours: number;
  completion_date: string;
  holder_name: string;
  license_number: string | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A small seeded generator (mulberry32), so the set is the same on every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The date as the certificate prints it, in one of several formats. */
function formatDate(iso: string, style: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const month = MONTHS[m - 1]!;
  switch (style % 5) {
    case 0:
      return `${month} ${d}, ${y}`;
    case 1:
      return `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`;
    case 2:
      return iso;
    case 3:
      return `${d} ${month.slice(0, 3)} ${y}`;
    default:
      return `${d} ${month} ${y}`;
  }
}

/** The certificate's lines in one of three layouts. */
function linesOf(t: CertificateTruth, layout: number, dateStyle: number): string[] {
  const date = formatDate(t.completion_date, dateStyle);
  const license = t.license_number;
  switch (layout % 3) {
    case 0:
      return [
        'Certificate of Completion',
        `This certifies that ${t.holder_name}`,
        ...(license ? [`License No. ${license}`] : []),
        'has successfully completed the course',
        t.course_name,
        `Provider: ${t.provider}`,
        `Credit Hours: ${t.hours}`,
        `Date of Completion: ${date}`,
      ];
    case 1:
      return [
        t.provider.toUpperCase(),
        'CONTINUING EDUCATION CERTIFICATE',
        `Licensee: ${t.holder_name}`,
        ...(license ? [`License #: ${license}`] : []),
        `Course Title: ${t.course_name}`,
        `${t.hours} CE Hours`,
        `Completed on ${date}`,
      ];
    default:
      return [
        'Certificate of Achievement',
        'Presented to',
        t.holder_name,
        `for completing "${t.course_name}"`,
        `${t.hours} clock hours of continuing education`,
        `Offered by ${t.provider}`,
        ...(license ? [`License Number: ${license}`] : []),
        `Date: ${date}`,
      ];
  }
}

async function typedPdf(lines: string[], fontIndex: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([792, 612]);
  const font = await doc.embedFont([StandardFonts.Helvetica, StandardFonts.TimesRoman, StandardFonts.Courier][fontIndex % 3]!);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawRectangle({ x: 24, y: 24, width: 744, height: 564, borderColor: rgb(0.2, 0.3, 0.5), borderWidth: 3 });
  let y = 520;
  lines.forEach((line, i) => {
    const f = i === 0 ? bold : font;
    const size = i === 0 ? 26 : 16;
    const width = f.widthOfTextAtSize(line, size);
    page.drawText(line, { x: (792 - width) / 2, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
    y -= i === 0 ? 56 : 40;
  });
  return Buffer.from(await doc.save());
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function svgOf(lines: string[], fontIndex: number, width = 1100, height = 850): string {
  const family = ['DejaVu Serif', 'Liberation Sans', 'DejaVu Sans', 'Liberation Serif'][fontIndex % 4]!;
  const step = Math.min(80, (height - 200) / lines.length);
  const body = lines
    .map((line, i) => {
      const size = i === 0 ? 42 : 26;
      return `<text x="${width / 2}" y="${130 + i * step}" font-family="${family}" font-size="${size}" text-anchor="middle" fill="#222">${escapeXml(line)}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdfcf7"/><rect x="20" y="20" width="${width - 40}" height="${height - 40}" fill="none" stroke="#345" stroke-width="6"/>${body}</svg>`;
}

/** Gaussian-ish grey noise as an overlay. */
async function noise(width: number, height: number, amount: number, next: () => number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const v = Math.round(128 + (next() + next() + next() - 1.5) * 2 * 128 * amount);
    raw[i * 4] = raw[i * 4 + 1] = raw[i * 4 + 2] = Math.max(0, Math.min(255, v));
    raw[i * 4 + 3] = Math.round(255 * amount);
  }
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

async function scanImage(svg: string, opts: { blur: number; contrast: number; noise: number; jpeg: boolean }, next: () => number) {
  const base = sharp(Buffer.from(svg));
  const { width, height } = await base.metadata();
  let img = sharp(await base.png().toBuffer())
    .composite([{ input: await noise(width!, height!, opts.noise, next), blend: 'over' }])
    .linear(opts.contrast, 128 * (1 - opts.contrast));
  if (opts.blur > 0.3) img = sharp(await img.png().toBuffer()).blur(opts.blur);
  return opts.jpeg ? img.jpeg({ quality: 60 }).toBuffer() : img.png().toBuffer();
}

/**
 * The two committed test fixtures (server/test/fixtures/certificates/): a typed PDF and a mildly noisy greyscale
 * PNG scan, each well under 200 KB, with fixtures.json as their truth.
 */
export async function makeFixtures(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const next = rng(7);
  const pdfTruth = {
    course_name: 'Fair Housing Essentials',
    provider: 'Realty Academy of Texas',
    hours: 3,
    completion_date: '2026-03-03',
    holder_name: 'Jane Q. Smith',
    license_number: 'SA-123456',
  };
  const pngTruth = {
    course_name: 'Contract Law Update 2026',
    provider: 'Lone Star Real Estate School',
    hours: 4,
    completion_date: '2026-02-14',
    holder_name: 'Carlos Rivera',
    license_number: 'TX-778812',
  };
  const base = { file: '', mime: '', kind: 'typed_pdf' as CertificateKind, variant: '' };
  const pdf = { ...base, ...pdfTruth, file: 'certificate-typed.pdf', mime: 'application/pdf', variant: 'layout 0, "March 3, 2026"' };
  fs.writeFileSync(path.join(dir, pdf.file), await typedPdf(linesOf(pdf, 0, 0), 0));
  const png = {
    ...base,
    ...pngTruth,
    kind: 'scan' as CertificateKind,
    file: 'certificate-scan.png',
    mime: 'image/png',
    variant: 'layout 1, "02/14/2026", noise',
  };
  const scan = await scanImage(svgOf(linesOf(png, 1, 1), 1, 900, 700), { blur: 0.6, contrast: 0.8, noise: 0.06, jpeg: false }, next);
  fs.writeFileSync(
    path.join(dir, png.file),
    await sharp(scan).greyscale().png({ compressionLevel: 9, palette: true, colours: 16 }).toBuffer(),
  );
  fs.writeFileSync(path.join(dir, 'fixtures.json'), `${JSON.stringify([pdf, png], null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  if (process.argv[2] !== '--fixtures') {
    console.error('usage: npx tsx scripts/make-certificates.ts --fixtures [dir]');
    process.exit(2);
  }
  await makeFixtures(process.argv[3] ?? 'server/test/fixtures/certificates');
}
