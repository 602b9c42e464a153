import crypto from 'node:crypto';
import os from 'node:os';
import { jobRuns } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import type { JobDeps } from '../../core/context.ts';
import { today } from '../../core/dates.ts';
import { getSettings } from '../../core/settings.ts';
import { autoRenewDueLicenses } from '../licenses/licenses.auto-renew.ts';
import { ensureDefaultTemplates } from './default-templates.ts';
import { runReminders } from './reminders.ts';

/** The first pass runs this long after start, so start-up (and the first requests) go first. */
export const FIRST_RUN_DELAY_MS = 5_000;
/** How often the scheduler looks at the calendar; it runs a pass when the office's date has changed. */
export const CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** The job_runs name of the daily pass (auto-renewal, then the reminders); its run key is the office date. */
export const DAILY_PASS_JOB = 'daily_pass';

/** This process, as recorded in job_runs.instance (host, pid and a random suffix). */
export const INSTANCE_ID = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

/**
 * Claims one run of a job (docs/architecture.md "Data layer"): inserts (job, run_key) into
 * job_runs unless it is there. True for the one caller, of all instances on the database, whose insert
 * went in; false for everyone else.
 */
export async function claimJobRun(db: Db, job: string, runKey: string, now: Date = new Date()): Promise<boolean> {
  const startedAt = now.toISOString();
  const rows = await db.transaction((tx) =>
    tx
      .insert(jobRuns)
      .values({ job, run_key: runKey, started_at: startedAt, instance: INSTANCE_ID })
      .onConflictDoNothing()
      .returning({ job: jobRuns.job }),
  );
  return rows.length === 1;
}

const passes = new WeakMap<Db, Promise<void>>();

/** The scheduler's daily pass under way on this Db, if any (lets tests wait for it). */
export function dailyPassInFlight(db: Db): Promise<void> | undefined {
  return passes.get(db);
}

/**
 * The daily scheduler: makes sure the default templates exist, then runs the daily pass (auto-renewal,
 * then the license reminders) shortly after start and once per office calendar day (checked hourly, so
 * a sleeping machine or a clock change cannot skip a day or run twice in one). Several instances on one
 * database run each day's pass once: the instance that claims the day in job_runs runs it, the others
 * skip it (a pass that dies half-way is not repeated that day; the next day's pass picks up what is
 * still due, and reminder keys stop duplicates). Returns its stop function, whose `ready` settles once
 * the default templates are in place.
 */
export function startReminderJob(deps: JobDeps): (() => void) & { ready: Promise<void> } {
  const log = deps.app.log;
  let lastRunDate: string | null = null;
  let stopped = false;

  const templatesReady = ensureDefaultTemplates(deps.db).then(
    (created) => {
      if (created.length > 0) log.info({ templates: created }, 'created default notification templates');
    },
    (err: unknown) => log.error({ err }, 'could not create default notification templates'),
  );

  const run = () => {
    if (stopped || passes.has(deps.db)) return;
    const pass = dailyPass().finally(() => passes.delete(deps.db));
    passes.set(deps.db, pass);
  };

  const dailyPass = async () => {
    const date = today();
    lastRunDate = date;
    try {
      await templatesReady;
      if (!(await claimJobRun(deps.db, DAILY_PASS_JOB, date))) {
        log.info({ date }, 'daily pass already run by another instance');
        return;
      }
      // Auto-renewal first, so a renewed license is not told it expired; lapsed licenses are written Expired either way.
      const { renewed, expired } = await autoRenewDueLicenses(deps.db, date, (await getSettings(deps.db)).auto_renewal_enabled);
      if (renewed + expired > 0) log.info({ renewed, expired }, 'licenses renewed automatically or written Expired');
      const summary = await runReminders(deps.db, deps.config);
      log.info({ date, ...summary }, 'license reminders');
    } catch (err) {
      log.error({ err }, 'license reminders failed');
    }
  };

  const first = setTimeout(run, FIRST_RUN_DELAY_MS);
  const tick = setInterval(() => {
    if (lastRunDate !== today()) run();
  }, CHECK_INTERVAL_MS);
  first.unref();
  tick.unref();

  const stop = () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(tick);
  };
  return Object.assign(stop, { ready: templatesReady });
}
