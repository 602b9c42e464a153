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
