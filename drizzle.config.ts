import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './server/src/db/schema/sqlite/index.ts',
  out: './drizzle/sqlite',
  dbCredentials: { url: process.env.DATABASE_PATH ?? './data/license-manager.db' },
  strict: true,
  verbose: true,
});
