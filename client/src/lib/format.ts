import { formatPaymentAmount, type DateFormat } from '@lm/shared';
import { addDays, calendarSpan, daysBetween, writeCalendarDate } from '@lm/shared/dates';
import { DEFAULT_SETTINGS } from '@lm/shared/settings-defaults';

/**
 * How the client writes values, one function per kind of value (issue 12). Screens never call
 * toLocaleString, Intl or dayjs themselves, nor read the browser's clock for a date: dates are the office's
 * (format, zone and today from the server, issue 27).
 */

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// ---------------------------------------------------------------------------------------------
// The office's calendar (docs/decisions.md "One date language")

/** How the office writes dates, its time zone and its date today, as the server said (GET /api/settings/public). */
export interface OfficeCalendar {
  date_format: DateFormat;
  time_zone: string;
  today: string;
}

const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const zoneParts = new Map<string, Intl.DateTimeFormat>();
/** The parts of a moment in a zone: year, month, day, hour (0-23), minute, second. */
function partsIn(d: Date, timeZone: string) {
  let f = zoneParts.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneParts.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const { type, value } of f.formatToParts(d)) p[type] = value;
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) % 24, minute: p.minute!, second: p.second! };
}

let office: OfficeCalendar & { browserDateAtFetch: string | null } = {
  date_format: DEFAULT_SETTINGS.date_format,
  time_zone: browserZone(),
  today: '',
  browserDateAtFetch: null,
};

/**
 * Takes the office's calendar from the server's answer (components/office-calendar.tsx hands it over). Its `today` is the office's
 * date whatever the browser's clock says; the clock only moves it on when midnight passes in the office's zone while
 * the page stays open. The same answer again changes nothing.
 */
export function setOfficeCalendar(c: OfficeCalendar): void {
  if (c.date_format === office.date_format && c.time_zone === office.time_zone && c.today === office.today) return;
  office = { ...c, browserDateAtFetch: c.today ? partsIn(new Date(), c.time_zone).date : null };
}

/** The office's date today (YYYY-MM-DD): the server's, never the browser's own calendar. */
export function officeToday(): string {
  const nowThere = partsIn(new Date(), office.time_zone).date;
  if (!office.today || !office.browserDateAtFetch) return nowThere;
  return addDays(office.today, Math.max(0, daysBetween(office.browserDateAtFetch, nowThere)));
}

/** The format of the date inputs (Mantine's valueFormat, dayjs tokens): the office's. */
export function dateInputFormat(): DateFormat {
  return office.date_format;
}

/**
 * What a person typed in a date input, as YYYY-MM-DD, or null while it is not a whole, real date: the office's format
 * (07/30/2026, also 7/30/2026) and always YYYY-MM-DD.
 */
export function parseDateInput(text: string): string | null {
  const t = text.trim();
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us && office.date_format === 'MM/DD/YYYY') [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return addDays(date, 0) === date ? date : null;
}

// ---------------------------------------------------------------------------------------------
// Dates and times

/**
 * A date in the office's format (Settings › General: 07/30/2026 or 2026-07-30). A calendar date (YYYY-MM-DD: issue,
 * expiration, payment and completion dates) is written as stored, without any time-zone shift; an ISO timestamp (a
 * row's creation) as its day in the office's time zone. Missing values give `missing`, unreadable ones the value
 * itself.
 */
export function formatDate(value: string | null | undefined, missing = ''): string {
  if (!value) return missing;
  if (CALENDAR_DATE.test(value)) return writeCalendarDate(value, office.date_format);
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : writeCalendarDate(partsIn(d, office.time_zone).date, office.date_format);
}

function clock(d: Date, seconds: boolean): string {
  const p = partsIn(d, office.time_zone);
  const s = seconds ? `:${p.second}` : '';
  if (office.date_format === 'YYYY-MM-DD') return `${String(p.hour).padStart(2, '0')}:${p.minute}${s}`;
  return `${p.hour % 12 || 12}:${p.minute}${s} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** The office's zone in short ('EST'), said only to a reader whose browser is elsewhere. */
function zoneNote(d: Date): string {
  if (office.time_zone === browserZone()) return '';
  const name = new Intl.DateTimeFormat('en-US', { timeZone: office.time_zone, timeZoneName: 'short' })
    .formatToParts(d)
    .find((p) => p.type === 'timeZoneName')?.value;
  return name ? ` ${name}` : '';
}

/**
 * An ISO timestamp as the office reads it: its date in the office's format and its time in the office's zone,
 * '12/04/2026 5:22 PM' (MM/DD/YYYY) or '2026-12-04 17:22' (YYYY-MM-DD); `seconds` adds the seconds (the audit trail).
 * A reader whose browser is in another zone also sees the office's zone ('12/04/2026 5:22 PM EST'). Missing values
 * give `missing`, unreadable ones the value itself.
 */
export function formatDateTime(value: string | null | undefined, missing = '', options: { seconds?: boolean } = {}): string {
  if (!value) return missing;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${formatDate(d.toISOString())} ${clock(d, options.seconds ?? false)}${zoneNote(d)}`;
}

/** The time of day of an ISO timestamp (or a Date) in the office's zone: '10:42 AM' (or '10:42'). */
export function formatTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return `${clock(d, false)}${zoneNote(d)}`;
}

/**
 * A text the server wrote (a notification's title and body: "… on 2026-12-01 was approved") with each calendar date
 * in it written in the office's format ("… on 12/01/2026 was approved"), so those say dates as every screen does.
 */
export function formatDatesIn(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (date) => writeCalendarDate(date, office.date_format));
}

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/**
 * A span of days in words, in years and months once it is longer than `daysUpTo` days: '45 days', '6 months',
 * '2 years 4 months', '1 year' (the months are calendar months from `from`, the office's today by default).
 */
export function spanText(days: number, from: string = officeToday(), daysUpTo = 90): string {
  const n = Math.abs(days);
  if (n <= daysUpTo) return plural(n, 'day');
  const [a, b] = days >= 0 ? [from, addDays(from, days)] : [addDays(from, days), from];
  const { years, months } = calendarSpan(a, b);
  if (years === 0 && months === 0) return plural(n, 'day');
  return [years ? plural(years, 'year') : '', months ? plural(months, 'month') : ''].filter(Boolean).join(' ');
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

/**
 * A course as a picker lists it: name, provider, approval state and hours ("Ethics in Practice · Lone Star Real Estate
 * School · TX · 3 h"). Several Schools may offer a course of one name: the provider and the state tell them apart
 * (docs/decisions.md "Honest screens and accessibility"). A course approved in no state in particular shows none.
 */
export function courseOptionLabel(c: { course_name: string; provider: string; approval_state: string | null; ce_hours: number }): string {
  return [c.course_name, c.provider, c.approval_state, hoursShort(c.ce_hours)].filter(Boolean).join(' · ');
}
