/** The import screen's own words (docs/product.md "Imports", "The import screen"); the API's are IMPORT_STRINGS. */
import type { ImportAction, ImportKind, ImportStatus } from '@lm/shared';

export const IMPORT_SCREEN = {
  title: 'Imports',
  description: {
    roster: 'People and their licenses from a spreadsheet',
    completions: 'CE completions of your courses from a spreadsheet',
  } satisfies Record<ImportKind, string>,
  newTab: 'New import',
  historyTab: 'History',
  kindLabel: 'What to import',
  uploadTitle: '1. Upload the file',
  uploadHelp: 'A CSV (any delimiter) or Excel (.xlsx) file whose first row holds the column names. Nothing is written until you commit.',
  dropHint: 'Drag a CSV or Excel file here, or',
  choose: 'Choose a file',
  chooseAnother: 'Choose another file',
  template: 'Download template',
  sheet: 'Sheet',
  sheetHint: 'The first sheet when left empty',
  sendWelcome: 'Send the welcome e-mail to the people this import creates',
  upload: 'Upload and preview',
  uploadProgress: 'Upload progress',
  mappingTitle: '2. Match the columns',
  mappingHelp: 'Each column of your file and what it imports as. Changing one recomputes the preview.',
  fileColumn: 'Column in your file',
  importsAs: 'Imports as',
  noSamples: 'No values in the first rows',
  missing: (labels: string[]) => `Required fields not matched yet: ${labels.join(', ')}`,
  previewTitle: '3. Check the preview',
  previewHelp: 'What each row would do. Rows with errors are skipped; download them after the import to fix and upload again.',
  show: 'Show',
  allRows: 'All rows',
  emptyRows: 'No rows to show',
  commitTitle: '4. Import',
  commit: (n: number) => `Import ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`,
  nothingToWrite: 'No row would change anything: there is nothing to import.',
  onlyErrors: 'No row can be imported: fix the rows with errors in your file and upload it again, or change the matching above.',
  committing: (n: number) => `Writing ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}…`,
  committingLabel: 'Writing the rows',
  resultTitle: 'Import complete',
  undoneTitle: 'Import undone',
  downloadErrors: 'Download errors file',
  anotherFile: 'Import another file',
  viewHistory: 'View import history',
  undo: 'Undo',
  undoConfirm: (file: string) =>
    `Undo the import of ${file}? The people, licenses and completions it created are removed and what it updated is put back as it was.`,
  undoFailed: 'Failed to undo the import',
  open: 'Open',
  historyEmpty: 'No imports yet',
  historyThings: 'imports',
  rowsThings: 'rows',
  none: 'You have nothing to import: imports are for Admins, Brokers and Schools.',
} as const;

/** A preview row's action: its word, colour and icon name (docs/product.md "Imports"). */
export const ACTION_LABELS: Record<ImportAction, string> = { create: 'New', update: 'Update', unchanged: 'Unchanged', error: 'Error' };
export const ACTION_COLORS: Record<ImportAction, string> = { create: 'green', update: 'blue', unchanged: 'gray', error: 'red' };
/** The preview's filter choices (the action names as the API takes them). */
export const FILTER_OPTIONS = [
  { value: 'error', label: 'Errors' },
  { value: 'create', label: 'New' },
  { value: 'update', label: 'Updated' },
  { value: 'unchanged', label: 'Unchanged' },
];

export const STATUS_LABELS: Record<ImportStatus, string> = { previewed: 'Previewed', committed: 'Committed', undone: 'Undone' };
export const STATUS_COLORS: Record<ImportStatus, string> = { previewed: 'gray', committed: 'green', undone: 'orange' };
export const KIND_LABELS: Record<ImportKind, string> = { roster: 'Roster', completions: 'Completions' };
