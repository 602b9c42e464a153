import { addDays, defaultReportPeriod, REPORT_STRINGS } from '@lm/shared';
import { today } from '../../core/dates.ts';
import { badRequest } from '../../base/errors.ts';

/**
 * Calendar dates (YYYY-MM-DD, the office's calendar) against ISO 8601 UTC timestamps: a day starts
 * at the office's local midnight, so the bounds are computed in the process's TZ, never UTC midnight.
 */
export function dayStartIso(date: string): string {
  return new Date(`${date}T00:00:00`).toISOString();
}

/** The first instant after the given day (an exclusive upper bound). */
export function dayEndExclusiveIso(date: string): string {
  return dayStartIso(addDays(date, 1));
}

export interface Period {
  start_date: string;
  end_date: string;
  /** Inclusive lower and exclusive upper bound as ISO timestamps, for *_at and timestamp columns. */
  fromIso: string;
  toIso: string;
}

/** The report period: the given dates, else the last 30 days; 400 when start is after end. */
export function resolvePeriod(input: { start_date?: string | undefined; end_date?: string | undefined } | undefined): Period {
  const fallback = defaultReportPeriod(today());
  const end = input?.end_date ?? (input?.start_date && input.start_date > fallback.end_date ? input.start_date : fallback.end_date);
  const start = input?.start_date ?? (end < fallback.start_date ? addDays(end, -30) : fallback.start_date);
  if (start > end) throw badRequest(REPORT_STRINGS.dateOrder, [{ path: 'start_date', message: REPORT_STRINGS.dateOrder }]);
  return { start_date: start, end_date: end, fromIso: dayStartIso(start), toIso: dayEndExclusiveIso(end) };
}
