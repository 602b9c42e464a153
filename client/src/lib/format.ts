import { formatPaymentAmount } from '@lm/shared';

/**
 * How the client writes values, one function per kind of value (issue 12). Screens never call
 * toLocaleString, Intl or dayjs themselves.
 */

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date. A calendar date (YYYY-MM-DD: issue, expiration, payment and completion dates) is shown as stored,
 * the way the forms take it, without any time-zone shift; an ISO timestamp (a row's creation) is shown as
 * its day in the reader's locale and time zone (e.g. 3/5/2026). Missing values give `missing`, unreadable
 * ones the value itself.
 */
export function formatDate(value: string | null | undefined, missing = ''): string {
  if (!value) return missing;
  if (CALENDAR_DATE.test(value)) return value;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleDateString();
}

/**
 * An ISO timestamp in the reader's locale and time zone, e.g. "Mar 5, 2026, 2:07 PM"; `seconds` adds the
 * seconds (the audit trail). Missing values give `missing`, unreadable ones the value itself.
 */
export function formatDateTime(value: string | null | undefined, missing = '', options: { seconds?: boolean } = {}): string {
  if (!value) return missing;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: options.seconds ? 'medium' : 'short' });
}

/** Money in dollars, as the API sends it (the server stores cents): '$1,234.50'. */
export function formatMoney(dollars: number): string {
  // One implementation with the server's e-mails (shared/src/payments.ts).
  return formatPaymentAmount(dollars);
}

/** A count with thousands separators: '1,234'. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** CE hours with at most 2 decimals, without trailing zeros (12, 4.5, 1.25). */
export function formatHours(hours: number): string {
  return String(Math.round(hours * 100) / 100);
}

/** '1 hour', '4.5 hours'. */
export function hoursText(hours: number): string {
  return `${formatHours(hours)} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** '6 of 10 hours' (one hour required: '1 of 1 hour'). */
export function hoursOf(completed: number, required: number): string {
  return `${formatHours(completed)} of ${formatHours(required)} ${required === 1 ? 'hour' : 'hours'}`;
}

/** A signed adjustment: '+2', '−1.5' (a true minus sign, read as "minus"). */
export function signedHours(hours: number): string {
  return hours > 0 ? `+${formatHours(hours)}` : `−${formatHours(Math.abs(hours))}`;
}

/** CE hours in short, for badges and compact lists: '43 h', '4.5 h'. */
export function hoursShort(hours: number): string {
  return `${formatHours(hours)} h`;
}
