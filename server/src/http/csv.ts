/**
 * The one way the server answers a CSV file: rows stream through csv-stringify chunk by chunk with
 * backpressure (a slow client never makes the server hold the whole file), a byte-order mark so spreadsheet
 * programs read UTF-8 names, and every text cell a spreadsheet would run as a formula neutralised
 * (docs/security.md "Exports").
 */
import type { FastifyReply } from 'fastify';
import { stringify, type Stringifier } from 'csv-stringify';
import { neutraliseCsvCell } from '@lm/shared';

export type CsvCell = string | number | boolean | null | undefined;
export type CsvRow = Record<string, unknown>;

export interface CsvSource {
  /** Column keys of the rows and their header text, in file order. */
  columns: ReadonlyArray<{ key: string; header: string }>;
  /** The rows, a chunk at a time (each chunk read whole before it is yielded). */
  chunks: () => AsyncIterable<CsvRow[]>;
}

/** Resolves when the stream can take more, or is gone (client disconnected). */
function writable(csv: Stringifier): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      csv.off('drain', done);
      csv.off('close', done);
      resolve();
    };
    csv.once('drain', done);
    csv.once('close', done);
  });
}

/** Lets timers, I/O and other requests run before the next chunk (docs/security.md "Faults"). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function pump(source: CsvSource, csv: Stringifier): Promise<void> {
  try {
    for await (const chunk of source.chunks()) {
      for (const row of chunk) {
        if (csv.destroyed) return;
        if (!csv.write(row)) await writable(csv);
      }
      // On SQLite a page is read synchronously and a fast client drains at once, so without this a long export
      // would run chunk after chunk in microtasks and hold every other request until it ends.
      await nextTurn();
    }
    csv.end();
  } catch (err) {
    csv.destroy(err as Error);
  }
}

/** `source` as a CSV byte stream (an entry of a zip: the audit pack). */
export function csvStream(source: CsvSource): Stringifier {
  const csv = stringify({
    header: true,
    columns: source.columns.map((c) => ({ key: c.key, header: c.header })),
    bom: true,
    cast: { string: (value) => neutraliseCsvCell(value), boolean: (value) => (value ? 'Yes' : 'No') },
  });
  void pump(source, csv);
  return csv;
}

/** Answers `source` as a CSV attachment named `fileName`. */
export function sendCsv(reply: FastifyReply, source: CsvSource, fileName: string): FastifyReply {
  const csv = csvStream(source);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

/** One chunk of ready rows, for files small enough to build at once (a transcript). */
export const rowsSource = (columns: readonly string[], rows: CsvRow[]): CsvSource => ({
  columns: columns.map((c) => ({ key: c, header: c })),
  async *chunks() {
    yield rows;
  },
});
