/**
 * The audit-log domain: list and summary queries, the row shape, the action badge rule and the
 * screen's strings (docs/product.md sections 2, 3 and 9). The log is append-only: there is no write schema.
 */
import { z } from 'zod';
import { singleLine } from './text.ts';
import { cursorParam, dateString, paginationSchema } from './common.ts';
import { MAX_ID } from './common.ts';

export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_AUDIT_PAGE_SIZE = 50;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const optionalDate = z.preprocess(emptyToUndefined, dateString.optional());

/** Shared by the list and the summary: an inclusive calendar-date range in the office's calendar. */
const dateRange = {
  start_date: optionalDate,
  end_date: optionalDate,
};

/**
 * The audit list's sort keys (its columns). timestamp, action, target_table and user (the acting user's id)
 * read their (column, timestamp, log_id) index in order; target_id and ip_address have no index and are
 * sorted with a bounded top-N sort (docs/decisions.md "Audit log sort"). Ties: timestamp, then log_id.
 */
export const AUDIT_SORT_COLUMNS = ['timestamp', 'user', 'action', 'target_table', 'target_id', 'ip_address'] as const;
export type AuditSortColumn = (typeof AUDIT_SORT_COLUMNS)[number];

/** A sort that no index serves is done only over a view of at most this many entries (docs/decisions.md "Audit log sort"). */
export const AUDIT_SORT_BOUND = 10_000;

export const AUDIT_SORT_LABELS: Record<AuditSortColumn, string> = {
  timestamp: 'Timestamp',
  user: 'User',
  action: 'Action',
  target_table: 'Table',
  target_id: 'Target ID',
  ip_address: 'IP Address',
};

/**
 * True when an index reads the view in this sort's order, at any size: newest or oldest first always; User,
 * Action and Table when the only filter is on that same column. Any other sort of a view needs a sort step
 * and is allowed up to AUDIT_SORT_BOUND entries.
 */
export function auditSortIndexed(
  sort: AuditSortColumn,
  f: { user_id?: unknown; action?: unknown; target_table?: unknown; start_date?: unknown; end_date?: unknown },
): boolean {
  const others = (own: 'user_id' | 'action' | 'target_table' | null) =>
    (['user_id', 'action', 'target_table', 'start_date', 'end_date'] as const).some((k) => k !== own && f[k] !== undefined && f[k] !== '');
  switch (sort) {
    case 'timestamp':
      return true;
    case 'user':
      return !others('user_id');
    case 'action':
      return !others('action');
    case 'target_table':
      return !others('target_table');
    default:
      return false;
  }
}

/** The 400 of a sort over a view too large to sort without an index. */
export const auditSortTooLarge = (sort: AuditSortColumn) =>
  `Sorting by ${AUDIT_SORT_LABELS[sort]} needs a narrower view: filter to ${AUDIT_SORT_BOUND.toLocaleString('en-US')} entries or fewer (this view has more)`;

export const auditLogsInput = z
  .object({
    user_id: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'User ID must be a number' }).int().positive().max(MAX_ID).optional()),
    /** Case-insensitive substring of the action ('create' finds create and bulk_create). */
    action: z.preprocess(emptyToUndefined, singleLine(100).optional()),
    target_table: z.preprocess(emptyToUndefined, singleLine(100).optional()),
    ...dateRange,
    /** Default timestamp, newest first. */
    sort: z.preprocess(emptyToUndefined, z.enum(AUDIT_SORT_COLUMNS, `Sort must be one of: ${AUDIT_SORT_COLUMNS.join(', ')}`).optional()),
    order: z.preprocess(emptyToUndefined, z.enum(['asc', 'desc'], 'Order must be asc or desc').optional()),
    page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, 'Page must be at least 1').optional()),
    cursor: cursorParam,
    limit: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .int()
        .refine((n) => (AUDIT_PAGE_SIZES as readonly number[]).includes(n), 'Limit must be 25, 50 or 100')
        .optional(),
    ),
  })
  .optional();
export type AuditLogsInput = z.output<typeof auditLogsInput>;

export const auditSummaryInput = z.object(dateRange).optional();
export type AuditSummaryInput = z.output<typeof auditSummaryInput>;

export const auditLogSchema = z.object({
  log_id: z.number().int(),
  timestamp: z.string(),
  user_id: z.number().int().nullable(),
  /**
   * Who acted, as they were when the entry was written (docs/decisions.md "Audit: who acted"): the name
   * (`first_name last_name`), 'System' for the system's own actions, null when nobody is known; and the e-mail.
   */
  actor_name: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** The earlier shape, from the same snapshot: actor_name split at its first space, and actor_email. */
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  action: z.string(),
  target_table: z.string().nullable(),
  target_id: z.number().int().nullable(),
  ip_address: z.string().nullable(),
  /** JSON text, secrets removed when written. */
  old_values: z.string().nullable(),
  new_values: z.string().nullable(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

export const auditLogsOutput = z.object({ logs: z.array(auditLogSchema), pagination: paginationSchema });
export type AuditLogsPage = z.infer<typeof auditLogsOutput>;

export const auditSummaryOutput = z.object({
  total_logs: z.number().int(),
  unique_users: z.number().int(),
  /** Every action in the period with its count, most frequent first. */
  top_actions: z.array(z.object({ action: z.string(), count: z.number().int() })),
  /** Every table in the period with its count, most frequent first. */
  top_tables: z.array(z.object({ target_table: z.string(), count: z.number().int() })),
});
export type AuditSummary = z.infer<typeof auditSummaryOutput>;

/** Badge colour by substring of the action (docs/product.md section 2); 'login_failed' is a login. */
export function auditActionColor(action: string): 'green' | 'yellow' | 'red' | 'blue' | 'gray' {
  const a = action.toLowerCase();
  if (a.includes('create')) return 'green';
  if (a.includes('update')) return 'yellow';
  if (a.includes('delete')) return 'red';
  if (a.includes('login')) return 'blue';
  return 'gray';
}

/** The User column: the stored name, else the stored e-mail, else 'Unknown'. */
export function auditUserLabel(log: Pick<AuditLog, 'actor_name' | 'actor_email'>): string {
  return log.actor_name?.trim() || log.actor_email || AUDIT_STRINGS.unknownUser;
}

/** first_name and last_name of the earlier answer shape, from the stored name: split at its first space. */
export function splitAuditName(name: string | null): { first_name: string | null; last_name: string | null } {
  if (name === null) return { first_name: null, last_name: null };
  const at = name.indexOf(' ');
  return at < 0 ? { first_name: name, last_name: null } : { first_name: name.slice(0, at), last_name: name.slice(at + 1) };
}

/** Old/new values as formatted JSON for the detail modal; text that is not JSON is shown as is. */
export function formatAuditJson(value: string | null): string {
  if (value === null || value === '') return 'None';
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

export const AUDIT_STRINGS = {
  title: 'Audit Logs',
  totalLogs: 'Total Logs',
  activeUsers: 'Active Users',
  actionTypes: 'Action Types',
  tablesModified: 'Tables Modified',
  clearFilters: 'Clear Filters',
  refresh: 'Refresh',
  unknownUser: 'Unknown',
  empty: 'No audit logs found',
  fetchLogsFailed: 'Failed to fetch audit logs',
  fetchSummaryFailed: 'Failed to fetch audit summary',
  things: 'entries',
  detailTitle: 'Audit Log Details',
} as const;
