import { localDateString } from '@lm/shared';

/**
 * The office's calendar date (docs/decisions.md: TZ). Node reads TZ from the environment, so the local
 * date is the office's date; "today" is never UTC midnight. Date arithmetic lives in @lm/shared.
 */
export function today(now: Date = new Date()): string {
  return localDateString(now);
}

/**
 * The office's time zone as an IANA name (e.g. America/New_York): the zone of TZ, in which `today` is counted. The
 * browser writes times in it and takes the office's date from the server (docs/decisions.md "One date language").
 */
export function officeTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
