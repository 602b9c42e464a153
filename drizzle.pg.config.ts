import { defineConfig } from 'drizzle-kit';

/** The PostgreSQL dialect of the schema (docs/architecture.md "PostgreSQL schema"): `npm run db:generate:pg`. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/src/db/schema/pg/index.ts',
  out: './drizzle/pg',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/license_manager' },
  strict: true,
  verbose: true,
});
