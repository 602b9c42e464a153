/**
 * The audit-log domain: list and summary queries, the row shape, the action badge rule and the
 * screen's strings (docs/product.md sections 2, 3 and 9). The log is append-only: there is no write schema.
 */
import { z } from 'zod';
import { dateString, paginationSchema } from './common.ts';
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

export const auditLogsInput = z
  .object({
    user_id: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'User ID must be a number' }).int().positive().max(MAX_ID).optional()),
    /** Case-insensitive substring of the action ('create' finds create and bulk_create). */
    action: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
    target_table: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
    ...dateRange,
    page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, 'Page must be at least 1').optional()),
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

/** The User column: name, else email, else 'Unknown'. */
export function auditUserLabel(log: Pick<AuditLog, 'first_name' | 'last_name' | 'email'>): string {
  const name = [log.first_name, log.last_name].filter(Boolean).join(' ').trim();
  return name || log.email || 'Unknown';
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
  things: 'audit logs',
  detailTitle: 'Audit Log Details',
} as const;
