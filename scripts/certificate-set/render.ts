/**
 * How the set's documents are made into files (docs/ocr.md "Test set"): HTML printed to PDF by Chromium (real
 * fonts, ligatures), the same layout re-typed by pdf-lib with the standard fonts (one text item per line, as
 * report generators write), a Chromium screenshot turned into a phone photo (projective warp, uneven light, noise,
 * blur, JPEG 50-75, turned) or a scan (greyscale or 1-bit), image-only PDFs of scans, and blank scanned pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import sharp from 'sharp';
import type { Layout } from './layouts.ts';

const FONT_DIR = path.join(import.meta.dirname, '../../test-data/certificates/fonts');
/** pdf-lib's PDFs carry this date instead of now, so regenerating the set gives the same bytes. */
const PDF_DATE = new Date('2026-11-28T12:00:00Z');

async function newPdf(): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(PDF_DATE);
  doc.setModificationDate(PDF_DATE);
  return doc;
}

/** @font-face rules for the OFL display and script fonts (committed beside their licences). */
export function fontFaces(): string {
  const face = (family: string, file: string, style = 'normal', weight = 400) =>
    `@font-face{font-family:'${family}';font-style:${style};font-weight:${weight};src:url(data:font/woff2;base64,${fs.readFileSync(path.join(FONT_DIR, file)).toString('base64')}) format('woff2')}`;
  return [
    face('Great Vibes', 'great-vibes-latin-400-normal.woff2'),
    face('Dancing Script', 'dancing-script-latin-400-normal.woff2'),
    face('Playfair Display', 'playfair-display-latin-400-normal.woff2'),
    face('Playfair Display', 'playfair-display-latin-700-normal.woff2', 'normal', 700),
    face('Playfair Display', 'playfair-display-latin-400-italic.woff2', 'italic'),
  ].join('\n');
}

export class Renderer {
  private browser: Browser | null = null;

  async open(): Promise<void> {
    this.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  }

  async close(): Promise<void> {
    await this.browser?.close();
  }

  private async page(html: string, layout: Layout, scale: number): Promise<Page> {
    const [w, h] = layout.landscape ? [1056, 816] : [816, 1056];
    const page = await this.browser!.newPage({ viewport: { width: w, height: h * layout.pages.length }, deviceScaleFactor: scale });
    await page.setContent(html, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    return page;
  }

  /** Chromium's own PDF (a text layer with its real fonts; "fi"/"ffi" ligatures as single glyphs). */
  async chromiumPdf(html: string, layout: Layout): Promise<Buffer> {
    const page = await this.page(html, layout, 1);
    const pdf = await page.pdf({ printBackground: true, preferCSSPageSize: true });
    await page.close();
    return Buffer.from(pdf);
  }

  /** A screenshot of each page at `dpi` (96 CSS px per inch). */
  async screenshots(html: string, layout: Layout, dpi: number): Promise<Buffer[]> {
    const page = await this.page(html, layout, dpi / 96);
    const [w, h] = layout.landscape ? [1056, 816] : [816, 1056];
    const shots: Buffer[] = [];
    for (let i = 0; i < layout.pages.length; i++) shots.push(await page.screenshot({ clip: { x: 0, y: i * h, width: w, height: h } }));
    await page.close();
    return shots;
  }

  /**
   * The layout re-typed by pdf-lib with the 14 standard fonts: each rendered line of text (its words' boxes from
   * Chromium) drawn as one text item at the same place, so the typed PDF has the layout but not the fonts.
   */
  async typedPdf(html: string, layout: Layout): Promise<Buffer> {
    const page = await this.page(html, layout, 1);
    // A string, not a function: tsx's transform would add helpers (__name) that do not exist in the page.
    const runs: Array<{ text: string; x: number; y: number; size: number; bold: boolean; italic: boolean; family: string }> =
      await page.evaluate(`(() => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const style = getComputedStyle(node.parentElement);
        const text = node.textContent || '';
        const re = /\\S+/g;
        let line = null;
        const flush = function () {
          if (line) out.push({ text: line.words.join(' '), x: line.x, y: line.bottom, size: parseFloat(style.fontSize), bold: Number(style.fontWeight) >= 600, italic: style.fontStyle === 'italic', family: style.fontFamily });
          line = null;
        };
        for (let m = re.exec(text); m; m = re.exec(text)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const r = range.getBoundingClientRect();
          if (r.width === 0) continue;
          if (line && Math.abs(r.top - line.top) > 3) flush();
          if (!line) line = { words: [], x: r.left, top: r.top, bottom: r.bottom };
          line.words.push(m[0]);
        }
        flush();
      }
      return out;
    })()`);
    await page.close();
    const doc = await newPdf();
    const fonts: Record<string, PDFFont> = {};
    const font = async (name: StandardFonts) => (fonts[name] ??= await doc.embedFont(name));
    const [w, h] = layout.landscape ? [792, 612] : [612, 792];
    const pages = layout.pages.map(() => doc.addPage([w, h]));
    for (const run of runs) {
      const pageIndex = Math.min(pages.length - 1, Math.floor(run.y / (layout.landscape ? 816 : 1056)));
      const y = run.y - pageIndex * (layout.landscape ? 816 : 1056);
      const serif = /serif|playfair|vibes|dancing/i.test(run.family) && !/sans/i.test(run.family);
      const mono = /mono/i.test(run.family);
      const name = mono
        ? run.bold
          ? StandardFonts.CourierBold
          : StandardFonts.Courier
        : serif
          ? run.bold
            ? StandardFonts.TimesRomanBold
            : run.italic || /vibes|dancing/i.test(run.family)
              ? StandardFonts.TimesRomanItalic
              : StandardFonts.TimesRoman
          : run.bold
            ? StandardFonts.HelveticaBold
            : StandardFonts.Helvetica;
      const f = await font(name);
      // Characters outside WinAnsi (typographic dashes are in it; "§" is too) are replaced.
      const text = [...run.text].map((c) => (f.getCharacterSet().includes(c.codePointAt(0)!) ? c : '?')).join('');
      pages[pageIndex]!.drawText(text, {
        x: run.x * 0.75,
        y: h - (y - run.size * 0.22) * 0.75,
        size: run.size * 0.75,
        font: f,
        color: rgb(0.08, 0.08, 0.08),
      });
    }
    for (const p of pages)
      p.drawRectangle({ x: 18, y: 18, width: w - 36, height: h - 36, borderColor: rgb(0.3, 0.3, 0.35), borderWidth: 1.5 });
    return Buffer.from(await doc.save());
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Images

/** Solves the homography mapping 4 points (x,y) to 4 points (u,v): [a b c d e f g h] with u=(ax+by+c)/(gx+hy+1). */
function homography(from: number[][], to: number[][]): number[] {
  const A: number[][] = [];
  const B: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    A.push([x!, y!, 1, 0, 0, 0, -u! * x!, -u! * y!]);
    B.push(u!);
    A.push([0, 0, 0, x!, y!, 1, -v! * x!, -v! * y!]);
    B.push(v!);
  }
  // Gaussian elimination with partial pivoting.
  const n = 8;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    [B[c], B[p]] = [B[p]!, B[c]!];
    for (let r = c + 1; r < n; r++) {
      const k = A[r]![c]! / A[c]![c]!;
      for (let j = c; j < n; j++) A[r]![j]! -= k * A[c]![j]!;
      B[r]! -= k * B[c]!;
    }
  }
  const xs = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = B[r]!;
    for (let j = r + 1; j < n; j++) s -= A[r]![j]! * xs[j]!;
    xs[r] = s / A[r]![r]!;
  }
  return xs;
}

const gauss = (next: () => number) => (next() + next() + next() + next() - 2) * 1.7;

export interface PhotoOptions {
  /** Output long side in pixels (≈ 100-150 dpi for a Letter page in the frame). */
  longSide: number;
  /** Corner displacement as a share of the page size (perspective). */
  perspective: number;
  /** Small turn in degrees. */
  tilt: number;
  /** Quarter turn applied last (the phone held sideways or upside down). */
  quarter: 0 | 90 | 180 | 270;
  /** 0..1: how strong the light falls off across the page and the shadow. */
  shade: number;
  noise: number;
  blur: number;
  quality: number;
  /** Keep the quarter turn in EXIF (orientation tag) instead of the pixels. */
  exif?: boolean;
}

/** A phone photo of a page: the page warped onto a table, lit unevenly, noisy, blurred, JPEG-compressed. */
export async function phonePhoto(png: Buffer, o: PhotoOptions, next: () => number): Promise<Buffer> {
  const src = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sw = src.info.width;
  const sh = src.info.height;
  const ch = src.info.channels;
  const margin = 0.09;
  const W = Math.round(sw * (1 + 2 * margin));
  const H = Math.round(sh * (1 + 2 * margin));
  const cx = W / 2;
  const cy = H / 2;
  const t = (o.tilt * Math.PI) / 180;
  const corners = [
    [-sw / 2, -sh / 2],
    [sw / 2, -sh / 2],
    [sw / 2, sh / 2],
    [-sw / 2, sh / 2],
  ].map(([x, y]) => {
    const jx = (next() - 0.5) * 2 * o.perspective * sw;
    const jy = (next() - 0.5) * 2 * o.perspective * sh;
    const px = x! + jx;
    const py = y! + jy;
    return [cx + px * Math.cos(t) - py * Math.sin(t), cy + px * Math.sin(t) + py * Math.cos(t)];
  });
  // Maps output pixels back to page pixels.
  const m = homography(corners, [
    [0, 0],
    [sw, 0],
    [sw, sh],
    [0, sh],
  ]);
  const out = Buffer.alloc(W * H * 3);
  const table = [90 + next() * 60, 80 + next() * 50, 70 + next() * 40];
  const lightX = next();
  const lightY = next();
  const shadowAngle = next() * Math.PI * 2;
  const shadowEdge = 0.35 + next() * 0.4;
  const s = src.data;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const den = m[6]! * x + m[7]! * y + 1;
      const u = (m[0]! * x + m[1]! * y + m[2]!) / den;
      const v = (m[3]! * x + m[4]! * y + m[5]!) / den;
      // Light: brighter near (lightX, lightY), a soft shadow across one side.
      const nx = x / W;
      const ny = y / H;
      const d = Math.hypot(nx - lightX, ny - lightY);
      const proj = (nx - 0.5) * Math.cos(shadowAngle) + (ny - 0.5) * Math.sin(shadowAngle) + 0.5;
      const shadow = proj > shadowEdge ? 1 - o.shade * 0.45 * Math.min(1, (proj - shadowEdge) * 6) : 1;
      const light = (1 - o.shade * 0.35 * d) * shadow;
      const o3 = (y * W + x) * 3;
      const n = gauss(next) * o.noise * 255;
      if (u >= 0 && v >= 0 && u < sw - 1 && v < sh - 1) {
        const x0 = Math.floor(u);
        const y0 = Math.floor(v);
        const fx = u - x0;
        const fy = v - y0;
        for (let c = 0; c < 3; c++) {
          const i00 = (y0 * sw + x0) * ch + c;
          const val =
            s[i00]! * (1 - fx) * (1 - fy) +
            s[i00 + ch]! * fx * (1 - fy) +
            s[i00 + sw * ch]! * (1 - fx) * fy +
            s[i00 + sw * ch + ch]! * fx * fy;
          // Paper is slightly warm under room light.
          const tint = c === 2 ? 0.94 : c === 1 ? 0.98 : 1;
          out[o3 + c] = Math.max(0, Math.min(255, val * light * tint + n));
        }
      } else {
        for (let c = 0; c < 3; c++) out[o3 + c] = Math.max(0, Math.min(255, table[c]! * light + n * 1.5));
      }
    }
  }
  let img = sharp(out, { raw: { width: W, height: H, channels: 3 } }).resize({
    width: W >= H ? o.longSide : undefined,
    height: H > W ? o.longSide : undefined,
  });
  img = sharp(await img.png().toBuffer()).blur(Math.max(0.3, o.blur));
  if (o.exif && o.quarter) {
    // The camera leaves the pixels as the sensor saw them and records the turn in EXIF (orientation 6 = turn 90° to view).
    const back = { 90: 270, 180: 180, 270: 90 }[o.quarter];
    const tag = { 90: 6, 180: 3, 270: 8 }[o.quarter];
    return sharp(await img.rotate(back).png().toBuffer())
      .jpeg({ quality: o.quality })
      .withMetadata({ orientation: tag })
      .toBuffer();
  }
  if (o.quarter) img = sharp(await img.png().toBuffer()).rotate(o.quarter);
  return img.jpeg({ quality: o.quality, chromaSubsampling: '4:2:0' }).toBuffer();
}

export interface ScanOptions {
  /** Small skew of the sheet on the glass, degrees. */
  skew: number;
  noise: number;
  blur: number;
  /** 1-bit: threshold 0..255; otherwise greyscale. */
  threshold?: number;
  /** Upside down on the feeder. */
  upsideDown?: boolean;
}

/** A flatbed or fax scan: greyscale (or 1-bit), a little skew, speckle. Returns PNG (1-bit) or JPEG (grey). */
export async function scan(png: Buffer, o: ScanOptions, next: () => number): Promise<{ bytes: Buffer; mime: string }> {
  const rotated = await sharp(png)
    .greyscale()
    .rotate(o.skew + (o.upsideDown ? 180 : 0), { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = rotated.info;
  const data = rotated.data;
  for (let i = 0; i < data.length; i++) {
    let v = data[i]! * 0.97 + 4 + gauss(next) * o.noise * 255;
    if (next() < 0.0004) v = 40; // dust
    data[i] = Math.max(0, Math.min(255, v));
  }
  let img = sharp(data, { raw: { width, height, channels: 1 } });
  if (o.blur > 0.3) img = sharp(await img.png().toBuffer()).blur(o.blur);
  if (o.threshold !== undefined) {
    const bytes = await sharp(await img.png().toBuffer())
      .threshold(o.threshold)
      .png({ palette: true, colours: 2, bitdepth: 1 })
      .toBuffer();
    return { bytes, mime: 'image/png' };
  }
  return { bytes: await img.jpeg({ quality: 70 }).toBuffer(), mime: 'image/jpeg' };
}

/** A blank sheet through a scanner: paper grey, faint noise, a few specks, a faint shadow at one edge. */
export async function blankScan(width: number, height: number, next: () => number): Promise<Buffer> {
  const data = Buffer.alloc(width * height);
  const edge = Math.floor(width * (0.01 + next() * 0.02));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let v = 246 + gauss(next) * 3;
      if (x < edge) v -= 30 * (1 - x / edge);
      if (next() < 0.00015) v = 120 + next() * 80;
      data[y * width + x] = Math.max(0, Math.min(255, v));
    }
  return sharp(data, { raw: { width, height, channels: 1 } })
    .jpeg({ quality: 75 })
    .toBuffer();
}

/** Image-only PDF: one page per image (a scanner's or fax's PDF), no text layer. */
export async function imagePdf(images: Array<{ bytes: Buffer; mime: string }>, landscape: boolean): Promise<Buffer> {
  const doc = await newPdf();
  const [w, h] = landscape ? [792, 612] : [612, 792];
  for (const im of images) {
    const embedded = im.mime === 'image/png' ? await doc.embedPng(im.bytes) : await doc.embedJpg(im.bytes);
    doc.addPage([w, h]).drawImage(embedded, { x: 0, y: 0, width: w, height: h });
  }
  return Buffer.from(await doc.save());
}
