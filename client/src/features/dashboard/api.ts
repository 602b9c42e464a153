/** The dashboard's reads (no mutations): the role's stats, recent activity, expiring licenses and, for Agents, their licenses' CE. */
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

/** The signed-in Agent's licenses, soonest expiry first (the CE progress card). */
export function useMyLicenses() {
  return trpc.licenses.list.useQuery({ sort: 'expiration_date', order: 'asc' });
}
