/**
 * Background jobs that run inside the server process (the reminder scheduler of the operations
 * issue registers here). Returns a function that stops them all.
 */
import type { FastifyInstance } from 'fastify';
import type { AppServices } from './core/context.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { startReminderJob } from './modules/notifications/reminders.job.ts';

export interface JobDeps {
  app: FastifyInstance;
  db: Db;
  config: Config;
  services: AppServices;
}

type Job = (deps: JobDeps) => () => void;

const jobs: Job[] = [startReminderJob];

export function startBackgroundJobs(deps: JobDeps): () => void {
  if (!deps.config.scheduler) return () => {};
  const stops = jobs.map((start) => start(deps));
  return () => stops.forEach((stop) => stop());
}
