/**
 * Optical character recognition of certificate images (docs/ocr.md): tesseract.js with the English data that
 * ships in @tesseract.js-data/eng, read from node_modules, so nothing is fetched at run time. One worker (a
 * worker thread, so requests are not blocked), created on first use, reused, terminated by stopOcr().
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import type { TextLine } from './parse.ts';

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
  const img = sharp(bytes, { failOn: 'none' }).rotate().greyscale();
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
 * Whether the lines of text run across (true) or down the image, without OCR: lines of text make the row
 * profile of dark pixels alternate (line, gap, line) far more than the column profile, and the other way
 * round when the image is on its side.
 */
export async function linesRunAcross(png: Buffer): Promise<boolean> {
  const { data, info } = await sharp(png)
    .resize({ width: 600, height: 600, fit: 'inside' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (const v of data) sum += v;
  const threshold = (sum / data.length) * 0.75;
  const rows = new Float64Array(info.height);
  const cols = new Float64Array(info.width);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! < threshold) {
        rows[y]!++;
        cols[x]!++;
      }
    }
  }
  return variation(rows) >= variation(cols);
}

/**
 * Reads an image. Photos may be on their side: the direction of the lines (linesRunAcross) chooses between
 * upright/upside down and the two quarter turns; the first is read, and when that reading is poor the opposite
 * turn is tried on a smaller copy and read in full if it does better. Small skews are straightened by
 * tesseract's own page layout (rotateAuto).
 */
export async function ocrImage(bytes: Buffer): Promise<OcrResult> {
  const { png, width, height } = await normalise(bytes);
  const [first, second] = (await linesRunAcross(png)) ? [0, 180] : [90, 270];
  const turn = (rotation: number, image: Buffer) => (rotation ? sharp(image).rotate(rotation).png().toBuffer() : Promise.resolve(image));
  const firstRead = await recognize(await turn(first, png));
  if (score(firstRead) >= 0.95) return { ...firstRead, rotation: first };
  const scale = Math.min(1, 1200 / Math.max(width, height));
  const small = await sharp(png)
    .resize({ width: Math.round(width * scale) })
    .png()
    .toBuffer();
  const trial = await recognize(await turn(second, small));
  if (score(trial) <= score(firstRead)) return { ...firstRead, rotation: first };
  const secondRead = await recognize(await turn(second, png));
  return score(secondRead) > score(firstRead) ? { ...secondRead, rotation: second } : { ...firstRead, rotation: first };
}
