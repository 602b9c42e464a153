/** `npm run demo`: the app on a throwaway database filled with sample data, with the demo logins printed. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemo } from './seed.ts';
import { startBackgroundJobs } from '../jobs.ts';

if (process.env.DATABASE_URL) {
  // The demo fills a database with sample data and deletes it afterwards: never someone's PostgreSQL database.
  console.error('npm run demo runs on a throwaway SQLite file: unset DATABASE_URL first.');
  process.exit(1);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'license-manager-demo-'));
const config = loadConfig({ ...process.env, DATA_DIR: dir, DATABASE_PATH: path.join(dir, 'demo.db') });
const db = await openDatabase(config);
await seedDemo(db);
const { app, services } = await buildApp({ config, db });
await app.listen({ port: config.port, host: config.host });
// The reminder scheduler runs as in production: the outbox fills with the expiry reminders.
const stopJobs = startBackgroundJobs({ app, db, config, services });

console.log(`\nLicense Manager demo: http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
console.log(`Throwaway data in ${dir} (deleted when you stop it with Ctrl+C)\n`);
console.log('Sign in with any of these (password for all: ' + DEMO_PASSWORD + '):');
for (const l of DEMO_LOGINS) console.log(`  ${l.role.padEnd(7)} ${l.email}`);
console.log('');

const stop = async () => {
  stopJobs();
  await app.close();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
