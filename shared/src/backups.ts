import { z } from 'zod';
import { singleLine } from './text.ts';
import { idParam, paginationSchema, cursorParam } from './common.ts';
import { BACKUP_STATUSES, BACKUP_TYPES } from './domain-constants.ts';

/** UI strings of the Backup & Restore screen (docs/product.md sections 2 and 8). */
export const BACKUP_STRINGS = {
  title: 'Backup & Restore',
  createBackup: 'Create Backup',
  uploadBackup: 'Upload Backup',
  createConfirm: 'Are you sure you want to create a new backup? This may take a few minutes.',
  deleteConfirm: 'Are you sure you want to delete this backup? This action cannot be undone.',
  restoreTitle: 'Restore Backup',
  restoreWarning:
    'Restoring replaces the current data of the selected groups with the data in this backup. ' +
    'Changes made since the backup in those groups will be lost. A safety backup is taken automatically first.',
  restoreButton: 'Restore',
  created: 'Backup created successfully!',
  restored: 'Backup restored successfully!',
  deleted: 'Backup deleted successfully!',
  downloaded: 'Backup downloaded successfully!',
  uploaded: 'Backup uploaded successfully!',
  createFailed: 'Failed to create backup',
  restoreFailed: 'Failed to restore backup',
  deleteFailed: 'Failed to delete backup',
  downloadFailed: 'Failed to download backup',
  uploadFailed: 'Failed to upload backup',
  uploadProgress: 'Backup upload progress',
  uploading: (name: string, percent: number) => `Uploading ${name}: ${percent}%`,
  uploadChecking: 'Uploaded; checking the backup (a big one takes a minute)…',
  fetchFailed: 'Failed to fetch backups',
  empty: 'No backups yet',
  things: 'backups',
  noGroup: 'Select at least one kind of data to restore',
} as const;

/**
 * The 413 of a backup upload over BACKUP_UPLOAD_LIMIT_MB (docs/decisions.md "Restore: big offices"); the Backups
 * screen says the same before sending a file it knows is too large.
 */
export const backupUploadTooLarge = (limitMb: number): string =>
  `The backup file is larger than the upload limit of ${limitMb} MB for backups (the server's BACKUP_UPLOAD_LIMIT_MB). ` +
  'A larger backup can be restored from a file on the server: npm run db:restore (see README).';

/** The data groups a restore can bring back, in the order the restore modal lists them. */
export const BACKUP_GROUPS = ['users', 'licenses', 'courses', 'payments', 'documents', 'brokerages', 'settings'] as const;
export type BackupGroup = (typeof BACKUP_GROUPS)[number];

export const BACKUP_GROUP_LABELS: Record<BackupGroup, string> = {
  users: 'Users',
  licenses: 'Licenses',
  courses: 'Courses and completions',
  payments: 'Payments',
  documents: 'Documents',
  brokerages: 'Brokerages',
  settings: 'System settings',
};

/**
 * What each group holds: the database tables a restore of it replaces, in words. The server restores exactly these
 * tables (backups.restore.ts); the restore modal lists the words. `beyondName` marks data a person would not expect
 * from the group's name: choosing such a group asks again before restoring. audit_logs is never restored
 * (append-only); backups describe files on disk.
 */
export const BACKUP_GROUP_CONTENTS: Record<BackupGroup, readonly { table: string; label: string; beyondName?: true }[]> = {
  users: [{ table: 'users', label: 'users' }],
  brokerages: [{ table: 'brokerages', label: 'brokerages' }],
  // The CE ledger's tables travel with the licenses (docs/decisions.md "CE ledger and cycles").
  licenses: [
    { table: 'licenses', label: 'licenses' },
    { table: 'license_cycles', label: 'renewals' },
    { table: 'ce_rules', label: 'CE rules', beyondName: true },
    { table: 'ce_adjustments', label: 'CE adjustments', beyondName: true },
  ],
  courses: [
    { table: 'courses', label: 'courses' },
    { table: 'completions', label: 'completions' },
  ],
  payments: [{ table: 'payments', label: 'payments' }],
  // The rows; their stored files come back through the file store (backups.service.ts restoreDocumentFiles).
  documents: [
    { table: 'documents', label: 'documents' },
    { table: 'document_versions', label: 'document versions' },
    { table: 'certificate_completions', label: 'links from certificates to completions', beyondName: true },
  ],
  settings: [{ table: 'settings', label: 'system settings' }],
};

/** "CE rules and CE adjustments": a list of labels as a sentence says it. */
function sentenceList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The restore modal's line under a group's name: "Contains licenses, renewals, CE rules, CE adjustments". */
export function backupGroupContents(group: BackupGroup): string {
  return `Contains ${BACKUP_GROUP_CONTENTS[group].map((c) => c.label).join(', ')}`;
}

/**
 * The second question when chosen groups hold more than their names say, or null when none does:
 * "Restoring Licenses also rolls back CE rules and CE adjustments to this backup."
 */
export function backupBeyondNameWarning(groups: readonly BackupGroup[]): string | null {
  const parts = groups.flatMap((g) => {
    const extra = BACKUP_GROUP_CONTENTS[g].filter((c) => c.beyondName).map((c) => c.label);
    return extra.length ? [`Restoring ${BACKUP_GROUP_LABELS[g]} also rolls back ${sentenceList(extra)} to this backup.`] : [];
  });
  return parts.length ? parts.join(' ') : null;
}

export const BACKUP_TYPE_LABELS: Record<(typeof BACKUP_TYPES)[number], string> = {
  manual: 'Manual',
  automatic: 'Automatic',
  safety: 'Safety',
  uploaded: 'Uploaded',
};

/** One backup as the list and every mutation answer it. */
export const backupSchema = z.object({
  id: z.number().int(),
  description: z.string(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  size: z.number().int(),
  status: z.enum(BACKUP_STATUSES),
  type: z.enum(BACKUP_TYPES),
  include_files: z.boolean(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  error: z.string().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

export const backupListSchema = z.object({
  total: z.number().int(),
  completed: z.number().int(),
  in_progress: z.number().int(),
  total_size: z.number().int(),
  backups: z.array(backupSchema),
});
export type BackupList = z.infer<typeof backupListSchema>;

export const createBackupInput = z.object({
  description: singleLine({ max: 500, tooLong: 'Description must be at most 500 characters' }).optional().default(''),
  include_files: z.boolean().optional().default(true),
});
export type CreateBackupInput = z.input<typeof createBackupInput>;

/** One flag per group; omitted flags are false, and at least one must be true. */
export const restoreFlagsSchema = z.object({
  include_users: z.boolean().optional().default(false),
  include_licenses: z.boolean().optional().default(false),
  include_courses: z.boolean().optional().default(false),
  include_payments: z.boolean().optional().default(false),
  include_documents: z.boolean().optional().default(false),
  include_brokerages: z.boolean().optional().default(false),
  include_settings: z.boolean().optional().default(false),
});
export type RestoreFlags = z.infer<typeof restoreFlagsSchema>;

export const restoreBackupInput = restoreFlagsSchema.extend({ id: idParam });
export type RestoreBackupInput = z.input<typeof restoreBackupInput>;

/** The groups chosen by a set of restore flags, in BACKUP_GROUPS order. */
export function chosenGroups(flags: Partial<Record<`include_${BackupGroup}`, boolean | undefined>>): BackupGroup[] {
  return BACKUP_GROUPS.filter((g) => flags[`include_${g}`] === true);
}

export const restoreResultSchema = z.object({
  success: z.literal(true),
  backup_id: z.number().int(),
  safety_backup_id: z.number().int(),
  restored: z.array(z.enum(BACKUP_GROUPS)),
  /** Rows now in each restored table. */
  row_counts: z.record(z.string(), z.number().int()),
  /** References in other data that pointed at rows no longer present and were cleared ("table.column": n). */
  references_cleared: z.record(z.string(), z.number().int()),
  /** True when the caller's own session was ended (users were restored and the caller is not the same Admin in the backup). */
  signed_out: z.boolean(),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;

/** Answer of POST /api/admin/backups/upload: the imported backup, plus the restore result when one was asked for. */
export const uploadResultSchema = backupSchema.extend({ restore: restoreResultSchema.optional() });
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const backupIdInput = z.object({ id: idParam });

/** File name of a backup's zip, in $DATA_DIR/backups and as the download name. */
export const backupFileName = (id: number) => `backup_${id}.zip`;

const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/**
 * Backup sizes (docs/product.md section 9): Bytes, KB, MB or GB with 2 decimals (1024-based). Whole bytes
 * need no decimals; sizes beyond GB stay in GB.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  if (i === 0) return `${Math.round(bytes)} Bytes`;
  return `${(bytes / 1024 ** i).toFixed(2)} ${UNITS[i]}`;
}

/** The backups list's sort keys: the name (description), date, size, status and type; ties by id. */
export const BACKUP_SORT_COLUMNS = ['description', 'created_at', 'size', 'status', 'type'] as const;
export type BackupSortColumn = (typeof BACKUP_SORT_COLUMNS)[number];

/** GET /admin/backups/page and its CSV export (clients omit empty values). */
export const backupPageQuery = z.object({
  /** Description or creator's name, case-insensitive substring. */
  search: singleLine(200).optional(),
  status: z.enum(BACKUP_STATUSES).optional(),
  type: z.enum(BACKUP_TYPES).optional(),
  /** Default created_at, newest first. */
  sort: z.enum(BACKUP_SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type BackupPageQuery = z.infer<typeof backupPageQuery>;

/** The cards' figures (every backup, whatever the filters). */
export const backupTotalsSchema = backupListSchema.omit({ backups: true });
export type BackupTotals = z.infer<typeof backupTotalsSchema>;

export const backupPageOutput = z.object({
  backups: z.array(backupSchema),
  pagination: paginationSchema,
  totals: backupTotalsSchema,
  /** The largest backup zip POST /admin/backups/upload accepts, in MB (BACKUP_UPLOAD_LIMIT_MB). */
  upload_limit_mb: z.number().int().positive(),
});
export type BackupPage = z.infer<typeof backupPageOutput>;
