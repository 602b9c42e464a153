import type { JobDeps } from '../../jobs.ts';

/** The daily license reminder scheduler (filled in by the operations issue). Returns its stop function. */
export function startReminderJob(_deps: JobDeps): () => void {
  return () => {};
}
