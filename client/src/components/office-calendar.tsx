import { Fragment, type ReactNode } from 'react';
import { usePublicSettings } from '../lib/public-settings.ts';
import { setOfficeCalendar } from '../lib/format.ts';

/**
 * Every date under it is written and counted as the office does (docs/decisions.md "One date language"): the office's
 * date format, time zone and today come from the public settings and are handed to lib/format.ts before anything
 * under it draws. Until the server has answered, `fallback` shows (one small request, usually in the batch of the
 * page's own); when the format or the zone changes (an Admin saved Settings › General), what is under it is drawn again.
 */
export function OfficeCalendar({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const { date_format, time_zone, today, settled } = usePublicSettings();
  if (!settled) return <>{fallback}</>;
  // Idempotent (the same answer changes nothing), so it is safe while rendering, and comes before the children draw.
  if (today) setOfficeCalendar({ date_format, time_zone, today });
  return <Fragment key={`${date_format} ${time_zone}`}>{children}</Fragment>;
}
