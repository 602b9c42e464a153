/**
 * Background jobs that run inside the server process (the reminder scheduler of the operations
 * issue registers here). Returns a function that stops them all.
 */
import type { JobDeps } from './core/context.ts';
import { startReminderJob } from './modules/notification-management/reminders.job.ts';

export type { JobDeps } from './core/context.ts';

type Job = (deps: JobDeps) => () => void;

const jobs: Job[] = [startReminderJob];

export function startBackgroundJobs(deps: JobDeps): () => void {
  if (!deps.config.scheduler) return () => {};
  const stops = jobs.map((start) => start(deps));
  return () => stops.forEach((stop) => stop());
}
