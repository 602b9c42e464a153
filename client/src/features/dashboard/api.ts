/** The dashboard's reads (no mutations): the role's stats (with, for Agents, each license's CE), recent activity, expiring licenses. */
import { DASHBOARD_REFRESH } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';

export function useDashboardStats() {
  return trpc.dashboard.stats.useQuery(undefined, { refetchInterval: DASHBOARD_REFRESH.stats });
}

export function useRecentActivity() {
  return trpc.dashboard.recentActivity.useQuery(undefined, { refetchInterval: DASHBOARD_REFRESH.activity });
}

export function useExpiringLicenses(days: number, limit: number) {
  return trpc.dashboard.expiringLicenses.useQuery({ days, limit }, { refetchInterval: DASHBOARD_REFRESH.expiring });
}
