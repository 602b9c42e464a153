/**
 * The audit screen's reads. The log itself is written only by core/audit.ts inside each change's
 * transaction; nothing here (or anywhere in the product) updates or deletes it.
 */
import {
  AUDIT_SORT_BOUND,
  auditSortIndexed,
  auditSortTooLarge,
  DEFAULT_AUDIT_PAGE_SIZE,
  makePagination,
  REPORT_STRINGS,
  type AuditLogsInput,
  type AuditLogsPage,
  type AuditSummary,
  type AuditSummaryInput,
} from '@lm/shared';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../base/errors.ts';
import { dayEndExclusiveIso, dayStartIso } from '../reports/period.ts';
import { countLogs, countsBy, countUsers, distinctActions, pageOfLogs, type AuditFilter } from './audit.queries.ts';
import { invalidCursor, encodeCursor, pageWindow, readAfter } from '../../db/list.ts';

export interface AuditCtx {
  db: Db;
}

function range(input: { start_date?: string | undefined; end_date?: string | undefined } | undefined) {
  const start = input?.start_date;
  const end = input?.end_date;
  if (start && end && start > end) throw badRequest(REPORT_STRINGS.dateOrder, [{ path: 'start_date', message: REPORT_STRINGS.dateOrder }]);
  return { fromIso: start ? dayStartIso(start) : undefined, toIso: end ? dayEndExclusiveIso(end) : undefined };
}

export async function listLogs(ctx: AuditCtx, input: AuditLogsInput): Promise<AuditLogsPage> {
  const { page, limit, offset, after } = pageWindow(
    { page: input?.page, limit: input?.limit, cursor: input?.cursor },
    DEFAULT_AUDIT_PAGE_SIZE,
  );
  const filter: AuditFilter = { ...range(input), user_id: input?.user_id as number | undefined, target_table: input?.target_table };
  if (input?.action) {
    // A case-insensitive substring, resolved against the distinct actions so the index serves it.
    const needle = input.action.toLowerCase();
    filter.actions = (await distinctActions(ctx.db)).filter((a) => a.toLowerCase().includes(needle));
    if (filter.actions.length === 0) return { logs: [], pagination: makePagination(page, limit, 0) };
  }
  // Newest first unless asked otherwise; another column ascending unless asked otherwise.
  const sort = input?.sort ?? 'timestamp';
  const total = await countLogs(ctx.db, filter);
  // A sort no index serves stays bounded: only over a view small enough to sort (docs/decisions.md "Audit log sort").
  if (total > AUDIT_SORT_BOUND && !auditSortIndexed(sort, input ?? {})) {
    const message = auditSortTooLarge(sort);
    throw badRequest(message, [{ path: 'sort', message }]);
  }
  const order = { sort, dir: input?.order ?? (sort === 'timestamp' ? 'desc' : 'asc') } as const;
  // A cursor holds the sort key (unless the sort is the timestamp), the timestamp and the log_id.
  if (after && after.length !== (sort === 'timestamp' ? 2 : 3)) throw invalidCursor();
  const { rows: logs, next } =
    after || offset < total
      ? await readAfter(after, () => pageOfLogs(ctx.db, filter, limit, offset, order, after))
      : { rows: [], next: null };
  return { logs, pagination: makePagination(page, limit, total, next ? encodeCursor(next) : null) };
}

export async function summary(ctx: AuditCtx, input: AuditSummaryInput): Promise<AuditSummary> {
  const { fromIso, toIso } = range(input);
  const actions = await countsBy(ctx.db, 'action', fromIso, toIso);
  const tables = await countsBy(ctx.db, 'target_table', fromIso, toIso);
  return {
    // Every entry has an action, so the per-action counts add up to the total.
    total_logs: actions.reduce((s, a) => s + a.count, 0),
    unique_users: await countUsers(ctx.db, fromIso, toIso),
    top_actions: actions.map((a) => ({ action: a.value, count: a.count })),
    top_tables: tables.map((t) => ({ target_table: t.value, count: t.count })),
  };
}
