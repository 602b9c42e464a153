/**
 * Reading an import's file (docs/decisions.md "Imports"): a CSV (any of , ; TAB | as delimiter, UTF-8 with or
 * without a byte-order mark, quoted fields) or an XLSX workbook (the first sheet or the named one; formula cells as
 * their results, date cells as YYYY-MM-DD). The content must be what the extension says (documents.content.ts); an
 * XLSX is a zip, so its inflated size is checked with the backups' zip-bomb guard before ExcelJS opens it.
 * Answers the header row and the data rows as text cells, each with its spreadsheet row number.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { IMPORT_MAX_ROWS, IMPORT_STRINGS } from '@lm/shared';
import { AppError, badRequest } from '../../base/errors.ts';
import { detectedType, extensionOf, inspector } from '../documents/documents.content.ts';
import { checkZipInflation, UPLOAD_INFLATION_RATIO } from '../backups/backups.archive.ts';

export interface ReadSheet {
  headers: string[];
  rows: Array<{ row: number; cells: string[] }>;
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter of a CSV: the candidate found most often outside quotes in its first line. */
function detectDelimiter(text: string): string {
  let quoted = false;
  const counts = new Map<string, number>();
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    if ((counts.get(d) ?? 0) > most) {
      best = d;
      most = counts.get(d)!;
    }
  }
  return best;
}

/** Header names made unique and never blank ("Column 3", "Email (2)"): the mapping is keyed by them. */
function cleanHeaders(raw: string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((h, i) => {
    const base = h.replace(/\s+/g, ' ').trim().slice(0, 200) || `Column ${i + 1}`;
    const n = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

function sheetOf(records: Array<{ row: number; cells: string[] }>): ReadSheet {
  const data = records.filter((r) => r.cells.some((c) => c.trim() !== ''));
  const header = data.shift();
  if (!header) throw badRequest(IMPORT_STRINGS.emptyFile);
  if (data.length === 0) throw badRequest(IMPORT_STRINGS.noRows);
  if (data.length > IMPORT_MAX_ROWS) throw badRequest(IMPORT_STRINGS.tooManyRows(IMPORT_MAX_ROWS));
  // Trailing blank header cells with no data under them are dropped.
  let width = header.cells.length;
  while (width > 0 && header.cells[width - 1]!.trim() === '' && data.every((r) => !(r.cells[width - 1] ?? '').trim())) width--;
  const headers = cleanHeaders(header.cells.slice(0, width));
  return { headers, rows: data.map((r) => ({ row: r.row, cells: headers.map((_, i) => (r.cells[i] ?? '').trim()) })) };
}

function readCsv(buf: Buffer): ReadSheet {
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }) as string[][];
  } catch (err) {
    throw badRequest(`The CSV file could not be read: ${(err as Error).message.split('\n')[0]}`);
  }
  return sheetOf(records.map((cells, i) => ({ row: i + 1, cells })));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as text: a date as YYYY-MM-DD, a formula as its result, rich text and links as their text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  if (typeof value === 'object') {
    if ('result' in value) return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return cellText((value as { text: ExcelJS.CellValue }).text);
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

async function readXlsx(buf: Buffer, maxBytes: number, sheet: string | undefined): Promise<ReadSheet> {
  // The zip-bomb guard reads from a file: the upload is written to a private temporary one, removed at once after.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lm-import-'));
  const file = path.join(dir, `${crypto.randomUUID()}.xlsx`);
  try {
    await fs.writeFile(file, buf, { mode: 0o600 });
    await checkZipInflation(file, maxBytes * UPLOAD_INFLATION_RATIO, {
      notZip: 'The file is not a readable Excel workbook (.xlsx)',
      tooLarge: `The workbook unpacks to more than ${UPLOAD_INFLATION_RATIO} times the upload limit: it is refused as a possible zip bomb`,
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badRequest('The file is not a readable Excel workbook (.xlsx)');
  }
  const ws = sheet ? workbook.getWorksheet(sheet) : workbook.worksheets[0];
  if (!ws) throw badRequest(sheet ? IMPORT_STRINGS.noSheet(sheet) : IMPORT_STRINGS.emptyFile);
  if (ws.actualRowCount > IMPORT_MAX_ROWS + 1) throw badRequest(IMPORT_STRINGS.tooManyRows(IMPORT_MAX_ROWS));
  const records: Array<{ row: number; cells: string[] }> = [];
  ws.eachRow({ includeEmpty: false }, (r, rowNumber) => {
    const cells: string[] = [];
    r.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cellText(cell.value);
    });
    records.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
  });
  return sheetOf(records);
}

/** Reads an uploaded file (400 with a message for anything that is not a CSV or XLSX it can read). */
export async function readImportFile(fileName: string, buf: Buffer, maxBytes: number, sheet?: string): Promise<ReadSheet> {
  if (buf.length === 0) throw badRequest(IMPORT_STRINGS.emptyFile);
  const ext = extensionOf(fileName);
  if (ext !== 'csv' && ext !== 'xlsx' && ext !== 'txt' && ext !== 'tsv') throw badRequest(IMPORT_STRINGS.unsupported);
  // The same content check as documents (a PNG named .csv is refused): text types must be UTF-8 without NUL bytes.
  const look = inspector();
  await pipeline(
    Readable.from([buf]),
    look.stream,
    new Writable({
      write(_c, _e, cb) {
        cb();
      },
    }),
  );
  await detectedType(fileName, ext === 'xlsx' ? 'xlsx' : 'csv', look.head(), look.isText());
  if (ext === 'xlsx') return readXlsx(buf, maxBytes, sheet);
  if (buf.length > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than the upload limit');
  return readCsv(buf);
}
