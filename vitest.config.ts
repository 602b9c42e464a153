import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['shared/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          env: { TZ: 'UTC' },
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
          env: { TZ: 'UTC' },
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
