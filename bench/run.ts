/**
 * `npm run bench`: builds a throwaway database from the real migrations, fills it like a large
 * office (1,000,000 audit rows, tens of thousands of licenses), then times the Insight queries
 * through the real service functions and through HTTP (app.inject), and a 10,000-row roster import (bench/imports.ts).
 * Not a test: it prints a table.
 * It runs on the configured engine: SQLite by default, PostgreSQL with DATABASE_URL=postgres://...
 * (a throwaway database is created next to the one named, and dropped at the end).
 *
 *   BENCH_AUDIT_ROWS=200000 npm run bench     a smaller run
 *   BENCH_KEEP=1 npm run bench                keep the database and print where it is
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { addDays, ROLE } from '@lm/shared';
import { loadConfig } from '../server/src/config.ts';
import { ENGINE, openDatabase, type Db } from '../server/src/db/client.ts';
import { rawRows } from '../server/src/db/raw.ts';
import { auditLogs, users } from '../server/src/db/schema/index.ts';
import { encodeCursor } from '../server/src/db/list.ts';
import { buildApp } from '../server/src/app.ts';
import { today } from '../server/src/core/dates.ts';
import type { AuthUser } from '../server/src/core/identity.ts';
import { createSession } from '../server/src/core/sessions.ts';
import * as auditService from '../server/src/modules/audit/audit.service.ts';
import * as dashboard from '../server/src/modules/dashboard/dashboard.service.ts';
import * as reports from '../server/src/modules/reports/reports.service.ts';
import { systemStats } from '../server/src/modules/admin/stats.service.ts';
import { createTestDatabase } from '../server/test/pg.ts';
import { AUDIT_ROWS, COMPLETIONS, LICENSES, PAYMENTS, USERS } from './data.ts';
import { seedSqlite } from './seed.sqlite.ts';
import { seedPg } from './seed.pg.ts';
import { benchImports, printImportTimings } from './imports.ts';

const DAY = 86_400_000;

interface Timing {
  name: string;
  median: number;
  p95: number;
  min: number;
  runs: number;
}

async function time(name: string, fn: () => unknown | Promise<unknown>, runs = 15): Promise<Timing> {
  for (let i = 0; i < 2; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((x, y) => x - y);
  return {
    name,
    median: samples[Math.floor(samples.length / 2)]!,
    p95: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.95) - 1)]!,
    min: samples[0]!,
    runs,
  };
}

async function plan(db: Db, query: SQL): Promise<string> {
  if (db.engine === 'sqlite') {
    const rows = await rawRows<{ detail: string }>(db, sql`EXPLAIN QUERY PLAN ${query}`);
    return rows.map((r) => r.detail).join(' | ');
  }
  const rows = await rawRows<{ 'QUERY PLAN': string }>(db, sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n      ');
}

/** The size of the database: the SQLite file and its WAL, or PostgreSQL's pg_database_size. */
async function databaseSize(db: Db, file: string): Promise<number> {
  if (db.engine === 'postgres') {
    const [row] = await rawRows<{ n: number }>(db, sql`SELECT pg_database_size(current_database()) AS n`);
    return Number(row?.n ?? 0);
  }
  return fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-bench-'));
  const pgDb = ENGINE === 'postgres' ? await createTestDatabase(process.env.DATABASE_URL!) : undefined;
  const config = loadConfig({
    DATA_DIR: dir,
    SCHEDULER: 'off',
    CLIENT_DIST: path.join(dir, 'no-client'),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  });
  const db = await openDatabase(config);
  console.log(`Engine: ${db.engine}; database: ${pgDb ? pgDb.url.replace(/\/\/[^@]*@/, '//') : config.databasePath}`);
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), TZ=${process.env.TZ ?? '(system)'}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const t0 = Date.now();
  await (db.engine === 'postgres' ? seedPg(db) : seedSqlite(db));
  const seconds = (Date.now() - t0) / 1000;
  const size = await databaseSize(db, config.databasePath);
  console.log(
    `Seeded ${AUDIT_ROWS.toLocaleString('en-US')} audit rows, ${LICENSES.toLocaleString('en-US')} licenses, ${USERS.toLocaleString('en-US')} users, ` +
      `${COMPLETIONS.toLocaleString('en-US')} completions, ${PAYMENTS.toLocaleString('en-US')} payments in ${seconds.toFixed(1)} s ` +
      `(${(AUDIT_ROWS / seconds).toFixed(0)} audit rows/s incl. the rest); ${(size / 1024 / 1024).toFixed(0)} MB`,
  );

  const firstOf = async (role: number): Promise<AuthUser> => {
    const [row] = await db
      .select({
        user_id: users.user_id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        role_id: users.role_id,
        brokerage_id: users.brokerage_id,
      })
      .from(users)
      .where(eq(users.role_id, role))
      .orderBy(users.user_id)
      .limit(1);
    return row!;
  };
  const admin = await firstOf(ROLE.Admin);
  const broker = await firstOf(ROLE.Broker);
  const ctx = { db };
  const pages = Math.ceil(AUDIT_ROWS / 50);
  const deep = Math.floor(pages * 0.9);
  const T = today();
  const month = { start_date: addDays(T, -30), end_date: T };

  const results: Timing[] = [];
  const run = async (name: string, fn: () => unknown | Promise<unknown>, runs?: number) => {
    const r = await time(name, fn, runs);
    results.push(r);
    process.stdout.write('.');
  };

  // Audit: the service functions. The first calls of a connection count the all-time figures once.
  const once = async (name: string, fn: () => unknown) => {
    const t1 = process.hrtime.bigint();
    await fn();
    const ms = Number(process.hrtime.bigint() - t1) / 1e6;
    results.push({ name, median: ms, p95: ms, min: ms, runs: 1 });
  };
  // Pages past the first 10,000 rows are reached by cursor (docs/decisions.md "Paging at any size"): the cursor of
  // the row before the page, in the list's order (newest first), read here straight from the table.
  const cursorAt = async (row: number, where?: SQL) => {
    const [at] = await db
      .select({ ts: auditLogs.timestamp, id: auditLogs.log_id })
      .from(auditLogs)
      .where(where)
      .orderBy(desc(auditLogs.timestamp), desc(auditLogs.log_id))
      .limit(1)
      .offset(Math.max(0, row - 1));
    const ts = at!.ts as unknown;
    return encodeCursor([ts instanceof Date ? ts.toISOString() : (ts as string), at!.id]);
  };
  const deepCursor = await cursorAt((deep - 1) * 50);
  const lastCursor = await cursorAt((pages - 1) * 50);
  await once('audit logs, page 1, first call (counts all rows once)', () => auditService.listLogs(ctx, { page: 1, limit: 50 }));
  await once('audit summary, all time, first call (counts per action/table/user once)', () => auditService.summary(ctx, {}));
  await run('audit logs, page 1 (unfiltered)', () => auditService.listLogs(ctx, { page: 1, limit: 50 }));
  await run(`audit logs, page ${deep.toLocaleString('en-US')} of ${pages.toLocaleString('en-US')} by cursor (unfiltered)`, () =>
    auditService.listLogs(ctx, { cursor: deepCursor, limit: 50 }),
  );
  await run(`audit logs, last page (${pages.toLocaleString('en-US')}) by cursor`, () =>
    auditService.listLogs(ctx, { cursor: lastCursor, limit: 50 }),
  );
  const [licRows] = await rawRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM audit_logs WHERE target_table = 'licenses'`);
  const licMid = Math.floor(Number(licRows?.n ?? 0) / 2);
  const licCursor = await cursorAt(licMid, eq(auditLogs.target_table, 'licenses'));
  await run(`audit logs, table=licenses, row ${licMid.toLocaleString('en-US')} by cursor (limit 100)`, () =>
    auditService.listLogs(ctx, { target_table: 'licenses', cursor: licCursor, limit: 100 }),
  );
  await run('audit logs, table=licenses, page 1', () => auditService.listLogs(ctx, { target_table: 'licenses', page: 1, limit: 50 }));
  await run('audit logs, table=licenses + last 30 days, page 1', () =>
    auditService.listLogs(ctx, { target_table: 'licenses', ...month, page: 1, limit: 50 }),
  );
  await run('audit logs, action~"create" page 1', () => auditService.listLogs(ctx, { action: 'create', page: 1, limit: 50 }));
  const createPages = (await auditService.listLogs(ctx, { action: 'create', limit: 50 })).pagination.pages;
  await run(`audit logs, action~"create" page ${Math.floor(createPages / 2).toLocaleString('en-US')}`, () =>
    auditService.listLogs(ctx, { action: 'create', page: Math.floor(createPages / 2), limit: 50 }),
  );
  await run('audit logs, action~"login" (2 actions) page 1', () => auditService.listLogs(ctx, { action: 'login', page: 1, limit: 50 }));
  await run('audit logs, one user, page 1', () => auditService.listLogs(ctx, { user_id: 777, page: 1, limit: 50 }));
  await run('audit logs, last 30 days, page 1', () => auditService.listLogs(ctx, { ...month, page: 1, limit: 50 }));
  await run('audit summary, all time (cached, new rows counted)', () => auditService.summary(ctx, {}));
  await run('audit summary, last 30 days', () => auditService.summary(ctx, month));
  await run('audit summary, last 365 days', () => auditService.summary(ctx, { start_date: addDays(T, -365), end_date: T }), 7);

  // Dashboard and reports.
  await run('dashboard stats (Admin)', () => dashboard.stats({ db, user: admin }));
  await run('dashboard stats (Broker)', () => dashboard.stats({ db, user: broker }));
  await run('dashboard expiring licenses, 90 days (Admin)', () => dashboard.expiringLicenses({ db, user: admin }, { days: 90, limit: 5 }));
  await run('dashboard recent activity (Admin)', () => dashboard.recentActivity({ db, user: admin }));
  await run('admin stats', () => systemStats(ctx, month));
  await run('license analytics', () => reports.licenseAnalytics(ctx, month));
  await run('user analytics', () => reports.userAnalytics(ctx, month));
  await run('course analytics', () => reports.courseAnalytics(ctx, month));

  // Through HTTP: the REST adapter, auth and JSON included.
  const { app } = await buildApp({ config, db, logger: false });
  await app.ready();
  const { token } = await db.transaction(async (tx) => createSession(tx, admin.user_id, { ip: '127.0.0.1', userAgent: 'bench' }));
  const get = (url: string) => async () => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res;
  };
  await run(`HTTP GET /api/audit/logs, page ${deep} by cursor`, get(`/api/audit/logs?cursor=${encodeURIComponent(deepCursor)}&limit=50`));
  await run(
    'HTTP GET /api/audit/summary (last 30 days)',
    get(`/api/audit/summary?start_date=${month.start_date}&end_date=${month.end_date}`),
  );
  await run('HTTP GET /api/dashboard/stats (Admin)', get('/api/dashboard/stats'));
  await run('HTTP GET /api/reports/licenses', get('/api/reports/licenses'));
  let csvBytes = 0;
  await run(
    `HTTP CSV export, all ${LICENSES.toLocaleString('en-US')} licenses`,
    async () => {
      csvBytes = (await get('/api/reports/licenses/export?format=csv')()).rawPayload.length;
    },
    5,
  );

  // Imports (docs/performance.md "Imports"): a 10,000-row roster previewed, committed, previewed again and undone, once each.
  const importTimings = await benchImports(app, token);

  // For comparison: the straightforward queries this design avoids.
  await run(`naive: ORDER BY log_id DESC LIMIT 50 OFFSET ${(deep - 1) * 50} with row reads`, () =>
    rawRows(
      db,
      sql`SELECT a.*, u.first_name, u.last_name, u.email FROM audit_logs a LEFT JOIN users u ON u.user_id = a.user_id
           ORDER BY a.log_id DESC LIMIT 50 OFFSET ${(deep - 1) * 50}`,
    ),
  );
  await run('naive: SELECT count(*) FROM audit_logs', () => rawRows(db, sql`SELECT count(*) AS n FROM audit_logs`), 7);
  await run(
    "naive: action LIKE '%create%' page 1 with count",
    async () => {
      await rawRows(db, sql`SELECT count(*) AS n FROM audit_logs WHERE action LIKE '%create%'`);
      return rawRows(db, sql`SELECT * FROM audit_logs WHERE action LIKE '%create%' ORDER BY log_id DESC LIMIT 50`);
    },
    7,
  );
  await run(
    'naive: summary GROUP BY over the last 365 days',
    async () => {
      const from = new Date(Date.now() - 365 * DAY).toISOString();
      await rawRows(db, sql`SELECT action, count(*) AS n FROM audit_logs WHERE "timestamp" >= ${from} GROUP BY action`);
      await rawRows(db, sql`SELECT target_table, count(*) AS n FROM audit_logs WHERE "timestamp" >= ${from} GROUP BY target_table`);
      await rawRows(db, sql`SELECT count(DISTINCT user_id) AS n FROM audit_logs WHERE "timestamp" >= ${from}`);
    },
    5,
  );
  console.log('\n');

  const w = Math.max(...results.map((r) => r.name.length));
  const line = (cells: string[]) =>
    console.log(
      `| ${cells[0]!.padEnd(w)} | ${cells
        .slice(1)
        .map((c) => c.padStart(9))
        .join(' | ')} |`,
    );
  line(['query', 'median ms', 'p95 ms', 'min ms', 'runs']);
  console.log(`|${'-'.repeat(w + 2)}|${Array(4).fill('-'.repeat(11)).join('|')}|`);
  for (const r of results) line([r.name, r.median.toFixed(2), r.p95.toFixed(2), r.min.toFixed(2), String(r.runs)]);
  console.log(`\nCSV export size: ${(csvBytes / 1024 / 1024).toFixed(1)} MB`);
  console.log('');
  printImportTimings(importTimings);

  console.log('\nQuery plans:');
  const plans: Array<[string, SQL]> = [
    [
      'unfiltered page ids',
      sql`SELECT log_id, "timestamp" FROM audit_logs ORDER BY "timestamp" DESC, log_id DESC LIMIT 50 OFFSET ${(deep - 1) * 50}`,
    ],
    [
      'table page ids',
      sql`SELECT log_id, "timestamp" FROM audit_logs WHERE target_table = ${'licenses'} ORDER BY "timestamp" DESC, log_id DESC LIMIT 50 OFFSET 1000`,
    ],
    [
      'action IN page ids',
      sql`SELECT log_id, "timestamp" FROM audit_logs WHERE action IN (${'login'}, ${'login_failed'}) ORDER BY "timestamp" DESC, log_id DESC LIMIT 50`,
    ],
    [
      'count per action in range',
      sql`SELECT count(*) FROM audit_logs WHERE action = ${'create'} AND "timestamp" >= ${month.start_date} AND "timestamp" < ${T}`,
    ],
    ['all-time count', sql`SELECT (SELECT count(*) FROM audit_logs) AS n, (SELECT max(log_id) FROM audit_logs) AS m`],
  ];
  for (const [name, query] of plans) console.log(`  ${name}: ${await plan(db, query)}`);

  await app.close();
  await db.close();
  if (process.env.BENCH_KEEP) console.log(`\nKept ${pgDb ? pgDb.url.replace(/\/\/[^@]*@/, '//') : dir}`);
  else {
    fs.rmSync(dir, { recursive: true, force: true });
    await pgDb?.drop();
  }
}

await main();
