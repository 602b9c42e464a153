/**
 * The databases of `npm run bench:api` (bench/api.ts): the large bench data (bench/data.ts) seeded once and
 * kept, keyed by a data version (a hash of the generator, the seeders, the migrations and BENCH_AUDIT_ROWS), then
 * copied for each server of a run, so the product and the baseline start from the same rows and a run never
 * changes the kept one.
 *   SQLite      kept as <os temp dir>/lm-bench-api/sqlite-<version>.db; each server gets a file copy.
 *   PostgreSQL  kept as the database lm_bench_api_<version> on the cluster DATABASE_URL names; each server gets a
 *               throwaway clone (CREATE DATABASE ... TEMPLATE), dropped at the end.
 * BENCH_RESEED=1 seeds again even when a kept copy exists.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { ROLE } from '@lm/shared';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { isPostgresUrl } from '../server/src/db/engine.ts';
import { ROOT } from '../server/src/paths.ts';
import { createSession, hashToken } from '../server/src/core/sessions.ts';
import { claimJobRun } from '../server/src/modules/notification-management/reminders.job.ts';
import { refreshAllCeCaches } from '../server/src/modules/licenses/ce-ledger.ts';
import { sessions, users } from '../server/src/db/schema/index.ts';
import { AUDIT_ROWS, type Scale } from './data.ts';
import { seedSqlite } from './seed.sqlite.ts';
import { seedPg } from './seed.pg.ts';

export const CACHE_DIR = path.join(os.tmpdir(), 'lm-bench-api');

function filesUnder(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [abs];
  return fs.readdirSync(abs).flatMap((name) => filesUnder(path.join(rel, name)));
}

/** The data version: what the seeded rows depend on. Anything else (server code) does not invalidate the copy. */
export function dataVersion(engine: 'sqlite' | 'postgres'): string {
  const hash = createHash('sha256');
  const inputs = [
    'bench/data.ts',
    engine === 'sqlite' ? 'bench/seed.sqlite.ts' : 'bench/seed.pg.ts',
    `drizzle/${engine === 'sqlite' ? 'sqlite' : 'pg'}`,
  ];
  for (const file of inputs.flatMap(filesUnder).sort()) {
    hash.update(path.relative(ROOT, file));
    hash.update(fs.readFileSync(file));
  }
  hash.update(`audit_rows=${AUDIT_ROWS}`);
  return hash.digest('hex').slice(0, 16);
}

/** A config for opening a bench database from this process (no scheduler, no client). */
export function configFor(where: { databasePath?: string; databaseUrl?: string }) {
  return loadConfig({
    DATA_DIR: CACHE_DIR,
    SCHEDULER: 'off',
    CLIENT_DIST: path.join(CACHE_DIR, 'no-client'),
    ...(where.databasePath ? { DATABASE_PATH: where.databasePath } : {}),
    ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl } : {}),
  });
}

async function seedInto(where: { databasePath?: string; databaseUrl?: string }, log: (line: string) => void, scale?: Scale): Promise<void> {
  const t0 = Date.now();
  const db = await openDatabase(configFor(where));
  try {
    await (db.engine === 'postgres' ? seedPg(db, scale) : seedSqlite(db, scale));
  } finally {
    await db.close();
  }
  log(
    `Seeded the bench data${scale ? ` (${scale.licenses.toLocaleString('en-US')} licenses)` : ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s.`,
  );
}

const removeSqliteFile = (file: string) => {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
};

/** The kept SQLite file for this data version, seeded first when missing (written aside, renamed when complete). */
export async function keptSqlite(log: (line: string) => void): Promise<string> {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const version = dataVersion('sqlite');
  const file = path.join(CACHE_DIR, `sqlite-${version}.db`);
  // Older versions are 700 MB each: keep only the current one.
  for (const name of fs.readdirSync(CACHE_DIR)) {
    if (name.startsWith('sqlite-') && !name.startsWith(`sqlite-${version}.db`)) fs.rmSync(path.join(CACHE_DIR, name), { force: true });
  }
  if (process.env.BENCH_RESEED) removeSqliteFile(file);
  if (fs.existsSync(file)) {
    log(`Reusing the bench database ${file} (data version ${version}).`);
    return file;
  }
  log(`Seeding the bench database (data version ${version}); kept as ${file} for later runs ...`);
  const partial = `${file}.partial`;
  removeSqliteFile(partial);
  await seedInto({ databasePath: partial }, log);
  for (const f of [`${partial}-wal`, `${partial}-shm`]) fs.rmSync(f, { force: true });
  fs.renameSync(partial, file);
  return file;
}

/** A file copy of the kept database (a reflink where the file system has them). */
export async function copySqlite(from: string, to: string): Promise<void> {
  removeSqliteFile(to);
  await fs.promises.copyFile(from, to, fs.constants.COPYFILE_FICLONE);
}

function urlWithDatabase(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** DROP DATABASE, retried while an autovacuum worker still holds it (FORCE cannot end it without superuser). */
async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  await withClient(baseUrl, async (c) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '42501' || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  });
}

/** The kept PostgreSQL database for this data version, seeded first when missing. Needs CREATEDB. */
export async function keptPostgres(baseUrl: string, log: (line: string) => void): Promise<string> {
  if (!isPostgresUrl(baseUrl)) throw new Error('DATABASE_URL must be a postgres:// URL');
  const version = dataVersion('postgres');
  const name = `lm_bench_api_${version}`;
  const exists = await withClient(
    baseUrl,
    async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1,
  );
  if (exists && !process.env.BENCH_RESEED) {
    log(`Reusing the bench database ${name} (data version ${version}).`);
    return name;
  }
  log(`Seeding the bench database ${name} (data version ${version}); kept on the cluster for later runs ...`);
  const partial = `${name}_seeding`;
  await dropDatabase(baseUrl, partial);
  await withClient(baseUrl, (c) => c.query(`CREATE DATABASE "${partial}"`));
  await seedInto({ databaseUrl: urlWithDatabase(baseUrl, partial) }, log);
  await dropDatabase(baseUrl, name);
  await withClient(baseUrl, (c) => c.query(`ALTER DATABASE "${partial}" RENAME TO "${name}"`));
  return name;
}

/** A throwaway clone of the kept PostgreSQL database; `drop` removes it. */
export async function clonePostgres(baseUrl: string, template: string, label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lm_t_api_${label}_${process.pid}_${Date.now().toString(36)}`;
  // The template must have no other connections; a kept database has none unless another run is cloning it.
  for (let attempt = 1; ; attempt++) {
    try {
      await withClient(baseUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 40) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return { url: urlWithDatabase(baseUrl, name), drop: () => dropDatabase(baseUrl, name) };
}

/**
 * Signs the first Admin in on a database copy (the product's own createSession) and returns the Admin's id and a
 * bearer token. Given a token (that of the other copy), the session is stored under that token's hash, so one
 * token works on both servers.
 */
export async function adminSession(
  where: { databasePath?: string; databaseUrl?: string },
  token?: string,
): Promise<{ token: string; adminId: number }> {
  const db = await openDatabase(configFor(where));
  try {
    // The one-time CE cache refresh the product runs at start-up (server.ts), done here on every copy, so the
    // product and the baseline serve the same rows and the product starts without it.
    await db.transaction(async (tx) => {
      if (await claimJobRun(db, 'ce_cache_refresh', 'compliance-1')) await refreshAllCeCaches(tx);
    });
    const [admin] = await db
      .select({ user_id: users.user_id })
      .from(users)
      .where(eq(users.role_id, ROLE.Admin))
      .orderBy(users.user_id)
      .limit(1);
    const adminId = admin!.user_id;
    return await db.transaction(async (tx) => {
      const created = await createSession(tx, adminId, { ip: '127.0.0.1', userAgent: 'bench:api' });
      if (!token) return { token: created.token, adminId };
      await tx
        .update(sessions)
        .set({ token_hash: hashToken(token) })
        .where(eq(sessions.session_id, created.sessionId));
      return { token, adminId };
    });
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// `npm run bench:growth` (bench/growth.ts): one kept database per size, seeded with `generate(sink, { licenses })`,
// kept like the one above (by data version and size) but in a folder of its own, and served in place (a run's few
// writes, one license's status set and put back, sessions and their audit rows, do not change what is measured).

export const GROWTH_CACHE_DIR = process.env.GROWTH_CACHE_DIR ?? path.join(os.tmpdir(), 'lm-bench-growth');

/** The kept SQLite file of `licenses` licenses for this data version, seeded first when missing. */
export async function keptSqliteAt(licenses: number, log: (line: string) => void): Promise<string> {
  fs.mkdirSync(GROWTH_CACHE_DIR, { recursive: true });
  const version = dataVersion('sqlite');
  const file = path.join(GROWTH_CACHE_DIR, `sqlite-${licenses}-${version}.db`);
  // Older versions of this size are gigabytes at 1M: keep only the current one.
  for (const name of fs.readdirSync(GROWTH_CACHE_DIR)) {
    if (name.startsWith(`sqlite-${licenses}-`) && !name.startsWith(`sqlite-${licenses}-${version}.db`)) {
      fs.rmSync(path.join(GROWTH_CACHE_DIR, name), { force: true });
    }
  }
  if (process.env.BENCH_RESEED) removeSqliteFile(file);
  if (fs.existsSync(file)) {
    log(`Reusing ${file}.`);
    return file;
  }
  log(`Seeding ${licenses.toLocaleString('en-US')} licenses on SQLite; kept as ${file} ...`);
  const partial = `${file}.partial`;
  removeSqliteFile(partial);
  await seedInto({ databasePath: partial }, log, { licenses });
  for (const f of [`${partial}-wal`, `${partial}-shm`]) fs.rmSync(f, { force: true });
  fs.renameSync(partial, file);
  return file;
}

/** The kept PostgreSQL database of `licenses` licenses for this data version, seeded first when missing. */
export async function keptPostgresAt(baseUrl: string, licenses: number, log: (line: string) => void): Promise<string> {
  const version = dataVersion('postgres');
  const name = `lm_growth_${licenses}_${version}`;
  const existing = await withClient(baseUrl, async (c) =>
    (await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'lm\\_growth\\_%'")).rows.map((r) => r.datname),
  );
  for (const old of existing) if (old.startsWith(`lm_growth_${licenses}_`) && old !== name) await dropDatabase(baseUrl, old);
  if (existing.includes(name) && !process.env.BENCH_RESEED) {
    log(`Reusing the database ${name}.`);
    return urlWithDatabase(baseUrl, name);
  }
  log(`Seeding ${licenses.toLocaleString('en-US')} licenses on PostgreSQL; kept as the database ${name} ...`);
  const partial = `${name}_seeding`;
  await dropDatabase(baseUrl, partial);
  await withClient(baseUrl, (c) => c.query(`CREATE DATABASE "${partial}"`));
  await seedInto({ databaseUrl: urlWithDatabase(baseUrl, partial) }, log, { licenses });
  await dropDatabase(baseUrl, name);
  await withClient(baseUrl, (c) => c.query(`ALTER DATABASE "${partial}" RENAME TO "${name}"`));
  return urlWithDatabase(baseUrl, name);
}
