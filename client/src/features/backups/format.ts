/** A stored ISO timestamp in the browser's local time, e.g. "Mar 5, 2026, 2:07 PM". */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
