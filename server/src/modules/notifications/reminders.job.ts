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

/**
 * The daily license reminder scheduler: makes sure the reminder templates exist, runs one pass shortly
 * after start, then one pass per office calendar day (checked hourly, so a sleeping machine or a clock
 * change cannot skip a day or run twice in one). Restarts are safe: reminder keys stop duplicates.
 * Returns its stop function.
 */
export function startReminderJob(deps: JobDeps): () => void {
  const log = deps.app.log;
  let lastRunDate: string | null = null;
  let stopped = false;

  try {
    const created = ensureDefaultTemplates(deps.db);
    if (created.length > 0) log.info({ templates: created }, 'created default notification templates');
  } catch (err) {
    log.error({ err }, 'could not create default notification templates');
  }

  const run = async () => {
    if (stopped) return;
    const date = today();
    lastRunDate = date;
    try {
      // Auto-renewal first, so a renewed license is not told it expired.
      if (getSettings(deps.db).auto_renewal_enabled) {
        const { renewed, expired } = autoRenewDueLicenses(deps.db, date);
        if (renewed + expired > 0) log.info({ renewed, expired }, 'licenses renewed automatically or left to expire');
      }
      const summary = await runReminders(deps.db, deps.config);
      log.info({ date, ...summary }, 'license reminders');
    } catch (err) {
      log.error({ err }, 'license reminders failed');
    }
  };

  const first = setTimeout(() => void run(), FIRST_RUN_DELAY_MS);
  const tick = setInterval(() => {
    if (lastRunDate !== today()) void run();
  }, CHECK_INTERVAL_MS);
  first.unref();
  tick.unref();

  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(tick);
  };
}
