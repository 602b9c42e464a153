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

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = parts(from);
  const [y2, m2, d2] = parts(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
}

/** The local calendar date of a Date in the running process's time zone. */
export function localDateString(d: Date = new Date()): string {
  const y = d.getFullYear();
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${y}-${m}-${day}`;
}
