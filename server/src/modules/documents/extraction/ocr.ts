/**
 * Optical character recognition of certificate images (docs/ocr.md "Images"): tesseract.js with the English data
 * that ships in @tesseract.js-data/eng, read from node_modules, so nothing is fetched at run time. One worker (a
 * worker thread, so requests are not blocked), created on first use, reused, terminated by stopOcr().
 *
 * Before any OCR: the image is bounded in pixels, specks are removed, a blank or near-blank page is refused (no
 * contrast stretch of scanner noise), the skew is measured and straightened, the background flattened, and the
 * quarter turn is chosen by reading small copies (docs/ocr.md "Images"; the engine's choice: "Engine").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { EXTRACTION_MESSAGES } from '@lm/shared';
import { badRequest } from '../../../base/errors.ts';
import { CELL_SEPARATOR, type TextLine } from './parse-text.ts';
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
  /** Mean word confidence over the page, weighted by word length, 0..1. */
  confidence: number;
  /** The clockwise turn (degrees) applied to the image before its reading: quarter turn plus skew. */
  rotation: number;
}

/** The long side of the image read in full: small images are enlarged, large ones reduced (bounded OCR work). */
const READ_MIN = 1600;
const READ_MAX = 2400;
/** The long side of the copies read to choose the quarter turn. */
const TRIAL_SIZE = 1100;
/** The long side of the copy the blank test, the skew and the line directions are measured on. */
const MEASURE_SIZE = 800;

interface Recognized {
  text: string;
  /** Word confidence weighted by length, 0..1. */
  confidence: number;
  lines: TextLine[];
  /** The words read (at least two letters). */
  words: string[];
}

interface TessWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/**
 * One tesseract reading. A line's confidence is its words' mean confidence (weighted by length), so a line of
 * half-read junk is not reported as well read; words far apart on a line (more than about two line heights)
 * become its cells, as a text layer's do.
 */
async function recognize(png: Buffer, imageHeight: number): Promise<Recognized> {
  const w = await getWorker();
  const { data } = await w.recognize(png, { rotateAuto: true }, { text: true, blocks: true });
  const lines: TextLine[] = [];
  const words: string[] = [];
  let weighted = 0;
  let chars = 0;
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const ws = (line.words as TessWord[]).filter((x) => x.text.trim());
        if (!ws.length) continue;
        let lw = 0;
        let lc = 0;
        for (const x of ws) {
          const n = x.text.trim().length;
          lw += (Math.max(0, Math.min(100, x.confidence)) / 100) * n;
          lc += n;
          if (/[A-Za-z]{2}/.test(x.text)) words.push(x.text.trim());
        }
        weighted += lw;
        chars += lc;
        const height = Math.max(1, line.bbox.y1 - line.bbox.y0);
        const cells: Array<{ text: string; x: number }> = [];
        for (const x of ws) {
          const last = cells.at(-1);
          const prev = ws[ws.indexOf(x) - 1];
          if (last && prev && x.bbox.x0 - prev.bbox.x1 < height * 2) last.text += ` ${x.text.trim()}`;
          else cells.push({ text: x.text.trim(), x: x.bbox.x0 });
        }
        lines.push({
          text: cells.length > 1 ? cells.map((c) => c.text).join(CELL_SEPARATOR) : cells[0]!.text,
          confidence: Math.round((lw / lc) * 1000) / 1000,
          // Pixels, up larger (as a text layer's baseline): the line's left edge, baseline and height.
          x: line.bbox.x0,
          y: imageHeight - line.bbox.y1,
          height,
          ...(cells.length > 1 ? { cells } : {}),
        });
      }
    }
  }
  return { text: data.text, confidence: chars ? weighted / chars : 0, lines, words };
}

/** Words certificates carry, and the share of words that look like words (letters, a vowel, sane case). */
const CERTIFICATE_WORDS =
  /^(certif\w*|complet\w*|course|credit|hours?|date|licen[cs]e\w*|provider|education|continuing|presented|awarded|this|that|the|and|for|has|of)$/i;
const WORDLIKE = /^[("']?([A-Z]?[a-z]{1,}|[A-Z]{2,}|\d[\d.,/-]*)[)"'.,:;]?$/;

/** How much a reading looks like text read the right way up (0..~1.4). */
function score(r: Recognized): number {
  if (!r.words.length) return 0;
  const wordlike = r.words.filter((w) => WORDLIKE.test(w) && /[aeiouy\d]/i.test(w)).length / r.words.length;
  const known = r.words.filter((w) => CERTIFICATE_WORDS.test(w.replace(/[^A-Za-z]/g, ''))).length;
  const many = Math.min(1, r.words.length / 12);
  return (r.confidence * 0.5 + wordlike * 0.5) * many + Math.min(known, 8) * 0.05;
}

interface Measure {
  /** Greyscale pixels of the measuring copy. */
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Each pixel's darkness below the mean of its neighbourhood (a box r pixels each way, from an integral image):
 * positive where a stroke is darker than its surroundings, about 0 on flat paper or flat dark areas.
 */
function belowNeighbourhood(data: Uint8Array, w: number, h: number, r: number): Int16Array {
  // Sums over at most about 3,000 × 3,000 pixels (2,400 px turned 15°) × 255 fit 32 bits.
  const integral = new Uint32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1]! + row;
    }
  }
  const out = new Int16Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w, x + r + 1);
      const box = integral[y1 * (w + 1) + x1]! - integral[y0 * (w + 1) + x1]! - integral[y1 * (w + 1) + x0]! + integral[y0 * (w + 1) + x0]!;
      out[y * w + x] = Math.round(box / ((x1 - x0) * (y1 - y0)) - data[y * w + x]!);
    }
  }
  return out;
}

/**
 * The ink of a measuring copy: pixels clearly darker than their neighbourhood (a 31 px box mean), so flat dark
 * areas (a table behind a photo, the corners a rotation fills) do not count, only strokes. "Clearly" is relative to
 * the page's own noise: at least 12 grey levels and four times the typical deviation of a pixel from its
 * neighbourhood, so a blank page's faint scanner noise is not ink.
 */
function inkOf(m: Measure): Uint8Array {
  const { data, width: w, height: h } = m;
  const diff = belowNeighbourhood(data, w, h, 15);
  const histogram = new Uint32Array(256);
  for (const d of diff) histogram[Math.min(255, Math.abs(d))]!++;
  // The median absolute deviation: the page's noise (text covers far less than half of a page).
  let seen = 0;
  let mad = 0;
  while (mad < 255 && seen + histogram[mad]! < (w * h) / 2) seen += histogram[mad++]!;
  const threshold = Math.max(12, mad * 1.4826 * 4);
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < ink.length; i++) if (diff[i]! > threshold) ink[i] = 1;
  return ink;
}

/** Connected groups of ink pixels the size of a letter or a word (4-connected), capped at `stop`. */
export function letterComponents(ink: Uint8Array, w: number, h: number, stop = 10_000): number {
  const seen = new Uint8Array(ink.length);
  const stack: number[] = [];
  const maxArea = (w * h) / 50;
  let count = 0;
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    let area = 0;
    let minX = w;
    let maxX = 0;
    let minY = h;
    let maxY = 0;
    while (stack.length) {
      const p = stack.pop()!;
      area++;
      const x = p % w;
      const y = (p - x) / w;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1]) {
        if (q >= 0 && ink[q] && !seen[q]) {
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    // A letter: a few pixels at least, taller than a speck, not a rule or a frame across the page.
    const bw = maxX - minX + 1;
    const bh = maxY - minY + 1;
    if (area >= 6 && bh >= 4 && bh <= h / 8 && bw <= w / 3 && area <= maxArea) count++;
    if (count >= stop) break;
  }
  return count;
}

/** Fewer letter-sized marks than this on the measuring copy: the page is blank (or a stamp, a signature). */
const MIN_LETTERS = 25;

/** The coefficient of variation of a profile (how strongly it alternates between ink and gaps). */
function variation(profile: Float64Array): number {
  const mean = profile.reduce((a, b) => a + b, 0) / profile.length;
  if (mean === 0) return 0;
  const variance = profile.reduce((a, b) => a + (b - mean) ** 2, 0) / profile.length;
  return Math.sqrt(variance) / mean;
}

/** The ink turned by `angle` degrees about the centre (nearest pixel), as row and column profiles. */
function profilesAt(ink: Uint8Array, w: number, h: number, angle: number): { rows: number; cols: number } {
  const rows = new Float64Array(h);
  const cols = new Float64Array(w);
  const a = (angle * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = w / 2;
  const cy = h / 2;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!ink[y * w + x]) continue;
      // Where this pixel lands after turning the image clockwise by `angle` (sharp's rotate direction).
      const X = Math.round(cos * (x - cx) - sin * (y - cy) + cx);
      const Y = Math.round(sin * (x - cx) + cos * (y - cy) + cy);
      if (X >= 0 && X < w && Y >= 0 && Y < h) {
        rows[Y]!++;
        cols[X]!++;
      }
    }
  }
  return { rows: variation(rows), cols: variation(cols) };
}

/** Otsu's threshold of a grey image: the level that best splits it in two (paper and background). */
function otsu(data: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const v of data) histogram[v]!++;
  const total = data.length;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * histogram[v]!;
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let level = 128;
  for (let v = 0; v < 256; v++) {
    below += histogram[v]!;
    if (!below || below === total) continue;
    belowSum += v * histogram[v]!;
    const between = below * (total - below) * (belowSum / below - (sum - belowSum) / (total - below)) ** 2;
    if (between > best) {
      best = between;
      level = v;
    }
  }
  return level;
}

/**
 * The sheet of paper in a photo (docs/ocr.md "Images"): the largest bright region (above Otsu's level) of the
 * measuring copy with its holes (the print) filled, grown by 1 %. null when it covers almost all the image (a scan)
 * or too little of it to be a page: nothing is masked then.
 */
function sheetOf(m: Measure): Uint8Array | null {
  const { data, width: w, height: h } = m;
  // Halfway between Otsu's level and the mean of what lies below it: a shadow across the sheet stays paper.
  const split = otsu(data);
  let darkSum = 0;
  let darkCount = 0;
  for (const v of data) {
    if (v > split) continue;
    darkSum += v;
    darkCount++;
  }
  const level = darkCount ? (split + darkSum / darkCount) / 2 : split;
  const label = new Int32Array(w * h).fill(-1);
  const stack: number[] = [];
  let largest = -1;
  let largestArea = 0;
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (data[start]! <= level || label[start] !== -1) continue;
    const id = next++;
    let area = 0;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      area++;
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
        if (q >= 0 && q < w * h && label[q] === -1 && data[q]! > level) {
          label[q] = id;
          stack.push(q);
        }
      }
    }
    if (area > largestArea) {
      largestArea = area;
      largest = id;
    }
  }
  // Outside the sheet: what the border reaches without crossing it.
  const outside = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) stack.push(x, (h - 1) * w + x);
  for (let y = 0; y < h; y++) stack.push(y * w, y * w + w - 1);
  while (stack.length) {
    const p = stack.pop()!;
    if (outside[p] || label[p] === largest) continue;
    outside[p] = 1;
    const x = p % w;
    for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) if (q >= 0 && q < w * h && !outside[q]) stack.push(q);
  }
  let inside = 0;
  for (const o of outside) if (!o) inside++;
  if (inside > w * h * 0.97 || inside < w * h * 0.25) return null;
  // Grown by about 1 % of the long side, so the sheet's own edge and margins are kept.
  const grow = Math.max(2, Math.round(Math.max(w, h) / 100));
  const sheet = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (outside[y * w + x]) continue;
      for (let dy = -grow; dy <= grow; dy += grow) {
        for (let dx = -grow; dx <= grow; dx += grow) {
          const X = Math.min(w - 1, Math.max(0, x + dx));
          const Y = Math.min(h - 1, Math.max(0, y + dy));
          sheet[Y * w + X] = 1;
        }
      }
    }
  }
  return sheet;
}

/** Paints what lies outside the sheet (the table under a photographed page) the paper's grey, in place. */
function paintOutside(grey: Buffer, w: number, h: number, sheet: Uint8Array, m: Measure, paper: number): void {
  for (let y = 0; y < h; y++) {
    const my = Math.min(m.height - 1, Math.floor((y * m.height) / h));
    for (let x = 0; x < w; x++) {
      if (!sheet[my * m.width + Math.min(m.width - 1, Math.floor((x * m.width) / w))]) grey[y * w + x] = paper;
    }
  }
}

/** The commonest grey level of an image (the paper, on a page of text). */
function commonest(data: Uint8Array): number {
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[v]!++;
  let best = 255;
  for (let v = 0; v < 256; v++) if (histogram[v]! > histogram[best]!) best = v;
  return best;
}

/**
 * Dark marks on white, whatever the paper: each pixel's darkness below the mean of its neighbourhood (a box about
 * a sixtieth of the long side across each way, a few letters) is stretched so that the darkest 0.3 % of the page
 * is black, and anything as light as its surroundings is white. A grey page beside white corners, a shadow across
 * a photo or a coloured certificate border then binarise as paper (tesseract thresholds the whole page at once).
 */
function flatten(data: Buffer, w: number, h: number): Buffer {
  const below = belowNeighbourhood(data, w, h, Math.max(15, Math.round(Math.max(w, h) / 60)));
  const dark = new Uint8Array(w * h);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < dark.length; i++) {
    const d = Math.max(0, Math.min(255, below[i]!));
    dark[i] = d;
    histogram[d]!++;
  }
  let top = 255;
  let above = 0;
  while (top > 0 && above + histogram[top]! < w * h * 0.003) above += histogram[top--]!;
  const gain = 255 / Math.max(16, top);
  const out = Buffer.alloc(w * h);
  for (let i = 0; i < out.length; i++) out[i] = 255 - Math.min(255, Math.round(dark[i]! * gain));
  return out;
}

/** The largest skew straightened, in degrees. */
const MAX_SKEW = 15;

/**
 * How the text lies, without OCR: lines of text make the row profile of ink alternate (line, gap, line) far more
 * than the column profile, and the other way round when the image is on its side; and they alternate most when
 * the lines are level. So the turn within ±15° (steps of 3°, then 1°, then 0.5° around the best) whose row or
 * column profile alternates most gives the skew, and which profile wins says whether lines run across (0° or 180°)
 * or down (90° or 270°); `sure` is false when the two are close (a sparse page, a photo with a busy background).
 */
export function lie(ink: Uint8Array, w: number, h: number): { quarter: 0 | 90; skew: number; sure: boolean } {
  const cache = new Map<number, { rows: number; cols: number }>();
  const at = (angle: number) => {
    let v = cache.get(angle);
    if (!v) cache.set(angle, (v = profilesAt(ink, w, h, angle)));
    return v;
  };
  const best = (key: 'rows' | 'cols') => {
    let angle = 0;
    for (let a = -MAX_SKEW; a <= MAX_SKEW; a += 3) if (at(a)[key] > at(angle)[key]) angle = a;
    for (const step of [1, 0.5]) {
      const around = angle;
      for (const a of [around - step, around + step]) if (Math.abs(a) <= MAX_SKEW && at(a)[key] > at(angle)[key]) angle = a;
    }
    return { angle, score: at(angle)[key], level: at(0)[key] };
  };
  const across = best('rows');
  const down = best('cols');
  const chosen = across.score >= down.score ? across : down;
  const other = chosen === across ? down : across;
  const skew = Math.abs(chosen.angle) >= 1 && chosen.score > chosen.level * 1.02 ? chosen.angle : 0;
  return { quarter: chosen === across ? 0 : 90, skew, sure: chosen.score > other.score * 1.35 };
}

/** The share of pixels a 3 × 3 median changes by more than this many grey levels above which a page is speckled. */
const SPECKLE_LEVEL = 80;
const SPECKLED_SHARE = 0.004;

/**
 * Salt-and-pepper noise (a dirty scanner glass, a fax line) removed by a median filter: tesseract would otherwise
 * read each speck as a mark and spend tens of seconds on a page of them. Only a speckled page is filtered (the
 * median also thins the strokes of small print): one where more than 0.4 % of the pixels differ from their 3 × 3
 * median by 80 grey levels or more; a heavily speckled one (over 3 %) gets a 5 × 5 median.
 */
async function despeckle(data: Buffer, raw: { raw: { width: number; height: number; channels: 1 } }): Promise<Buffer> {
  const median = await sharp(data, raw).median(3).toColourspace('b-w').raw().toBuffer();
  let changed = 0;
  for (let i = 0; i < data.length; i++) if (Math.abs(data[i]! - median[i]!) >= SPECKLE_LEVEL) changed++;
  const share = changed / data.length;
  if (share <= SPECKLED_SHARE) return data;
  if (share <= SPECKLED_SHARE * 8) return median;
  return sharp(data, raw).median(5).toColourspace('b-w').raw().toBuffer();
}

/**
 * The image as the OCR reads it: EXIF orientation applied, greyscale, long side between 1,600 and 2,400 px
 * (small images enlarged so letters are about 30 px high; large ones reduced, which bounds tesseract's work), and
 * a measuring copy (800 px, lightly blurred) for the blank test and the lie of the lines.
 */
async function prepare(bytes: Buffer): Promise<{ grey: Buffer; width: number; height: number; measure: Measure }> {
  // limitInputPixels: sharp refuses to decode more than the certificate limit (limits.ts), whatever the header said.
  const input = sharp(bytes, { failOn: 'none', limitInputPixels: MAX_CERTIFICATE_PIXELS });
  const meta = await input.metadata();
  const long = Math.max(meta.width ?? 1, meta.height ?? 1);
  const target = Math.min(READ_MAX, Math.max(READ_MIN, long));
  const read = await input
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize({ width: target, height: target, fit: 'inside', kernel: 'lanczos3' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: read.info.width, height: read.info.height, channels: 1 as const } };
  const grey = await despeckle(read.data, raw);
  const small = await sharp(grey, raw)
    .resize({ width: MEASURE_SIZE, height: MEASURE_SIZE, fit: 'inside' })
    .blur(0.8)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    grey,
    width: read.info.width,
    height: read.info.height,
    measure: { data: small.data, width: small.info.width, height: small.info.height },
  };
}

/**
 * Reads an image (docs/ocr.md "Images"). A page with almost no letter-sized marks is refused at once with
 * "nothing found" (its noise is never stretched and read). Otherwise the skew is straightened, the quarter turn is
 * chosen by reading small copies at the turns the lines allow (two when the lines clearly run one way, all four
 * when unsure) and keeping the one that reads most like words, and that turn is read in full.
 */
export async function ocrImage(bytes: Buffer): Promise<OcrResult> {
  const page = await prepare(bytes);
  const { measure } = page;
  const ink = inkOf(measure);
  if (letterComponents(ink, measure.width, measure.height, MIN_LETTERS) < MIN_LETTERS) throw badRequest(EXTRACTION_MESSAGES.nothingFound);
  const { quarter, skew, sure } = lie(ink, measure.width, measure.height);

  // The contrast is set only now that the page is known to carry letters: the background is flattened (see
  // flatten), so the uncovered corners of a turn, a table around a photo or a shadow read as paper.
  const raw = { raw: { width: page.width, height: page.height, channels: 1 as const } };
  const paper = commonest(measure.data);
  const sheet = sheetOf(measure);
  if (sheet) paintOutside(page.grey, page.width, page.height, sheet, measure, paper);
  const turned = await sharp(page.grey, raw)
    .rotate(skew, { background: { r: paper, g: paper, b: paper } })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const flat = flatten(turned.data, turned.info.width, turned.info.height);
  const straight = await sharp(flat, { raw: { width: turned.info.width, height: turned.info.height, channels: 1 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const trialCopy = await sharp(straight.data).resize({ width: TRIAL_SIZE, height: TRIAL_SIZE, fit: 'inside' }).png().toBuffer();
  const turns = sure ? [quarter, quarter + 180] : [quarter, quarter + 180, 90 - quarter, 270 - quarter];
  let best: { turn: number; score: number } = { turn: quarter, score: -1 };
  for (const [i, turn] of turns.entries()) {
    // The third and fourth turns only when the first two read poorly.
    if (i === 2 && best.score >= 0.75) break;
    const image = await sharp(trialCopy).rotate(turn).withMetadata({ density: 150 }).png().toBuffer({ resolveWithObject: true });
    const s = score(await recognize(image.data, image.info.height));
    if (s > best.score) best = { turn, score: s };
    // Text read the right way up is unmistakable: no need to try the opposite turn.
    if (i === 0 && s >= 1.1) break;
  }
  const full = best.turn ? await sharp(straight.data).rotate(best.turn).png().toBuffer({ resolveWithObject: true }) : straight;
  const reading = await recognize(await sharp(full.data).withMetadata({ density: 300 }).png().toBuffer(), full.info.height);
  return { lines: reading.lines, text: reading.text, confidence: reading.confidence, rotation: (best.turn + skew + 360) % 360 };
}
