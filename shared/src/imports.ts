/**
 * Imports (docs/product.md "Imports", docs/decisions.md "Imports"): a roster or a School's completions read from a
 * CSV or XLSX file, previewed row by row, committed as one audited batch and undone as one. The kinds, the fields
 * each maps with their header synonyms (the one list the mapping is guessed from), and the API's shapes.
 */
import { z } from 'zod';
import { singleLine } from './text.ts';
import { cursorParam, idParam, isCalendarDate, paginationSchema } from './common.ts';
import type { DateFormat } from './dates.ts';
import type { RoleName } from './roles.ts';

export const IMPORT_KINDS = ['roster', 'completions'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_STATUSES = ['previewed', 'committed', 'undone'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_ACTIONS = ['create', 'update', 'unchanged', 'error'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

/** The role of a roster row without one (a roster lists the office's agents). */
export const IMPORT_DEFAULT_ROLE: RoleName = 'Agent';

/** At most this many data rows in one file (docs/decisions.md "Imports"). */
export const IMPORT_MAX_ROWS = 50_000;
/** Sample values shown per column in the mapping table. */
export const IMPORT_SAMPLES = 3;
export const IMPORT_PAGE_SIZE = 50;

export interface ImportField {
  id: string;
  label: string;
  required: boolean;
  /** Header words that mean this field, normalised (lower case, letters and digits only): see normaliseHeader. */
  synonyms: readonly string[];
}

/** What a header is compared as: lower case, letters and digits only ("E-mail Address" → "emailaddress"). */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .toLowerCase()
    .replace(/#/g, 'number')
    .replace(/[^a-z0-9]/g, '');
}

const f = (id: string, label: string, required: boolean, synonyms: string[]): ImportField => ({
  id,
  label,
  required,
  synonyms: [id, label, ...synonyms].map(normaliseHeader),
});

const EMAIL_SYNONYMS = ['E-mail', 'Email Address', 'E-mail Address', 'Mail', 'Work Email', 'Agent Email'];
const LICENSE_KEY_FIELDS = {
  license_number: f('license_number', 'License Number', false, [
    'License #',
    'License No',
    'Lic No',
    'Lic #',
    'Lic Number',
    'License',
    'Licence Number',
    'License ID',
  ]),
  state: f('state', 'State', false, ['License State', 'St', 'Licensing State', 'State Code']),
};

/** The fields each kind maps, in the template's column order. */
export const IMPORT_FIELDS: Readonly<Record<ImportKind, readonly ImportField[]>> = {
  roster: [
    f('first_name', 'First Name', true, ['First', 'Given name', 'Given', 'Firstname', 'Forename']),
    f('last_name', 'Last Name', true, ['Last', 'Surname', 'Family name', 'Lastname']),
    f('email', 'Email', true, EMAIL_SYNONYMS),
    f('phone_number', 'Phone', false, ['Phone Number', 'Mobile', 'Cell', 'Office', 'Office Phone', 'Telephone', 'Tel']),
    f('role', 'Role', false, ['User Role', 'Position']),
    f('brokerage', 'Brokerage', false, ['Brokerage Name', 'Office Name', 'Company', 'Firm']),
    LICENSE_KEY_FIELDS.license_number,
    LICENSE_KEY_FIELDS.state,
    f('license_type', 'License Type', false, ['Type', 'Lic Type']),
    f('issue_date', 'Issue Date', false, ['Issued', 'Issued On', 'Date Issued', 'Original Issue Date']),
    f('expiration_date', 'Expiration Date', false, [
      'Expires',
      'Exp. Date',
      'Exp Date',
      'Expiration',
      'Expiry',
      'Expiry Date',
      'Expires On',
    ]),
    f('status', 'Status', false, ['License Status']),
    f('ce_hours_required', 'CE Hours Required', false, ['CE Hours', 'Hours Required', 'CE Required', 'Required Hours']),
  ],
  completions: [
    // Not required alone: a holder is found by e-mail or by license number + state.
    f('email', 'Email', false, EMAIL_SYNONYMS),
    LICENSE_KEY_FIELDS.license_number,
    LICENSE_KEY_FIELDS.state,
    f('course', 'Course', false, ['Course Name', 'Course Title', 'Title', 'Class', 'Class Name']),
    f('approval_number', 'Approval Number', false, [
      'Approval #',
      'Approval No',
      'State Approval Number',
      'Course Approval #',
      'Course Number',
    ]),
    f('completion_date', 'Completion Date', true, ['Completed', 'Completed On', 'Date Completed', 'Date']),
    f('hours', 'Hours', false, ['CE Hours', 'Credit Hours', 'Credits']),
  ],
};

export const IMPORT_STRINGS = {
  title: 'Import',
  kinds: { roster: 'Roster (people and licenses)', completions: 'Completions' } satisfies Record<ImportKind, string>,
  noFile: 'Choose a CSV or Excel (.xlsx) file to import',
  emptyFile: 'The file is empty: it has no header row and no data rows',
  noRows: 'The file has a header row but no data rows',
  tooManyRows: (max: number) => `The file has more than ${max.toLocaleString('en-US')} rows; split it into smaller files`,
  unsupported: 'Only CSV and Excel (.xlsx) files can be imported',
  noSheet: (name: string) => `The workbook has no sheet named "${name}"`,
  notCommitted: 'Only a committed import can be undone',
  alreadyCommitted: 'This import has already been committed',
  notPreviewed: 'This import is no longer a preview: its mapping cannot change',
  missingRequired: (labels: string[]) => `Map a column to ${labels.join(', ')} before committing`,
  changedSince: (rows: number[]) =>
    `Cannot undo: ${rows.length === 1 ? 'row' : 'rows'} ${rows.slice(0, 20).join(', ')}${rows.length > 20 ? '…' : ''} changed since the import (edited or used elsewhere). Change them back or remove them one by one.`,
  committed: (n: number) => `Import committed: ${n} ${n === 1 ? 'row' : 'rows'} written`,
  undone: 'Import undone',
  reasonColumn: 'Reason',
  rowColumn: 'Row',
} as const;

export const importKindSchema = z.enum(IMPORT_KINDS, { error: 'Kind must be roster or completions' });

/** Column header → field id (or null: not imported). */
const FIELD_IDS = [...new Set(Object.values(IMPORT_FIELDS).flatMap((fields) => fields.map((x) => x.id)))] as [string, ...string[]];
export const importMappingSchema = z.record(
  singleLine(200),
  z.enum(FIELD_IDS, { error: 'Each column maps to one of the fields of the import, or to nothing' }).nullable(),
);
export type ImportMapping = z.infer<typeof importMappingSchema>;

export const importRowErrorSchema = z.object({ column: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const importCountsSchema = z.object({
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  error: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

export const importPreviewRowSchema = z.object({
  /** The row's line in the spreadsheet (the header is row 1, the first data row 2). */
  row: z.number().int(),
  action: z.enum(IMPORT_ACTIONS),
  /** What the row creates or changes, in words ("Ann Lee · CA 01234567"). */
  summary: z.string().optional(),
  errors: z.array(importRowErrorSchema),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

export const importPreviewSchema = z.object({
  import_id: z.number().int(),
  kind: z.enum(IMPORT_KINDS),
  status: z.enum(IMPORT_STATUSES),
  file_name: z.string(),
  columns: z.array(z.object({ name: z.string(), samples: z.array(z.string()) })),
  mapping: importMappingSchema,
  /** The fields of this kind, for the mapping table's selects. */
  fields: z.array(z.object({ id: z.string(), label: z.string(), required: z.boolean() })),
  counts: importCountsSchema,
  rows: z.array(importPreviewRowSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  /** Rows matching the filter (all rows without one). */
  total_rows: z.number().int(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importListItemSchema = z.object({
  import_id: z.number().int(),
  kind: z.enum(IMPORT_KINDS),
  status: z.enum(IMPORT_STATUSES),
  file_name: z.string(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string(),
  created_at: z.string(),
  committed_at: z.string().nullable(),
  undone_at: z.string().nullable(),
  counts: importCountsSchema,
});
export type ImportListItem = z.infer<typeof importListItemSchema>;

export const importListQuery = z.object({
  kind: z.enum(IMPORT_KINDS).optional(),
  page: z.coerce.number().int().min(1).default(1),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type ImportListQuery = z.input<typeof importListQuery>;
export const importListOutput = z.object({ imports: z.array(importListItemSchema), pagination: paginationSchema });
export type ImportListOutput = z.infer<typeof importListOutput>;

export const importGetInput = z.object({
  id: idParam,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(IMPORT_PAGE_SIZE),
  filter: z.enum(IMPORT_ACTIONS).optional(),
});
export type ImportGetInput = z.input<typeof importGetInput>;

export const importMappingInput = z.object({ id: idParam, mapping: importMappingSchema });
export type ImportMappingInput = z.input<typeof importMappingInput>;

export const importIdInput = z.object({ id: idParam });

export const importCommitOutput = z.object({
  import_id: z.number().int(),
  status: z.enum(IMPORT_STATUSES),
  counts: importCountsSchema,
  /** Rows written (created + updated). */
  written: z.number().int(),
  message: z.string(),
});
export type ImportCommitOutput = z.infer<typeof importCommitOutput>;

export const importUndoOutput = z.object({
  import_id: z.number().int(),
  status: z.enum(IMPORT_STATUSES),
  removed: z.number().int(),
  restored: z.number().int(),
  message: z.string(),
});
export type ImportUndoOutput = z.infer<typeof importUndoOutput>;

/** The multipart fields of POST /api/imports beside the file. */
export const importUploadFields = z.object({
  kind: importKindSchema,
  sheet: z.string().trim().max(100).optional(),
  send_welcome: z
    .enum(['true', 'false', '1', '0', 'on', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1' || v === 'on'),
});

/** What a committed row wrote (kept on the server for undo): the objects it created, the ones it updated with their before-images. */
export interface ImportRowWritten {
  /** updated_at as written: a later change makes undo refuse the row. */
  created: Array<{ table: 'users' | 'licenses' | 'completions'; id: number; updated_at: string }>;
  /** The changed fields' values before the import, and updated_at after it. */
  updated: Array<{ table: 'users' | 'licenses'; id: number; before: Record<string, unknown>; updated_at: string }>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Excel's day 0 is 1899-12-30 (its 1900 leap-year bug included). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date cell as a spreadsheet holds it, read as YYYY-MM-DD (docs/decisions.md "Imports: dates"): 2026-11-05,
 * 11/05/2026 (month first when the office writes MM/DD/YYYY; with YYYY-MM-DD only when one part is over 12),
 * 5 Nov 2026, Nov 5, 2026, November 5 2026, and Excel serial numbers (1 to 2958465). Two-digit years and
 * slash dates the setting does not decide are refused with a message, never guessed.
 */
export function readSpreadsheetDate(value: string, format: DateFormat): { date: string } | { error: string } {
  const v = value.trim();
  const bad = { error: `"${v}" is not a date: use YYYY-MM-DD, MM/DD/YYYY or 5 Nov 2026` };
  const made = (y: number, m: number, d: number) => {
    const date = `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
    return isCalendarDate(date) ? { date } : { error: `"${v}" is not a real calendar date` };
  };
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+Z?)?$/.exec(v);
  if (m) return made(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(v);
  if (m) {
    if (m[3]!.length === 2)
      return { error: `"${v}" is ambiguous: write the year with four digits (for example ${m[1]}/${m[2]}/20${m[3]})` };
    const a = Number(m[1]);
    const b = Number(m[2]);
    const y = Number(m[3]);
    if (a > 12 && b <= 12) return made(y, b, a);
    if (b > 12 && a <= 12) return made(y, a, b);
    if (format === 'MM/DD/YYYY') return made(y, a, b);
    if (a === b) return made(y, a, b);
    return { error: `"${v}" is ambiguous (month and day could be either way): write it as YYYY-MM-DD` };
  }
  m = /^(\d{1,2})[\s-]+([a-z]{3,9})\.?,?[\s-]+(\d{4})$/i.exec(v);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase());
    return month < 0 ? bad : made(Number(m[3]), month + 1, Number(m[1]));
  }
  m = /^([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(v);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase());
    return month < 0 ? bad : made(Number(m[3]), month + 1, Number(m[2]));
  }
  if (/^\d{1,7}(\.\d+)?$/.test(v)) {
    const serial = Math.floor(Number(v));
    if (serial < 1 || serial > 2_958_465) return bad;
    const d = new Date(EXCEL_EPOCH_MS + serial * DAY_MS);
    return made(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  return bad;
}
