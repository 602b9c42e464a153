/**
 * The dashboard's reads (no mutations): the role's stats (with, for Agents, each license's CE), recent activity,
 * expiring licenses, and a School's completions waiting for its approval.
 */
import { DASHBOARD_REFRESH, EXPIRING_CARD_LIMIT } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';

export function useDashboardStats() {
  return trpc.dashboard.stats.useQuery(undefined, { refetchInterval: DASHBOARD_REFRESH.stats });
}

export function useRecentActivity() {
  return trpc.dashboard.recentActivity.useQuery(undefined, { refetchInterval: DASHBOARD_REFRESH.activity });
}

export function useExpiringLicenses(days: number, limit: number, enabled = true) {
  return trpc.dashboard.expiringLicenses.useQuery({ days, limit }, { refetchInterval: DASHBOARD_REFRESH.expiring, enabled });
}

/** The completions waiting for review in the caller's scope (a School: its courses'), the longest waiting first. */
export function usePendingApprovals(enabled = true) {
  return trpc.completions.page.useQuery(
    { status: 'Pending', sort: 'created_at', order: 'asc', limit: EXPIRING_CARD_LIMIT },
    { refetchInterval: DASHBOARD_REFRESH.stats, enabled },
  );
}
