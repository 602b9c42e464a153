import fs from 'node:fs';
import sharp from 'sharp';
import { readCertificate, stopExtraction } from './src/modules/documents/extraction/index.ts';
const png = fs.readFileSync('test/fixtures/certificates/certificate-scan.png');
const cases: Array<[string, () => Promise<Buffer>]> = [
  ['skew 20°', () => sharp(png).rotate(20, { background: '#888' }).jpeg().toBuffer()],
  ['skew 15°', () => sharp(png).rotate(15, { background: '#888' }).jpeg().toBuffer()],
  ['400 px wide', () => sharp(png).resize({ width: 400 }).png().toBuffer()],
  ['300 px wide', () => sharp(png).resize({ width: 300 }).png().toBuffer()],
  ['blur 3', () => sharp(png).blur(3).png().toBuffer()],
  ['blur 2', () => sharp(png).blur(2).png().toBuffer()],
  ['contrast 0.2', () => sharp(png).linear(0.2, 100).png().toBuffer()],
  ['upside down', () => sharp(png).rotate(180).png().toBuffer()],
];
for (const [name, make] of cases) {
  const r = await readCertificate(await make(), 'image/png');
  const f = r.fields;
  console.log(name, '|', r.duration_ms, 'ms | conf', r.text_confidence, '|', f.course_name.value, '|', f.hours.value, '|', f.completion_date.value, '|', f.license_number.value, '|', f.holder_name.value, '|', f.provider.value);
}
await stopExtraction();
