/**
 * Generates a varied set of CE certificates with their ground truth (docs/ocr.md "Test set"): typed PDFs with a
 * text layer (pdf-lib), scanned-looking images (an SVG certificate rendered by sharp, then blurred, noised, low in
 * contrast, JPEG-compressed), photos turned a quarter or a few degrees, and a scanned PDF (an image, no text).
 *
 *   npx tsx scripts/make-certificates.ts <dir> [count]
 *   npx tsx scripts/make-certificates.ts --fixtures [server/test/fixtures/certificates]
 *
 * writes <dir>/<name>.{pdf,png,jpg} and <dir>/truth.json. Deterministic (seeded), so runs compare.
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

/** The catalogue the certificates are drawn from (the accuracy run matches against it). */
export const CATALOGUE: Array<{ course_name: string; provider: string; ce_hours: number }> = [
  { course_name: 'Fair Housing Essentials', provider: 'Realty Academy of Texas', ce_hours: 3 },
  { course_name: 'Contract Law Update 2026', provider: 'Lone Star Real Estate School', ce_hours: 4 },
  { course_name: 'Ethics in Real Estate Practice', provider: 'National Realty Institute', ce_hours: 3 },
  { course_name: 'Agency Relationships and Disclosure', provider: 'Coastal CE Online', ce_hours: 2 },
  { course_name: 'Property Management Fundamentals', provider: 'Realty Academy of Texas', ce_hours: 6 },
  { course_name: 'Residential Appraisal Basics', provider: 'Appraisal Learning Center', ce_hours: 7.5 },
  { course_name: 'Commercial Leasing Strategies', provider: 'National Realty Institute', ce_hours: 4 },
  { course_name: 'Risk Management for Brokers', provider: 'Broker Risk Partners', ce_hours: 3 },
  { course_name: 'Environmental Issues in Real Estate', provider: 'Coastal CE Online', ce_hours: 2.5 },
  { course_name: 'Mortgage Financing Today', provider: 'Lone Star Real Estate School', ce_hours: 3 },
];

const NAMES = ['Jane Q. Smith', 'Carlos Rivera', 'Amelia Johnson', 'Marcus Chen', 'Priya Patel', 'Owen Gallagher', 'Lena Fischer'];
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

async function photo(svg: string, angle: number, next: () => number): Promise<Buffer> {
  const scan = await scanImage(svg, { blur: 0.6, contrast: 0.85, noise: 0.08, jpeg: false }, next);
  return sharp(scan).rotate(angle, { background: '#8a8378' }).jpeg({ quality: 75 }).toBuffer();
}

async function scannedPdf(svg: string, next: () => number): Promise<Buffer> {
  const png = await scanImage(svg, { blur: 0.5, contrast: 0.9, noise: 0.05, jpeg: false }, next);
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage([792, 612]);
  page.drawImage(image, { x: 0, y: 0, width: 792, height: 612 });
  return Buffer.from(await doc.save());
}

/** Writes `count` certificates (a quarter of each kind, roughly) and truth.json into dir. */
export async function makeCertificates(dir: string, count = 24, seed = 13): Promise<CertificateTruth[]> {
  fs.mkdirSync(dir, { recursive: true });
  const next = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const truth: CertificateTruth[] = [];
  const kinds: CertificateKind[] = ['typed_pdf', 'scan', 'rotated_photo', 'scan', 'typed_pdf', 'rotated_photo', 'scanned_pdf', 'scan'];
  const angles = [90, 180, 270, 3, -4, 8, -14, 12];
  for (let i = 0; i < count; i++) {
    const course = CATALOGUE[i % CATALOGUE.length]!;
    const kind = kinds[i % kinds.length]!;
    const day = 1 + Math.floor(next() * 27);
    const month = 1 + Math.floor(next() * 10);
    const t: CertificateTruth = {
      file: '',
      mime: '',
      kind,
      variant: '',
      course_name: course.course_name,
      provider: course.provider,
      hours: course.ce_hours,
      completion_date: `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      holder_name: pick(NAMES),
      license_number: next() < 0.75 ? `${pick(['SA', 'BR', 'TX', ''])}${100000 + Math.floor(next() * 899999)}` : null,
    };
    const layout = i % 3;
    const dateStyle = Math.floor(i / 2) % 5;
    const lines = linesOf(t, layout, dateStyle);
    const name = `cert-${String(i + 1).padStart(2, '0')}-${kind}`;
    let bytes: Buffer;
    if (kind === 'typed_pdf') {
      bytes = await typedPdf(lines, i);
      t.file = `${name}.pdf`;
      t.mime = 'application/pdf';
      t.variant = `layout ${layout}, date style ${dateStyle}`;
    } else if (kind === 'scanned_pdf') {
      bytes = await scannedPdf(svgOf(lines, i), next);
      t.file = `${name}.pdf`;
      t.mime = 'application/pdf';
      t.variant = `image-only PDF, layout ${layout}`;
    } else if (kind === 'scan') {
      const harsh = i % 3 === 2;
      const opts = { blur: harsh ? 1.4 : 0.7, contrast: harsh ? 0.45 : 0.75, noise: harsh ? 0.18 : 0.1, jpeg: i % 8 !== 3 };
      bytes = await scanImage(svgOf(lines, i), opts, next);
      // Every fifth scan is small (a low-resolution fax or thumbnail).
      const lowRes = i % 5 === 4;
      if (lowRes)
        bytes = await sharp(bytes)
          .resize({ width: 560 })
          .toFormat(opts.jpeg ? 'jpeg' : 'png')
          .toBuffer();
      t.file = `${name}.${opts.jpeg ? 'jpg' : 'png'}`;
      t.mime = opts.jpeg ? 'image/jpeg' : 'image/png';
      t.variant = `${harsh ? 'harsh' : 'mild'} noise/blur/contrast${lowRes ? ', 560 px wide' : ''}, layout ${layout}`;
    } else {
      const angle = angles[i % angles.length]!;
      bytes = await photo(svgOf(lines, i), angle, next);
      t.file = `${name}.jpg`;
      t.mime = 'image/jpeg';
      t.variant = `turned ${angle}°, layout ${layout}`;
    }
    fs.writeFileSync(path.join(dir, t.file), bytes);
    truth.push(t);
  }
  fs.writeFileSync(path.join(dir, 'truth.json'), `${JSON.stringify(truth, null, 2)}\n`);
  return truth;
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
  const dir = process.argv[2];
  if (dir === '--fixtures') {
    await makeFixtures(process.argv[3] ?? 'server/test/fixtures/certificates');
    process.exit(0);
  }
  if (!dir) {
    console.error('usage: npx tsx scripts/make-certificates.ts <dir> [count] | --fixtures [dir]');
    process.exit(2);
  }
  const made = await makeCertificates(dir, Number(process.argv[3] ?? 24));
  console.log(`${made.length} certificates and truth.json in ${dir}`);
}
