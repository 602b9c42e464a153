import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

// Chosen once in the main process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(await freePort());
// The server's DATA_DIR, so specs can read the e-mails it writes to the outbox (e2e/fixtures/outbox.ts).
// Named after the port (created by the server), so evaluating this file again creates nothing.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `lm-e2e-data-${process.env.E2E_PORT}`);
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  // One retry in CI so a machine hiccup does not block a landing; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  outputDir: '../test-results',
  webServer: {
    command: 'node --import tsx e2e/server.ts',
    cwd: '..',
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      E2E_PORT: process.env.E2E_PORT,
      E2E_DATA_DIR: process.env.E2E_DATA_DIR,
      TZ: process.env.TZ ?? 'UTC',
      ...(process.env.E2E_CLIENT_DIST ? { E2E_CLIENT_DIST: process.env.E2E_CLIENT_DIST } : {}),
    },
  },
});
