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

// The office's time zone, for the server and the specs alike (workers and the web server inherit it): New York, not
// UTC, so the browser suite reads dates as an office does whose day ends before UTC's (e2e/dates.spec.ts).
process.env.TZ ??= 'America/New_York';
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
  // Each test makes its own data, so tests rather than files are shared out: both workers stay busy to the end. The
  // few tests that change what every test sees (the system settings) share a lock (SETTINGS_LOCK, fixtures/data.ts).
  fullyParallel: true,
  // Two workers on CI's two cores (three were measured no faster).
  workers: 2,
  // Never retried (0): a test that needs one to pass is a flaky test to fix (each test makes its own data and waits for
  // what a person waits for), not a hiccup to hide.
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    // No trace in CI: recording one snapshots the page at every action of every test (to keep only the failures'),
    // which cost the 2-core CI machine 2 of the suite's 7.3 minutes (111 tests: 5.2 min without); a failure still
    // leaves its screenshot and its page's accessibility snapshot (error-context.md). Locally, failures keep a trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
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
      TZ: process.env.TZ,
      ...(process.env.E2E_CLIENT_DIST ? { E2E_CLIENT_DIST: process.env.E2E_CLIENT_DIST } : {}),
    },
  },
});
