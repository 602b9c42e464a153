/** Starts License Manager: opens and migrates the database, creates the first Admin, listens. */
import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { keepDiskReserve } from './db/errors.ts';
import { ensureAdmin } from './core/bootstrap.ts';
import { startBackgroundJobs } from './jobs.ts';
import { backgroundSettled } from './core/background.ts';
import { claimJobRun, dailyPassInFlight } from './modules/notification-management/reminders.job.ts';
import { refreshAllCeCaches } from './modules/licenses/ce-ledger.ts';
import { webhookRoundsSettled } from './modules/webhooks/worker.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  console.error(`License Manager cannot start: ${(err as Error).message}`);
  process.exit(1);
}
const { app, db, services } = await buildApp({ config });
// docs/security.md "Faults": on SQLite a small space reserve in DATA_DIR keeps sign-in working when the disk fills.
if (db.engine === 'sqlite') keepDiskReserve(config.dataDir);

await ensureAdmin(db, config, (line) => console.log(line));
// Once per database: the licenses' compliance caches (the topics still missing) of licenses written before them
// (migration 0007); the claim and the refresh commit together, so an instance that dies half-way leaves it to the next.
await db.transaction(async (tx) => {
  if (await claimJobRun(db, 'ce_cache_refresh', 'compliance-1')) await refreshAllCeCaches(tx);
});
const stopJobs = startBackgroundJobs({ app, db, config, services });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    stopJobs();
    // E-mails of requests already answered (welcome, password links), a daily pass and webhook sends under way get
    // a few seconds to finish (a pass cut short leaves its current delivery pending, never sent twice; a webhook
    // send cut short is sent again once its lease ends).
    await Promise.race([
      Promise.all([backgroundSettled(), dailyPassInFlight(db), webhookRoundsSettled()]),
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]);
    await app.close(); // stops accepting, drains requests, then closes the database (onClose)
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
  console.log(`License Manager is running at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
