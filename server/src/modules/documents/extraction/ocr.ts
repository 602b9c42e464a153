/**
 * Optical character recognition of certificate images (docs/ocr.md): tesseract.js with the English data that
 * ships in @tesseract.js-data/eng, read from node_modules, so nothing is fetched at run time. One worker (a
 * worker thread, so requests are not blocked), created on first use, reused, terminated by stopOcr().
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import sharp, { type Sharp } from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import type { TextLine } from './parse.ts';
import { MAX_CERTIFICATE_PIXELS } from './limits.ts';

const require = createRequire(import.meta.url);

/** The directory holding eng.traineddata.gz (the package's 4.0.0 LSTM data). */
function langPath(): string {
  return path.dirname(require.resolve('@tesseract.js-data/eng/4.0.0/eng.traineddata.gz'));
}

let worker: Promise<Worker> | null = null;
let cacheDir: string | null = null;

function getWorker(): Promise<Worker> {
  worker ??= (async () => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-ocr-'));
    return createWorker('eng', OEM.LSTM_ONLY, { langPath: langPath(), gzip: true, cachePath: cacheDir, cacheMethod: 'none' });
  })();
  return worker;
}

export async function stopOcr(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await (await w).terminate();
  if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true });
  cacheDir = null;
}

export interface OcrResult {
  lines: TextLine[];
  text: string;
  /** Mean word confidence, 0..1. */
  confidence: number;
  rotation: number;
}

interface Recognized {
  text: string;
  confidence: number;
  lines: TextLine[];
}

async function recognize(png: Buffer): Promise<Recognized> {
  const w = await getWorker();
  const { data } = await w.recognize(png, { rotateAuto: true }, { text: true, blocks: true });
  const lines: TextLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) lines.push({ text: line.text.trim(), confidence: line.confidence / 100 });
    }
  }
  return { text: data.text, confidence: data.confidence / 100, lines };
}

/** Greyscale, EXIF orientation applied, small images upscaled so text is about 30 px high. */
async function normalise(bytes: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  // limitInputPixels: sharp refuses to decode more than the certificate limit (limits.ts), whatever the header said.
  const img = sharp(bytes, { failOn: 'none', limitInputPixels: MAX_CERTIFICATE_PIXELS }).rotate().greyscale();
  const meta = await img.metadata();
  const rotated = (meta.orientation ?? 1) >= 5;
  const w = (rotated ? meta.height : meta.width) ?? 0;
  const h = (rotated ? meta.width : meta.height) ?? 0;
  const long = Math.max(w, h);
  const target = long < 1600 ? 1600 : long > 3200 ? 3200 : long;
  const out = await img
    .resize({ width: w >= h ? target : undefined, height: h > w ? target : undefined, kernel: 'lanczos3' })
    .normalise()
    .withMetadata({ density: 300 })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: out.data, width: out.info.width, height: out.info.height };
}

/** How much a reading looks like a certificate: confidence, plus the words certificates carry. */
function score(r: Recognized): number {
  const words = (r.text.match(/\b(certif\w*|complet\w*|course|hours?|date|license|provider)\b/gi) ?? []).length;
  return r.confidence + Math.min(words, 8) * 0.05;
}

/** The coefficient of variation of a profile (how strongly it alternates between ink and gaps). */
function variation(profile: Float64Array): number {
  const mean = profile.reduce((a, b) => a + b, 0) / profile.length;
  if (mean === 0) return 0;
  const variance = profile.reduce((a, b) => a + (b - mean) ** 2, 0) / profile.length;
  return Math.sqrt(variance) / mean;
}

/**
 * The row and column profiles of ink in a small copy of the image: pixels clearly darker than their
 * neighbourhood (a 31 px box mean), so flat dark areas (a table behind a photo, the corners a rotation fills)
 * do not count, only strokes.
 */
async function profiles(image: Sharp): Promise<{ rows: Float64Array; cols: Float64Array }> {
  const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1]! + row;
    }
  }
  const r = 15;
  const rows = new Float64Array(h);
  const cols = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w, x + r + 1);
      const box = integral[y1 * (w + 1) + x1]! - integral[y0 * (w + 1) + x1]! - integral[y1 * (w + 1) + x0]! + integral[y0 * (w + 1) + x0]!;
      const local = box / ((x1 - x0) * (y1 - y0));
      if (data[y * w + x]! < local - 40) {
        rows[y]!++;
        cols[x]!++;
      }
    }
  }
  return { rows, cols };
}

const small = (png: Buffer, size: number) => sharp(png).resize({ width: size, height: size, fit: 'inside' });

/** The largest skew straightened, in degrees. */
const MAX_SKEW = 15;

/**
 * How the text lies, without OCR: lines of text make the row profile of ink alternate (line, gap, line) far
 * more than the column profile, and the other way round when the image is on its side; and they alternate most
 * when the lines are level. So the small rotation within ±15° (coarse steps of 3°, then 1° around the best)
 * whose row or column profile alternates most gives both the quarter turn (0 or 90) and the skew. A skew under
 * 2° (or no clear winner) is left to tesseract's own layout.
 */
export async function orientation(png: Buffer): Promise<{ quarter: 0 | 90; skew: number }> {
  const base = await small(png, 700).png().toBuffer();
  const cache = new Map<number, { rows: number; cols: number }>();
  const at = async (angle: number) => {
    let v = cache.get(angle);
    if (!v) {
      const p = await profiles(angle ? sharp(base).rotate(angle, { background: '#ffffff' }) : sharp(base));
      v = { rows: variation(p.rows), cols: variation(p.cols) };
      cache.set(angle, v);
    }
    return v;
  };
  const best = async (key: 'rows' | 'cols') => {
    let angle = 0;
    for (let a = -MAX_SKEW; a <= MAX_SKEW; a += 3) if ((await at(a))[key] > (await at(angle))[key]) angle = a;
    for (const a of [angle - 1, angle + 1]) if (Math.abs(a) <= MAX_SKEW && (await at(a))[key] > (await at(angle))[key]) angle = a;
    return { angle, score: (await at(angle))[key], level: (await at(0))[key] };
  };
  const across = await best('rows');
  const down = await best('cols');
  const chosen = across.score >= down.score ? across : down;
  const skew = Math.abs(chosen.angle) >= 2 && chosen.score > chosen.level * 1.05 ? chosen.angle : 0;
  return { quarter: chosen === across ? 0 : 90, skew };
}

/**
 * Reads an image. Photos may be on their side or askew: the lie of the lines (orientation) chooses between
 * upright/upside down and the two quarter turns, and the skew to straighten; the first is read, and when that reading is poor the opposite
 * turn is tried on a smaller copy and read in full if it does better. tesseract's own page layout (rotateAuto)
 * takes the last degree of skew.
 */
export async function ocrImage(bytes: Buffer): Promise<OcrResult> {
  const normalised = await normalise(bytes);
  const { quarter, skew } = await orientation(normalised.png);
  const [first, second] = [quarter, quarter + 180];
  const turned = skew ? await sharp(normalised.png).rotate(skew, { background: '#ffffff' }).png().toBuffer() : normalised.png;
  const png = first ? await sharp(turned).rotate(first).png().toBuffer() : turned;
  const turn = (image: Buffer) =>
    sharp(image)
      .rotate(second - first)
      .png()
      .toBuffer();
  const rotation = (r: number) => (r + skew + 360) % 360;

  const firstRead = await recognize(png);
  if (score(firstRead) >= 0.95) return { ...firstRead, rotation: rotation(first) };
  const { width, height } = await sharp(png).metadata();
  const scale = Math.min(1, 1200 / Math.max(width ?? 1, height ?? 1));
  const smaller = await sharp(png)
    .resize({ width: Math.round((width ?? 1) * scale) })
    .png()
    .toBuffer();
  const trial = await recognize(await turn(smaller));
  if (score(trial) <= score(firstRead)) return { ...firstRead, rotation: rotation(first) };
  const secondRead = await recognize(await turn(png));
  return score(secondRead) > score(firstRead) ? { ...secondRead, rotation: rotation(second) } : { ...firstRead, rotation: rotation(first) };
}
