/**
 * Certificates made to hurt a reader (docs/security.md "Certificates and uploads"), written in a few
 * milliseconds: a PDF whose page tree lists one page 60,000 times, a PDF with 60,000 page objects packed in a
 * compressed object stream (as pdf-lib and most producers write them), and a PNG whose header says
 * 20,000 × 20,000 with a tiny IDAT. Used by certificate-limits.test.ts and bench/certificate-abuse.ts.
 */
import zlib from 'node:zlib';

function pdfFile(objects: (string | Buffer)[], trailer: (xrefAt: number, offsets: number[]) => Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const body = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof o === 'string' ? Buffer.from(o, 'latin1') : o,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(body);
    length += body.length;
  });
  parts.push(trailer(length, offsets));
  return Buffer.concat(parts);
}

/** A page tree whose Kids list the same page `pages` times (about 6 bytes a page). */
export function repeatedPagePdf(pages: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${pages} /Kids [${' 3 0 R'.repeat(pages)} ] >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  return pdfFile(objects, (xrefAt, offsets) =>
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`,
    ),
  );
}

/**
 * `pages` page objects inside one flate-compressed object stream, with a cross-reference stream: objects 1 the
 * catalog, 2 the page tree, 3 the object stream, 4.. the pages, then the cross-reference stream.
 */
export function packedPagesPdf(pages: number): Buffer {
  const first = 4;
  const pageDict = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
  let header = '';
  let content = '';
  for (let i = 0; i < pages; i++) {
    header += `${first + i} ${content.length} `;
    content += `${pageDict}\n`;
  }
  const packed = zlib.deflateSync(Buffer.from(header + content, 'latin1'));
  const kids = Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ');
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`,
    Buffer.concat([
      Buffer.from(`<< /Type /ObjStm /N ${pages} /First ${header.length} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`),
      packed,
      Buffer.from('\nendstream'),
    ]),
  ];
  return pdfFile(objects, (xrefAt, offsets) => {
    const size = first + pages + 1;
    const rows = Buffer.alloc(size * 7);
    const row = (n: number, type: number, a: number, b: number) => {
      rows.writeUInt8(type, n * 7);
      rows.writeUInt32BE(a, n * 7 + 1);
      rows.writeUInt16BE(b, n * 7 + 5);
    };
    row(0, 0, 0, 65535);
    offsets.forEach((o, i) => row(i + 1, 1, o, 0));
    for (let i = 0; i < pages; i++) row(first + i, 2, 3, i);
    row(size - 1, 1, xrefAt, 0);
    const data = zlib.deflateSync(rows);
    return Buffer.concat([
      Buffer.from(
        `${size - 1} 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      ),
      data,
      Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
    ]);
  });
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG whose IHDR says width × height (8-bit greyscale) and whose IDAT holds only a few bytes. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
