/**
 * Once per test run (vitest globalSetup of the server and integrator projects): one database migrated from the real
 * migrations, which every test environment then copies instead of migrating its own (server/test/helpers.ts
 * testServerEnv). On SQLite a file; on the PostgreSQL pass (TEST_DATABASE_URL) a template database that
 * `CREATE DATABASE … TEMPLATE` clones. Removed when the run ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { runSqliteMigrations } from '../src/db/sqlite/driver.ts';
import { runPgMigrations } from '../src/db/pg/driver.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated SQLite file to copy, or the template database's name on the PostgreSQL pass. */
    migratedTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-template-'));
    const file = path.join(dir, 'template.db');
    const sqlite = new Database(file);
    runSqliteMigrations(sqlite);
    sqlite.pragma('journal_mode = DELETE');
    sqlite.close();
    project.provide('migratedTemplate', file);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `lm_template_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await runPgMigrations(pool);
  } finally {
    await pool.end();
  }
  project.provide('migratedTemplate', name);
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
}
