/** The Reports screen's reads: the overview's system statistics and each analytics tab's report, for the filters. */
import type { ReportQuery } from './export-report.ts';
import { trpc } from '../../lib/trpc.ts';

export function useSystemStats(range: { start_date: ReportQuery['start_date']; end_date: ReportQuery['end_date'] }) {
  return trpc.admin.stats.get.useQuery(range);
}

export const useLicenseReport = (filters: ReportQuery) => trpc.reports.licenses.useQuery(filters);
export const useUserReport = (filters: ReportQuery) => trpc.reports.users.useQuery(filters);
export const useCourseReport = (filters: ReportQuery) => trpc.reports.courses.useQuery(filters);
