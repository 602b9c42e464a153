/**
 * The server the browser suite runs against: builds the client into a temporary folder (or serves the build
 * named by E2E_CLIENT_DIST), starts the
 * real app on a fresh database in a temporary DATA_DIR, and seeds one user of each role.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { loadConfig } from '../server/src/config.ts';
import { buildApp } from '../server/src/app.ts';
import { seedE2eUsers } from './fixtures/seed.ts';

const port = Number(process.env.E2E_PORT);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-e2e-'));
// E2E_CLIENT_DIST names a build already made (CI builds once for the size budget and reuses it here).
const prebuilt = process.env.E2E_CLIENT_DIST ? path.resolve(process.env.E2E_CLIENT_DIST) : null;
const clientDist = prebuilt ?? path.join(dir, 'client');

if (prebuilt) {
  if (!fs.existsSync(path.join(prebuilt, 'index.html')))
    throw new Error(`E2E_CLIENT_DIST=${prebuilt} holds no built client (run npm run build)`);
} else {
  await build({
    configFile: path.resolve(import.meta.dirname, '../client/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: clientDist },
  });
}

// A fresh data directory every run (E2E_DATA_DIR is named after the port and may be left from an earlier run).
if (process.env.E2E_DATA_DIR) fs.rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
const config = loadConfig({
  ...process.env,
  DATA_DIR: process.env.E2E_DATA_DIR ?? path.join(dir, 'data'),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  CLIENT_DIST: clientDist,
  SCHEDULER: 'off',
  NODE_ENV: 'production',
});
const { app, db } = await buildApp({ config, logger: false });
await seedE2eUsers(db);
await app.listen({ port, host: '127.0.0.1' });
console.log(`e2e server on http://127.0.0.1:${port} (data in ${dir})`);

const stop = async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (process.env.E2E_DATA_DIR) fs.rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
