/**
 * Background jobs that run inside the server process (the reminder scheduler of the operations
 * issue registers here). Returns a function that stops them all.
 */
import type { JobDeps } from './core/context.ts';
import { startReminderJob } from './modules/notification-management/reminders.job.ts';
import { startIdempotencyCleanup } from './http/idempotency.ts';
import { startWebhookWorker } from './modules/webhooks/worker.ts';

export type { JobDeps } from './core/context.ts';

type Job = (deps: JobDeps) => () => void;

const jobs: Job[] = [startReminderJob, startIdempotencyCleanup];

/**
 * The webhook worker (modules/webhooks/worker.ts) runs whatever SCHEDULER says (it sends what requests queued);
 * WEBHOOK_WORKER=off leaves the sending to other instances.
 */
function startWebhooks(deps: JobDeps): () => void {
  if (!deps.config.webhookWorker) return () => {};
  return startWebhookWorker(deps, { log: deps.app.log });
}

export function startBackgroundJobs(deps: JobDeps): () => void {
  const stops = [startWebhooks(deps), ...(deps.config.scheduler ? jobs.map((start) => start(deps)) : [])];
  return () => stops.forEach((stop) => stop());
}
