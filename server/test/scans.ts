/**
 * Scanned pages made in the tests (docs/ocr.md "Images"), shared by the certificate image tests.
 */
import sharp from 'sharp';

/** A scanned blank page: paper grey with the scanner's faint noise and a few specks of dust (2,200 × 1,700). */
export function blankScan(): Promise<Buffer> {
  const width = 2200;
  const height = 1700;
  const raw = Buffer.alloc(width * height);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < raw.length; i++) raw[i] = 230 + Math.round((next() + next() - 1) * 12);
  for (let s = 0; s < 40; s++) {
    const x = Math.floor(next() * (width - 4));
    const y = Math.floor(next() * (height - 4));
    for (let k = 0; k < 3; k++) raw[(y + k) * width + x + k] = 150;
  }
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}
