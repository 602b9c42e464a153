/** GET /api/audit/logs/export: the Audit Logs screen's filtered, sorted view as CSV (Admin only). */
import { AUDIT_SORT_COLUMNS, auditLogsInput, auditUserLabel, type AuditLog, type AuditLogsInput } from '@lm/shared';
import { chunkOf, listExports } from '../../http/list-export.ts';
import { listLogs } from './audit.service.ts';

export const auditExport = listExports({
  path: '/audit/logs/export',
  name: 'audit_logs',
  action: 'audit.read',
  query: auditLogsInput,
  // The service takes any page size; the list's own 25/50/100 rule is the query schema's, not the chunk's.
  page: async (ctx, q: AuditLogsInput, cursor, limit) => {
    const p = await listLogs(ctx, { ...q, cursor, limit });
    return chunkOf(p.logs, p);
  },
  rows: 'One row per audit entry matching the filters of GET /audit/logs (user_id, action substring, target_table, start_date, end_date), in its sort and order (default newest first)',
  parameters: [
    ...['user_id', 'action', 'target_table', 'start_date', 'end_date'].map((name) => ({ name })),
    { name: 'sort', schema: { type: 'string', enum: [...AUDIT_SORT_COLUMNS] } },
    { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
  ],
  columns: [
    { header: 'Log ID', value: (l: AuditLog) => l.log_id },
    { header: 'Timestamp', value: (l: AuditLog) => l.timestamp },
    { header: 'User ID', value: (l: AuditLog) => l.user_id },
    // Who acted as stored with the entry (docs/decisions.md "Audit: who acted"), not today's user.
    { header: 'User', value: (l: AuditLog) => auditUserLabel(l) },
    { header: 'Email', value: (l: AuditLog) => l.actor_email },
    { header: 'Action', value: (l: AuditLog) => l.action },
    { header: 'Table', value: (l: AuditLog) => l.target_table },
    { header: 'Target ID', value: (l: AuditLog) => l.target_id },
    { header: 'IP Address', value: (l: AuditLog) => l.ip_address },
    { header: 'Old Values', value: (l: AuditLog) => l.old_values },
    { header: 'New Values', value: (l: AuditLog) => l.new_values },
  ],
});
