/** The one CSV reader of the tests, server and e2e (helpers.ts re-exports it): csv-parse, as a spreadsheet reads a file. */
import { parse } from 'csv-parse/sync';

/**
 * Rows of cells (RFC 4180: quoted cells, doubled quotes, CRLF or LF, a leading BOM). Every row must have as many
 * cells as the first: a ragged export fails the test that reads it.
 */
export function parseCsv(text: string): string[][] {
  return parse(text, { bom: true });
}
