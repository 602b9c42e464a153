/** How the licenses screens write hours, dates and timestamps. */

/** Hours with at most 2 decimals, without trailing zeros (12, 4.5). */
export function formatHours(hours: number): string {
  return String(Math.round(hours * 100) / 100);
}

/** '6 of 10 hours' (one hour: '1 of 1 hour'). */
export function hoursOf(completed: number, required: number): string {
  return `${formatHours(completed)} of ${formatHours(required)} ${required === 1 ? 'hour' : 'hours'}`;
}

/** '1 hour', '4.5 hours'. */
export function hoursText(hours: number): string {
  return `${formatHours(hours)} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** A signed adjustment: '+2', '−1.5' (a true minus sign, read as "minus"). */
export function signedHours(hours: number): string {
  return hours > 0 ? `+${formatHours(hours)}` : `−${formatHours(Math.abs(hours))}`;
}

/** A timestamp (ISO, UTC) in the reader's locale and time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Percent of the required hours done, 0 to 100 (nothing required counts as done). */
export function percentDone(completed: number, required: number): number {
  if (required <= 0) return 100;
  return Math.min(100, Math.max(0, (completed / required) * 100));
}
