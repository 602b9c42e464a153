/**
 * `npm run bench`: builds a throwaway database from the real migrations, fills it like a large
 * office (1,000,000 audit rows, tens of thousands of licenses), then times the Insight queries
 * through the real service functions and through HTTP (app.inject). Not a test: it prints a table.
 *
 *   BENCH_AUDIT_ROWS=200000 npm run bench     a smaller run
 *   BENCH_KEEP=1 npm run bench                keep the database and print its path
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, ROLE } from '@lm/shared';
import { loadConfig } from '../server/src/config.ts';
import { closeDatabase, openDatabase, type Db } from '../server/src/db/client.ts';
import { buildApp } from '../server/src/app.ts';
import { today } from '../server/src/core/dates.ts';
import { createSession, type AuthUser } from '../server/src/modules/auth/sessions.ts';
import * as auditService from '../server/src/modules/audit/audit.service.ts';
import * as dashboard from '../server/src/modules/dashboard/dashboard.service.ts';
import * as reports from '../server/src/modules/reports/reports.service.ts';
import { systemStats } from '../server/src/modules/admin/stats.service.ts';

const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const USERS = 20_000;
const BROKERAGES = 200;
const LICENSES = 50_000;
const COURSES = 300;
const COMPLETIONS = 60_000;
const PAYMENTS = 40_000;
const DAY = 86_400_000;

// A small deterministic PRNG, so every run builds the same data.
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));

function seedData(db: Db) {
  const c = db.$client;
  // A bigger page cache while seeding: the four audit indexes take random inserts. Restored below.
  const cacheSize = c.pragma('cache_size', { simple: true });
  c.pragma('cache_size = -262144');
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  const T = today();
  const STATES = ['CA', 'TX', 'FL', 'NY', 'WA', 'AZ', 'CO', 'GA', 'IL', 'NC'] as const;

  c.transaction(() => {
    const b = c.prepare('INSERT INTO brokerages (name, created_at, updated_at) VALUES (?, ?, ?)');
    for (let i = 1; i <= BROKERAGES; i++) b.run(`Brokerage ${i}`, iso(now - 900 * DAY), iso(now - 900 * DAY));

    const u = c.prepare(
      `INSERT INTO users (email, password_hash, first_name, last_name, role_id, brokerage_id, is_active, login_count, created_at, updated_at)
       VALUES (?, 'x', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= USERS; i++) {
      const role = i === 1 ? ROLE.Admin : i % 50 === 0 ? ROLE.School : i % 10 === 0 ? ROLE.Broker : ROLE.Agent;
      const created = now - int(1, 900) * DAY;
      u.run(
        `user${i}@bench.test`,
        `First${i}`,
        `Last${i}`,
        role,
        role === ROLE.Admin || role === ROLE.School ? null : int(1, BROKERAGES),
        rand() < 0.9 ? 1 : 0,
        int(0, 300),
        iso(created),
        iso(created),
      );
    }

    const l = c.prepare(
      `INSERT INTO licenses (user_id, license_number, state, issue_date, expiration_date, status, ce_hours_required, ce_hours_completed, renewed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 45, ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= LICENSES; i++) {
      const exp = addDays(T, int(-365, 730));
      const status =
        exp < T ? (rand() < 0.8 ? 'Expired' : 'Active') : pick(['Active', 'Active', 'Active', 'Active', 'Pending Renewal', 'Suspended']);
      const created = now - int(1, 900) * DAY;
      l.run(
        int(2, USERS),
        `LIC-${i}`,
        pick(STATES),
        addDays(exp, -730),
        exp,
        status,
        int(0, 45),
        rand() < 0.2 ? iso(now - int(0, 365) * DAY) : null,
        iso(created),
        iso(created),
      );
    }

    const co = c.prepare(
      `INSERT INTO courses (course_name, description, provider, ce_hours, school_id, created_at, updated_at) VALUES (?, 'Course', 'Provider', ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= COURSES; i++)
      co.run(`Course ${i}`, pick([1, 2, 3, 4, 7.5]), 50 * int(1, USERS / 50), iso(now - 800 * DAY), iso(now - 800 * DAY));

    const cp = c.prepare(
      `INSERT INTO completions (user_id, course_id, completion_date, hours, status, rating, reviewed_at, created_at, updated_at)
       VALUES (?, ?, ?, 3, ?, ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= COMPLETIONS; i++) {
      const created = now - int(0, 700) * DAY;
      const status = pick(['Approved', 'Approved', 'Approved', 'Pending', 'Rejected'] as const);
      cp.run(
        int(2, USERS),
        int(1, COURSES),
        new Date(created).toISOString().slice(0, 10),
        status,
        rand() < 0.6 ? int(1, 5) : null,
        status === 'Pending' ? null : iso(created + int(0, 10) * DAY),
        iso(created),
        iso(created),
      );
    }

    const p = c.prepare(
      `INSERT INTO payments (user_id, amount_cents, status, payment_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= PAYMENTS; i++) {
      const created = now - int(0, 700) * DAY;
      p.run(
        int(2, USERS),
        int(1_000, 50_000),
        pick(['Completed', 'Completed', 'Completed', 'Pending', 'Failed', 'Refunded']),
        new Date(created).toISOString().slice(0, 10),
        iso(created),
        iso(created),
      );
    }

    // The audit log: two years of history, oldest first, so log_id grows with timestamp.
    const a = c.prepare(
      `INSERT INTO audit_logs (timestamp, user_id, action, target_table, target_id, ip_address, old_values, new_values) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const ACTIONS = [
      ['create', 30],
      ['update', 33],
      ['delete', 4],
      ['login', 20],
      ['login_failed', 3],
      ['logout', 6],
      ['renew', 2],
      ['bulk_update', 1],
      ['review', 1],
    ] as const;
    const weighted = ACTIONS.flatMap(([name, w]) => Array<string>(w).fill(name));
    const TABLES = [
      'users',
      'licenses',
      'licenses',
      'licenses',
      'courses',
      'completions',
      'completions',
      'payments',
      'payments',
      'brokerages',
    ];
    const span = 730 * DAY;
    const start = now - span;
    for (let i = 0; i < AUDIT_ROWS; i++) {
      const action = pick(weighted);
      const table = action.startsWith('log') ? 'users' : pick(TABLES);
      const userId = action === 'login_failed' && rand() < 0.5 ? null : int(1, USERS);
      const target = int(1, 50_000);
      a.run(
        iso(start + Math.floor((i * span) / AUDIT_ROWS)),
        userId,
        action,
        table,
        target,
        `10.0.${int(0, 255)}.${int(1, 254)}`,
        action === 'update' ? `{"status":"Active","ce_hours_completed":${int(0, 40)}}` : null,
        action === 'delete' ? null : `{"id":${target},"status":"Active","note":"bench row ${i}"}`,
      );
    }
  })();
  c.pragma(`cache_size = ${cacheSize}`);
  c.pragma('optimize');
}

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

function plan(db: Db, sqlText: string, ...params: unknown[]): string {
  const rows = db.$client.prepare(`EXPLAIN QUERY PLAN ${sqlText}`).all(...params) as Array<{ detail: string }>;
  return rows.map((r) => r.detail).join(' | ');
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-bench-'));
  const config = loadConfig({ DATA_DIR: dir, SCHEDULER: 'off', CLIENT_DIST: path.join(dir, 'no-client') });
  const db = openDatabase(config.databasePath);
  console.log(`Database: ${config.databasePath}`);
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), TZ=${process.env.TZ ?? '(system)'}`,
  );

  const t0 = Date.now();
  seedData(db);
  const seconds = (Date.now() - t0) / 1000;
  const size =
    fs.statSync(config.databasePath).size +
    (fs.existsSync(`${config.databasePath}-wal`) ? fs.statSync(`${config.databasePath}-wal`).size : 0);
  console.log(
    `Seeded ${AUDIT_ROWS.toLocaleString('en-US')} audit rows, ${LICENSES.toLocaleString('en-US')} licenses, ${USERS.toLocaleString('en-US')} users, ` +
      `${COMPLETIONS.toLocaleString('en-US')} completions, ${PAYMENTS.toLocaleString('en-US')} payments in ${seconds.toFixed(1)} s ` +
      `(${(AUDIT_ROWS / seconds).toFixed(0)} audit rows/s incl. the rest); ${(size / 1024 / 1024).toFixed(0)} MB`,
  );

  const admin = db.$client
    .prepare('SELECT user_id, email, first_name, last_name, role_id, brokerage_id FROM users WHERE role_id = 1 LIMIT 1')
    .get() as AuthUser;
  const broker = db.$client
    .prepare('SELECT user_id, email, first_name, last_name, role_id, brokerage_id FROM users WHERE role_id = 2 LIMIT 1')
    .get() as AuthUser;
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
  const once = (name: string, fn: () => unknown) => {
    const t1 = process.hrtime.bigint();
    fn();
    const ms = Number(process.hrtime.bigint() - t1) / 1e6;
    results.push({ name, median: ms, p95: ms, min: ms, runs: 1 });
  };
  once('audit logs, page 1, first call (counts all rows once)', () => auditService.listLogs(ctx, { page: 1, limit: 50 }));
  once('audit summary, all time, first call (counts per action/table/user once)', () => auditService.summary(ctx, {}));
  await run('audit logs, page 1 (unfiltered)', () => auditService.listLogs(ctx, { page: 1, limit: 50 }));
  await run(`audit logs, page ${deep.toLocaleString('en-US')} of ${pages.toLocaleString('en-US')} (unfiltered)`, () =>
    auditService.listLogs(ctx, { page: deep, limit: 50 }),
  );
  await run(`audit logs, last page (${pages.toLocaleString('en-US')})`, () => auditService.listLogs(ctx, { page: pages, limit: 50 }));
  const licPages = auditService.listLogs(ctx, { target_table: 'licenses', limit: 100 }).pagination.pages;
  await run(
    `audit logs, table=licenses, page ${Math.floor(licPages / 2).toLocaleString('en-US')} of ${licPages.toLocaleString('en-US')} (limit 100)`,
    () => auditService.listLogs(ctx, { target_table: 'licenses', page: Math.floor(licPages / 2), limit: 100 }),
  );
  await run('audit logs, table=licenses, page 1', () => auditService.listLogs(ctx, { target_table: 'licenses', page: 1, limit: 50 }));
  await run('audit logs, table=licenses + last 30 days, page 1', () =>
    auditService.listLogs(ctx, { target_table: 'licenses', ...month, page: 1, limit: 50 }),
  );
  await run('audit logs, action~"create" page 1', () => auditService.listLogs(ctx, { action: 'create', page: 1, limit: 50 }));
  const createPages = auditService.listLogs(ctx, { action: 'create', limit: 50 }).pagination.pages;
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
  const token = createSession(db, admin.user_id, { ip: '127.0.0.1', userAgent: 'bench' }).token;
  const get = (url: string) => async () => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res;
  };
  await run(`HTTP GET /api/audit/logs?page=${deep}`, get(`/api/audit/logs?page=${deep}&limit=50`));
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

  // For comparison: the straightforward queries this design avoids.
  await run(`naive: ORDER BY log_id DESC LIMIT 50 OFFSET ${(deep - 1) * 50} with row reads`, () =>
    db.$client
      .prepare(
        'SELECT a.*, u.first_name, u.last_name, u.email FROM audit_logs a LEFT JOIN users u ON u.user_id = a.user_id ORDER BY a.log_id DESC LIMIT 50 OFFSET ?',
      )
      .all((deep - 1) * 50),
  );
  await run('naive: SELECT count(*) FROM audit_logs', () => db.$client.prepare('SELECT count(*) FROM audit_logs').pluck().get(), 7);
  await run(
    "naive: action LIKE '%create%' page 1 with count",
    () => {
      db.$client.prepare("SELECT count(*) FROM audit_logs WHERE action LIKE '%create%'").pluck().get();
      return db.$client.prepare("SELECT * FROM audit_logs WHERE action LIKE '%create%' ORDER BY log_id DESC LIMIT 50").all();
    },
    7,
  );
  await run(
    'naive: summary GROUP BY over the last 365 days',
    () => {
      const from = new Date(Date.now() - 365 * DAY).toISOString();
      db.$client.prepare('SELECT action, count(*) FROM audit_logs WHERE timestamp >= ? GROUP BY action').all(from);
      db.$client.prepare('SELECT target_table, count(*) FROM audit_logs WHERE timestamp >= ? GROUP BY target_table').all(from);
      db.$client.prepare('SELECT count(DISTINCT user_id) FROM audit_logs WHERE timestamp >= ?').pluck().get(from);
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

  console.log('\nQuery plans:');
  const plans: Array<[string, string, unknown[]]> = [
    ['unfiltered page ids', 'SELECT log_id, timestamp FROM audit_logs ORDER BY timestamp DESC, log_id DESC LIMIT 50 OFFSET 1000', []],
    [
      'table page ids',
      'SELECT log_id, timestamp FROM audit_logs WHERE target_table = ? ORDER BY timestamp DESC, log_id DESC LIMIT 50 OFFSET 1000',
      ['licenses'],
    ],
    [
      'action IN page ids',
      'SELECT log_id, timestamp FROM audit_logs WHERE action IN (?, ?) ORDER BY timestamp DESC, log_id DESC LIMIT 50',
      ['login', 'login_failed'],
    ],
    [
      'count per action in range',
      'SELECT count(*) FROM audit_logs WHERE action = ? AND timestamp >= ? AND timestamp < ?',
      ['create', '2025', '2026'],
    ],
  ];
  for (const [name, text, params] of plans) console.log(`  ${name}: ${plan(db, text, ...params)}`);

  await app.close();
  closeDatabase(db);
  if (process.env.BENCH_KEEP) console.log(`\nKept ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}

await main();
