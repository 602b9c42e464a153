import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// TEST_DATABASE_URL=postgres://… runs the server suite on PostgreSQL (each test environment in a database
// of its own, server/test/pg.ts); without it everything runs on SQLite and needs nothing installed.
const pgEnv: Record<string, string> = process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {};
// Server test files that open no database (the OCR of images alone): the PostgreSQL pass leaves them out, as they
// would run the same code again (a third of that pass's CPU time went to OCR).
const ENGINE_FREE = ['server/test/extraction-images.test.ts'];

export default defineConfig({
  test: {
    // One file per worker, one more worker than cores: the server files wait on fsync and argon2 as much as they
    // compute, so a third worker on the 2-core machines keeps both busy (70 s against 101 s with two, 300 s with
    // Vitest's default of cores - 1). Each file has databases of its own, so files share nothing.
    maxWorkers: os.availableParallelism() + 1,
    // `isolate: false` in every project: a worker imports the app once and runs its files one after another, instead
    // of importing it again for every file (the server pass 33 s against 70 s, the client 5 s against 14 s). The files
    // share no state that matters: each builds its own database, app and caches keyed by that database, and the
    // client's renders each make their own providers.
    projects: [
      { test: { name: 'shared', include: ['shared/src/**/*.test.ts'], environment: 'node', isolate: false } },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? ENGINE_FREE : [])],
          environment: 'node',
          isolate: false,
          env: { TZ: 'UTC', ...pgEnv },
          // One migrated database per run, copied by every test environment (server/test/global-setup.ts).
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The integrator check (integrator/): generated client types are current and work against a real server.
        test: {
          name: 'integrator',
          include: ['integrator/test/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          env: { TZ: 'UTC', ...pgEnv },
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'client',
          include: ['client/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          isolate: false,
          setupFiles: ['client/src/test/setup.ts'],
          // A guard against a hung render, not a speed target: on a machine busy with other work Vitest's 5 s
          // default was once too short for a render with a menu.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
