import { defineConfig } from 'vitest/config';

// TEST_DATABASE_URL=postgres://… runs the server suite on PostgreSQL (each test environment in a database
// of its own, server/test/pg.ts); without it everything runs on SQLite and needs nothing installed.
const pgEnv: Record<string, string> = process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {};

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['shared/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          env: { TZ: 'UTC', ...pgEnv },
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
          env: { TZ: 'UTC', ...pgEnv },
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'client',
          include: ['client/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['client/src/test/setup.ts'],
        },
      },
    ],
  },
});
