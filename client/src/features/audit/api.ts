/**
 * The audit screen's calls: the log's page (filters, sort, page and size) and the summary cards. The log is
 * append-only, so there are no mutations; Refresh refetches both.
 */
import { keepPreviousData } from '@tanstack/react-query';
import type { AuditLogsInput, AuditSummaryInput } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';

export function useAuditLogs(input: NonNullable<AuditLogsInput>) {
  return trpc.audit.logs.useQuery(input, { placeholderData: keepPreviousData });
}

export function useAuditSummary(range: NonNullable<AuditSummaryInput>) {
  return trpc.audit.summary.useQuery(range, { placeholderData: keepPreviousData });
}

/** Every table ever written to (the Table filter's choices): the all-time summary, kept for a while. */
export function useAuditTables() {
  const all = trpc.audit.summary.useQuery(undefined, { staleTime: 5 * 60_000 });
  return (all.data?.top_tables ?? []).map((t) => t.target_table).sort();
}
