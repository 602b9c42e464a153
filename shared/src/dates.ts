/**
 * Pure calendar arithmetic on YYYY-MM-DD strings. "Today" is supplied by the caller (the server uses
 * the office's TZ, the browser its own clock), so these never depend on the machine's time zone.
 */
function parts(date: string): [number, number, number] {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  return [y!, m!, d!];
}

function fmt(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return fmt(Date.UTC(y, m - 1, d + days));
}

/** Adds whole years; 29 February moves to 28 February in a non-leap year. */
export function addYears(date: string, years: number): string {
  const [y, m, d] = parts(date);
  const target = new Date(Date.UTC(y + years, m - 1, d));
  if (target.getUTCMonth() !== m - 1) return fmt(Date.UTC(y + years, m, 0));
  return fmt(target.getTime());
}

/**
 * Days since 1970-01-01 of a YYYY-MM-DD date, in integer arithmetic (the proleptic Gregorian calendar's day count,
 * "days from civil"): every license answer counts its days left, so no Date objects or string splits per call.
 */
function dayNumber(date: string): number {
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The first day of the date's month (the School dashboard's "this month" starts there). */
export function startOfMonth(date: string): string {
  return `${date.slice(0, 8)}01`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The local calendar date of a Date in the running process's time zone. */
export function localDateString(d: Date = new Date()): string {
  const y = d.getFullYear();
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${y}-${m}-${day}`;
}

/** How a calendar date may be written (the office's setting, Settings › General). */
export const DATE_FORMATS = ['MM/DD/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/**
 * A YYYY-MM-DD date written in the office's format: '2026-07-30' → '07/30/2026' (MM/DD/YYYY) or as is (YYYY-MM-DD).
 * Pure string work: no time zone can shift the day. Anything not a calendar date comes back unchanged.
 */
export function writeCalendarDate(date: string, format: DateFormat): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return format === 'YYYY-MM-DD' ? date : `${m[2]}/${m[3]}/${m[1]}`;
}

/**
 * The span from `from` to `to` (YYYY-MM-DD, `to` not earlier) in whole calendar years and months, the rest in days:
 * 2026-12-04 → 2029-04-10 is {years: 2, months: 4, days: 6}. A month is counted once its day of the month is reached
 * (31 January → 28 February is 0 months 28 days).
 */
export function calendarSpan(from: string, to: string): { years: number; months: number; days: number } {
  const [fy, fm, fd] = parts(from);
  const [ty, tm, td] = parts(to);
  let months = (ty - fy) * 12 + (tm - fm);
  if (td < fd) months -= 1;
  if (months < 0) months = 0;
  const anchor = fmt(Date.UTC(fy, fm - 1 + months, 1));
  // The month's day, or its last day when shorter (31 January + 1 month is counted from 28/29 February).
  const [ay, am] = parts(anchor);
  const lastDay = new Date(Date.UTC(ay, am, 0)).getUTCDate();
  const reached = `${anchor.slice(0, 8)}${String(Math.min(fd, lastDay)).padStart(2, '0')}`;
  return { years: Math.floor(months / 12), months: months % 12, days: Math.max(0, daysBetween(reached, to)) };
}
