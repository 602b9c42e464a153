import { localDateString } from '@lm/shared';

/**
 * The office's calendar date (docs/decisions.md: TZ). Node reads TZ from the environment, so the local
 * date is the office's date; "today" is never UTC midnight. Date arithmetic lives in @lm/shared.
 */
export function today(now: Date = new Date()): string {
  return localDateString(now);
}
