/**
 * What the rows of an import become, field by field (docs/decisions.md "Imports"): the mapping guessed from the
 * headers (the synonym lists of shared/src/imports.ts, the one place), each row's values by field, and zod issues
 * of the single-object schemas turned into {column, message} naming the column and the value.
 */
import type { ZodError } from 'zod';
import {
  IMPORT_FIELDS,
  normaliseHeader,
  readSpreadsheetDate,
  type DateFormat,
  type ImportAction,
  type ImportKind,
  type ImportMapping,
  type ImportRowError,
} from '@lm/shared';

/** The mapping guessed from the headers: each field to the first header among its synonyms, once. */
export function guessMapping(kind: ImportKind, headers: string[]): ImportMapping {
  const mapping: ImportMapping = {};
  const taken = new Set<string>();
  for (const header of headers) mapping[header] = null;
  const normalised = headers.map(normaliseHeader);
  // Exact synonyms first, field by field in the kind's order.
  for (const field of IMPORT_FIELDS[kind]) {
    const i = normalised.findIndex((h, j) => mapping[headers[j]!] === null && field.synonyms.includes(h));
    if (i >= 0 && !taken.has(field.id)) {
      mapping[headers[i]!] = field.id;
      taken.add(field.id);
    }
  }
  return mapping;
}

/** A mapping as sent, kept to this file's headers and this kind's fields (each field once). */
export function cleanMapping(kind: ImportKind, headers: string[], wanted: ImportMapping): { mapping: ImportMapping; problems: string[] } {
  const ids = new Set(IMPORT_FIELDS[kind].map((f) => f.id));
  const mapping: ImportMapping = {};
  const problems: string[] = [];
  const used = new Map<string, string>();
  for (const header of headers) {
    const id = wanted[header] ?? null;
    if (id !== null && !ids.has(id)) problems.push(`"${id}" is not a field of a ${kind} import (column "${header}")`);
    else if (id !== null && used.has(id))
      problems.push(`Columns "${used.get(id)}" and "${header}" are both mapped to ${labelOf(kind, id)}`);
    else if (id !== null) used.set(id, header);
    mapping[header] = id !== null && ids.has(id) ? id : null;
  }
  for (const header of Object.keys(wanted)) if (!headers.includes(header)) problems.push(`The file has no column "${header}"`);
  return { mapping, problems };
}

export function labelOf(kind: ImportKind, fieldId: string): string {
  return IMPORT_FIELDS[kind].find((f) => f.id === fieldId)?.label ?? fieldId;
}

/** One row's values by field id, with the column each came from. */
export class RowValues {
  readonly errors: ImportRowError[] = [];
  constructor(
    readonly kind: ImportKind,
    private readonly byField: Map<string, { column: string; value: string }>,
    readonly row: number,
  ) {}

  static of(kind: ImportKind, headers: string[], mapping: ImportMapping, cells: string[], row: number): RowValues {
    const byField = new Map<string, { column: string; value: string }>();
    headers.forEach((h, i) => {
      const id = mapping[h];
      if (id) byField.set(id, { column: h, value: (cells[i] ?? '').trim() });
    });
    return new RowValues(kind, byField, row);
  }

  /** The value ('' when blank or not mapped). */
  get(id: string): string {
    return this.byField.get(id)?.value ?? '';
  }

  has(id: string): boolean {
    return this.get(id) !== '';
  }

  /** The column a field was read from (its label when it is not mapped). */
  column(id: string): string {
    return this.byField.get(id)?.column ?? labelOf(this.kind, id);
  }

  fail(id: string, message: string): void {
    this.errors.push({ column: this.column(id), message });
  }

  /** A date field as YYYY-MM-DD, undefined when blank, null (and an error) when it cannot be read. */
  date(id: string, format: DateFormat): string | undefined | null {
    const v = this.get(id);
    if (!v) return undefined;
    const read = readSpreadsheetDate(v, format);
    if ('error' in read) {
      this.fail(id, read.error);
      return null;
    }
    return read.date;
  }

  /** A number field, undefined when blank; the text as it is when it is not a number (the schema says why). */
  number(id: string): number | string | undefined {
    const v = this.get(id).replace(/,/g, '');
    if (!v) return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : this.get(id);
  }

  /** The schema's issues on this row, each on the column its field came from, with the value. */
  issues(error: ZodError, fieldOf: (path: string) => string): void {
    for (const issue of error.issues) {
      const id = fieldOf(String(issue.path[0] ?? ''));
      const value = this.get(id);
      this.fail(id, value ? `${issue.message} ("${value}")` : issue.message);
    }
  }

  /** Errors for the required fields left blank (or not mapped). */
  requireFields(): void {
    for (const f of IMPORT_FIELDS[this.kind]) {
      if (f.required && !this.has(f.id)) {
        this.fail(f.id, this.byField.has(f.id) ? `${f.label} is required` : `No column is mapped to ${f.label}`);
      }
    }
  }
}

/** A row's result in the preview. */
export interface RowResult {
  row: number;
  action: ImportAction;
  summary: string | null;
  errors: ImportRowError[];
}

/** Values of one match on a case: the first of `options` equal to `value` ignoring case, else the value. */
export function matchOption<T extends string>(value: string, options: readonly T[]): T | string {
  return options.find((o) => o.toLowerCase() === value.toLowerCase()) ?? value;
}

/** Splits a list into chunks (bulk lookups and inserts stay within the engines' parameter limits). */
export function chunks<T>(list: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
