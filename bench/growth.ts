/**
 * `npm run bench:growth`: what each call of issue #30 costs as the database grows (docs/performance.md "Growth").
 * For every size (GROWTH_SIZES, licenses) and engine it takes a kept database (bench/api-db.ts keptSqliteAt /
 * keptPostgresAt: seeded once with bench/data.ts `generate(sink, { licenses })`, kept by data version and size),
 * starts the real server on each (node with the flags of `npm run start:server`, from source through tsx,
 * NODE_ENV=production, SCHEDULER=off, all at once), signs in an Admin and a Broker of a ~100-person brokerage, and
 * times each call one request at a time, round-robin over every server (so a busy machine hits all sizes alike),
 * after warm-up rounds. It prints p50 and p95 per call and size with the ratios to the smallest size, SQLite and
 * PostgreSQL side by side, then the licenses CSV export once per server (seconds, rows, the server's RSS) and the
 * load average at start and end; the same text is written as markdown to <GROWTH_CACHE_DIR>/growth-<date>.md.
 * Not a test: a call that does not answer 2xx is shown as its status, never timed.
 *
 *   GROWTH_SIZES=10000,100000,1000000   licenses per database (the defaults)
 *   GROWTH_ENGINES=sqlite,postgres      PostgreSQL on DATABASE_URL when set, else on a cluster of its own
 *                                       (scripts/pg-cluster.sh in <GROWTH_CACHE_DIR>/pg, a free port, stopped at the end)
 *   GROWTH_ROUNDS=30 GROWTH_WARMUP=2    measured and warm-up rounds
 *   GROWTH_BUDGET=60                    seconds one call may take in all on one server; then it is measured no more
 *   GROWTH_EXPORT=1                     0: no export;  GROWTH_EXPORT_TIMEOUT=600 seconds
 *   GROWTH_CACHE_DIR=<tmp>/lm-bench-growth   where databases and results are kept;  BENCH_RESEED=1 seeds again
 *   GROWTH_KEEP=1                       keep the run's folder (the servers' logs)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, asc, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { ROLE } from '@lm/shared';
import { ROOT } from '../server/src/paths.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { createSession } from '../server/src/core/sessions.ts';
import { claimJobRun } from '../server/src/modules/notification-management/reminders.job.ts';
import { refreshAllCeCaches } from '../server/src/modules/licenses/ce-ledger.ts';
import { auditLogs, licenses, users } from '../server/src/db/schema/index.ts';
import { configFor, GROWTH_CACHE_DIR, keptPostgresAt, keptSqliteAt } from './api-db.ts';
import { children, freePort, onStop, shippedNodeFlags } from './processes.ts';
import { BROKERAGE_SIZE } from './data.ts';

type Engine = 'sqlite' | 'postgres';
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number`);
  return v;
};
const SIZES = (process.env.GROWTH_SIZES ?? '10000,100000,1000000').split(',').map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 100) throw new Error(`GROWTH_SIZES: ${s} is not a number of licenses (100 or more)`);
  return n;
});
const ENGINES = (process.env.GROWTH_ENGINES ?? 'sqlite,postgres').split(',').map((s) => {
  const e = s.trim();
  if (e !== 'sqlite' && e !== 'postgres') throw new Error(`GROWTH_ENGINES: ${e} is neither sqlite nor postgres`);
  return e as Engine;
});
const ROUNDS = Math.max(1, num('GROWTH_ROUNDS', 30));
const WARMUP = num('GROWTH_WARMUP', 2);
const BUDGET_MS = num('GROWTH_BUDGET', 60) * 1000;
const EXPORT = process.env.GROWTH_EXPORT !== '0';
const EXPORT_TIMEOUT_MS = num('GROWTH_EXPORT_TIMEOUT', 600) * 1000;
const REQUEST_TIMEOUT_MS = 300_000;
const HOST = '127.0.0.1';
const WATCH_PARENT = pathToFileURL(path.join(ROOT, 'bench/exit-with-parent.mjs')).href;
/** The deep page's depth: the row at 90 % of the list. */
const DEPTH = 0.9;
const PAGE = 50;

const out: string[] = [];
const log = (line = '') => {
  console.log(line);
  out.push(line);
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number) => fmt(n, n < 10 ? 1 : 0);
const short = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------------------------
// Processes: every server (and the PostgreSQL cluster) started is stopped, whatever happens.

const tail = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '');

interface Target {
  engine: Engine;
  size: number;
  label: string;
  /** DATABASE_PATH or DATABASE_URL. */
  where: { databasePath?: string; databaseUrl?: string };
  seedNote: string;
  diskBytes: number;
  child?: ChildProcess;
  exited?: Promise<void>;
  port?: number;
  logFile?: string;
  startMs?: number;
  admin?: string;
  broker?: string;
  probe?: Probe;
}

async function startServer(t: Target, dir: string): Promise<void> {
  t.port = await freePort();
  t.logFile = path.join(dir, `server-${t.engine}-${t.size}.log`);
  const dataDir = path.join(dir, `data-${t.engine}-${t.size}`);
  const fd = fs.openSync(t.logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST,
    PORT: String(t.port),
    NODE_ENV: 'production',
    SCHEDULER: 'off',
    DATA_DIR: dataDir,
    CLIENT_DIST: path.join(dir, 'no-client'),
  };
  delete env.DATABASE_URL;
  delete env.DATABASE_PATH;
  if (t.where.databaseUrl) env.DATABASE_URL = t.where.databaseUrl;
  else env.DATABASE_PATH = t.where.databasePath;
  const spawned = Date.now();
  const child = spawn(process.execPath, ['--import', WATCH_PARENT, '--import', 'tsx', ...shippedNodeFlags(), 'server/src/server.ts'], {
    cwd: ROOT,
    env,
    stdio: ['pipe', fd, fd],
  });
  fs.closeSync(fd);
  children.add(child);
  let gone = false;
  t.child = child;
  t.exited = new Promise((resolve) =>
    child.on('exit', () => {
      gone = true;
      children.delete(child);
      resolve();
    }),
  );
  const deadline = Date.now() + 900_000;
  for (;;) {
    if (gone) throw new Error(`The server of ${t.label} exited while starting:\n${tail(t.logFile)}`);
    try {
      if ((await fetch(`http://${HOST}:${t.port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server of ${t.label} did not answer /api/health within 15 min:\n${tail(t.logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  t.startMs = Date.now() - spawned;
}

async function stopServer(t: Target): Promise<void> {
  if (!t.child || !children.has(t.child)) return;
  t.child.kill('SIGTERM');
  const killed = setTimeout(() => t.child!.kill('SIGKILL'), 20_000);
  await t.exited;
  clearTimeout(killed);
}

/** The process's resident memory in kB (VmRSS, or VmHWM: its peak so far), from /proc. */
function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What each database needs for the calls: sessions, the Broker, the positions of the deep pages.

interface Probe {
  licenses: number;
  auditRows: number;
  brokerageId: number;
  brokeragePeople: number;
  brokerId: number;
  /** [expiration_date, license_id] of the row before the licenses' deep page; [timestamp, log_id] of the audit's. */
  licenseCursorRow: Array<string | number>;
  auditCursorRow: Array<string | number>;
  writeLicenseId: number;
  writeLicenseStatus: string;
}

const text = (v: unknown): string | number => (v instanceof Date ? v.toISOString() : (v as string | number));

async function prepare(t: Target): Promise<void> {
  const db = await openDatabase(configFor(t.where));
  try {
    // The one-time CE cache refresh the server runs at start-up (server.ts), done here once per kept database.
    await db.transaction(async (tx) => {
      if (await claimJobRun(db, 'ce_cache_refresh', 'compliance-1')) await refreshAllCeCaches(tx);
    });
    const [admin] = await db.select({ id: users.user_id }).from(users).where(eq(users.role_id, ROLE.Admin)).orderBy(users.user_id).limit(1);
    // The brokerage whose size is nearest BROKERAGE_SIZE (the lowest id among equals) with a live, active Broker.
    const sizes = await db
      .select({ brokerage: users.brokerage_id, people: count() })
      .from(users)
      .where(and(isNotNull(users.brokerage_id), isNull(users.deleted_at)))
      .groupBy(users.brokerage_id);
    sizes.sort((a, b) => Math.abs(a.people - BROKERAGE_SIZE) - Math.abs(b.people - BROKERAGE_SIZE) || a.brokerage! - b.brokerage!);
    let broker: { id: number; brokerage: number; people: number } | undefined;
    for (const s of sizes) {
      const [b] = await db
        .select({ id: users.user_id })
        .from(users)
        .where(
          and(eq(users.brokerage_id, s.brokerage!), eq(users.role_id, ROLE.Broker), eq(users.is_active, true), isNull(users.deleted_at)),
        )
        .orderBy(users.user_id)
        .limit(1);
      if (b) {
        broker = { id: b.id, brokerage: s.brokerage!, people: s.people };
        break;
      }
    }
    if (!admin || !broker) throw new Error(`${t.label}: no Admin or no Broker in the seeded data`);
    const [{ n: licenseCount } = { n: 0 }] = await db.select({ n: count() }).from(licenses);
    const [{ n: auditCount } = { n: 0 }] = await db.select({ n: count() }).from(auditLogs);
    const [lic] = await db
      .select({ e: licenses.expiration_date, id: licenses.license_id })
      .from(licenses)
      .orderBy(asc(licenses.expiration_date), asc(licenses.license_id))
      .limit(1)
      .offset(Math.floor(licenseCount * DEPTH) - 1);
    const [aud] = await db
      .select({ ts: auditLogs.timestamp, id: auditLogs.log_id })
      .from(auditLogs)
      .orderBy(desc(auditLogs.timestamp), desc(auditLogs.log_id))
      .limit(1)
      .offset(Math.floor(auditCount * DEPTH) - 1);
    const writeId = Math.max(1, Math.floor(licenseCount / 2));
    const [w] = await db.select({ status: licenses.status }).from(licenses).where(eq(licenses.license_id, writeId));
    const sessions = await db.transaction(async (tx) => ({
      admin: (await createSession(tx, admin.id, { ip: '127.0.0.1', userAgent: 'bench:growth' })).token,
      broker: (await createSession(tx, broker.id, { ip: '127.0.0.1', userAgent: 'bench:growth' })).token,
    }));
    t.admin = sessions.admin;
    t.broker = sessions.broker;
    t.probe = {
      licenses: licenseCount,
      auditRows: auditCount,
      brokerageId: broker.brokerage,
      brokeragePeople: broker.people,
      brokerId: broker.id,
      licenseCursorRow: [text(lic!.e), lic!.id],
      auditCursorRow: [text(aud!.ts), aud!.id],
      writeLicenseId: writeId,
      writeLicenseStatus: w!.status,
    };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The calls.

/** encodeCursor of server/src/db/list.ts (issue #30 "keyset"), when the code has it. */
type EncodeCursor = (values: Array<string | number | null>) => string;
const listModule = (await import('../server/src/db/list.ts')) as unknown as { encodeCursor?: EncodeCursor };
const encodeCursor = listModule.encodeCursor;

/** A 4-letter fragment of the most common surname of the scaled data (Smith), as someone types it. */
const SEARCH = 'mith';

interface Call {
  key: string;
  name: string;
  who: 'admin' | 'broker';
  path: (t: Target) => string;
  /** A write made (untimed) before each timed request. */
  before?: (t: Target, n: number) => Promise<void>;
}

async function request(
  t: Target,
  who: 'admin' | 'broker',
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://${HOST}:${t.port}/api${p}`, {
    method,
    headers: { authorization: `Bearer ${who === 'admin' ? t.admin : t.broker}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

const setStatus = async (t: Target, status: string) => {
  const res = await request(t, 'admin', 'PUT', `/licenses/${t.probe!.writeLicenseId}`, { status });
  if (res.status !== 200) throw new Error(`${t.label}: the write before page 1 answered ${res.status} ${res.text.slice(0, 200)}`);
};

const CALL_LIST: Array<Call | undefined> = [
  { key: 'licenses-1', name: 'licenses page 1 (Admin)', who: 'admin', path: () => `/licenses/page?limit=${PAGE}` },
  {
    key: 'licenses-1-write',
    name: 'licenses page 1 after a write (Admin)',
    who: 'admin',
    path: () => `/licenses/page?limit=${PAGE}`,
    before: (t, n) => setStatus(t, n % 2 ? 'Suspended' : 'Active'),
  },
  encodeCursor
    ? {
        key: 'licenses-deep',
        name: 'licenses deep page, cursor at 90 % (Admin)',
        who: 'admin',
        path: (t) => `/licenses/page?limit=${PAGE}&cursor=${encodeCursor(t.probe!.licenseCursorRow)}`,
      }
    : undefined,
  {
    key: 'licenses-deep-page',
    name: 'licenses deep page, page= at 90 % (Admin)',
    who: 'admin',
    path: (t) => `/licenses/page?limit=${PAGE}&page=${Math.max(1, Math.floor((t.probe!.licenses * DEPTH) / PAGE))}`,
  },
  {
    key: 'search',
    name: `licenses search "${SEARCH}" (Admin)`,
    who: 'admin',
    path: () => `/licenses/page?limit=${PAGE}&search=${SEARCH}`,
  },
  { key: 'broker-stats', name: 'Broker dashboard stats', who: 'broker', path: () => '/dashboard/stats' },
  {
    key: 'broker-expiring',
    name: 'Broker dashboard expiring (90 days, 5)',
    who: 'broker',
    path: () => '/dashboard/expiring-licenses?days=90&limit=5',
  },
  { key: 'broker-activity', name: 'Broker dashboard recent activity', who: 'broker', path: () => '/dashboard/recent-activity' },
  { key: 'admin-stats', name: 'Admin stats', who: 'admin', path: () => '/admin/stats' },
  { key: 'admin-dashboard', name: 'Admin dashboard stats', who: 'admin', path: () => '/dashboard/stats' },
  { key: 'report-licenses', name: 'license analytics report (Admin)', who: 'admin', path: () => '/reports/licenses' },
  { key: 'revenue', name: 'revenue: payments summary (Admin)', who: 'admin', path: () => '/payments/summary' },
  { key: 'audit-1', name: 'audit log page 1 (Admin)', who: 'admin', path: () => `/audit/logs?limit=${PAGE}` },
  encodeCursor
    ? {
        key: 'audit-deep',
        name: 'audit log deep page, cursor at 90 % (Admin)',
        who: 'admin',
        path: (t) => `/audit/logs?limit=${PAGE}&cursor=${encodeCursor(t.probe!.auditCursorRow)}`,
      }
    : undefined,
  {
    key: 'audit-deep-page',
    name: 'audit log deep page, page= at 90 % (Admin)',
    who: 'admin',
    path: (t) => `/audit/logs?limit=${PAGE}&page=${Math.max(1, Math.floor((t.probe!.auditRows * DEPTH) / PAGE))}`,
  },
  { key: 'users-name', name: 'users page 1 by name (Admin)', who: 'admin', path: () => `/users?limit=${PAGE}&sort=name` },
  { key: 'holders', name: 'holder picker, opened (Admin)', who: 'admin', path: () => '/licenses/holders' },
  {
    key: 'holders-search',
    name: `holder picker, "${SEARCH}" typed (Admin)`,
    who: 'admin',
    path: () => `/licenses/holders?search=${SEARCH}`,
  },
];
const CALLS = CALL_LIST.filter((c): c is Call => c !== undefined);

interface Result {
  times: number[];
  spent: number;
  /** The first answer that was not a 2xx: the status (or the error) and the start of the body. */
  failure?: string;
  stopped?: boolean;
}

async function measure(t: Target, c: Call, n: number, r: Result | undefined): Promise<void> {
  if (r && (r.failure || r.stopped)) return;
  try {
    if (c.before) await c.before(t, n);
    const t0 = performance.now();
    const res = await request(t, c.who, 'GET', c.path(t));
    const took = performance.now() - t0;
    if (!r) return;
    if (res.status < 200 || res.status > 299) {
      r.failure = `HTTP ${res.status}`;
      log(`  ${t.label}, ${c.name}: ${res.status} ${res.text.slice(0, 200)}`);
      return;
    }
    r.times.push(took);
    r.spent += took;
    if (r.spent > BUDGET_MS) r.stopped = true;
  } catch (err) {
    if (!r) throw err;
    r.failure = (err as Error).name === 'TimeoutError' ? `> ${REQUEST_TIMEOUT_MS / 1000} s` : 'error';
    log(`  ${t.label}, ${c.name}: ${(err as Error).message}`);
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

/**
 * The bench builds its deep-page cursors from the database (the row at 90 %); this compares their shape with the
 * `next_cursor` the server gives for page 1, so a cursor the server reads differently is reported, not just a 400.
 */
async function checkCursor(t: Target, listPath: string, ours: Array<string | number>): Promise<void> {
  const res = await request(t, 'admin', 'GET', listPath);
  if (res.status !== 200) return;
  const next = (JSON.parse(res.text) as { pagination?: { next_cursor?: string | null } }).pagination?.next_cursor;
  if (!next) return log(`  ${t.label}: ${listPath} answers no next_cursor`);
  const theirs = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as unknown[];
  const shape = (xs: unknown[]) =>
    xs.map((x) => (typeof x === 'string' && /^\d{4}-\d\d-\d\d[T ]\d/.test(x) ? 'timestamp' : typeof x)).join(', ');
  if (shape(theirs) !== shape(ours))
    log(`  ${t.label}: ${listPath} next_cursor is [${shape(theirs)}] (${JSON.stringify(theirs)}), the bench's [${shape(ours)}]`);
}

// ---------------------------------------------------------------------------------------------------------------
// Export: once per server, one at a time.

async function measureExport(t: Target): Promise<string[]> {
  const pid = t.child!.pid!;
  const before = memoryKb(pid, 'VmRSS');
  let peak = before;
  const sampler = setInterval(() => {
    const now = memoryKb(pid, 'VmRSS');
    if (now > peak) peak = now;
  }, 100);
  const t0 = performance.now();
  let bytes = 0;
  let lines = 0;
  let outcome = 'complete';
  try {
    const res = await fetch(`http://${HOST}:${t.port}/api/licenses/export`, {
      headers: { authorization: `Bearer ${t.admin}` },
      signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
    });
    if (res.status !== 200) outcome = `HTTP ${res.status}`;
    for await (const chunk of res.body ?? []) {
      const b = chunk as Uint8Array;
      bytes += b.length;
      for (let i = 0; i < b.length; i++) if (b[i] === 10) lines++;
    }
  } catch (err) {
    outcome = (err as Error).name === 'TimeoutError' ? `stopped after ${EXPORT_TIMEOUT_MS / 1000} s` : `error: ${(err as Error).message}`;
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  const mb = (kb: number) => fmt(kb / 1024);
  return [
    t.label,
    outcome,
    fmt(seconds, 1),
    fmt(Math.max(0, lines - 1)),
    fmt(bytes / 1e6, 1),
    mb(before),
    mb(peak),
    mb(memoryKb(pid, 'VmHWM')),
  ];
}

// ---------------------------------------------------------------------------------------------------------------

function table(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  log(line(header));
  log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) log(line(r));
}

async function startPgCluster(cleanups: Array<() => Promise<void> | void>): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dir = path.join(GROWTH_CACHE_DIR, 'pg');
  const script = path.join(ROOT, 'scripts/pg-cluster.sh');
  // A cluster left running by a run that was killed.
  if (fs.existsSync(path.join(dir, 'postmaster.pid'))) spawnSync(script, ['stop', dir], { stdio: 'inherit' });
  const port = await freePort();
  const started = spawnSync(script, ['start', dir, String(port)], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`scripts/pg-cluster.sh start failed:\n${started.stdout}${started.stderr}`);
  cleanups.push(() => void spawnSync(script, ['stop', dir], { stdio: 'inherit' }));
  return started.stdout.trim();
}

/** In the child (GROWTH_PREPARE=<engine>): the kept database of every size, probed, written to GROWTH_PREPARE_OUT. */
async function prepareEngine(engine: Engine, out: string): Promise<void> {
  const targets: Target[] = [];
  const base = process.env.DATABASE_URL ?? '';
  // The seed time of each kept database, remembered for the runs that reuse it.
  const timesFile = path.join(GROWTH_CACHE_DIR, 'seed-times.json');
  const times = (fs.existsSync(timesFile) ? JSON.parse(fs.readFileSync(timesFile, 'utf8')) : {}) as Record<string, string>;
  for (const size of SIZES) {
    const label = `${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${short(size)}`;
    const seedLog: string[] = [];
    const note = (line: string) => {
      console.log(`  ${line}`);
      seedLog.push(line);
    };
    let where: Target['where'];
    let diskBytes: number;
    if (engine === 'sqlite') {
      const file = await keptSqliteAt(size, note);
      where = { databasePath: file };
      diskBytes = fs.statSync(file).size;
    } else {
      const url = await keptPostgresAt(base, size, note);
      where = { databaseUrl: url };
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      diskBytes = Number((await c.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]!.n);
      await c.end();
    }
    const seeded = /in ([\d.]+ s)\.$/.exec(seedLog.find((l) => l.startsWith('Seeded')) ?? '')?.[1];
    const key = where.databasePath ? path.basename(where.databasePath) : new URL(where.databaseUrl!).pathname.slice(1);
    if (seeded) times[key] = seeded;
    targets.push({ engine, size, label, where, diskBytes, seedNote: seeded ? `${seeded} (now)` : (times[key] ?? 'kept') });
  }
  fs.writeFileSync(timesFile, JSON.stringify(times, null, 2));
  for (const t of targets) await prepare(t);
  fs.writeFileSync(out, JSON.stringify(targets));
}

async function main() {
  const startLoad = load();
  log(`# bench:growth ${new Date().toISOString()}`);
  log();
  log(`Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), load average at start ${startLoad}`);
  log(
    `Sizes ${SIZES.map(short).join(', ')} licenses on ${ENGINES.join(' and ')}; ${ROUNDS} round(s) after ${WARMUP} warm-up; ` +
      `deep pages ${encodeCursor ? 'by cursor and by page=' : 'by page= only (server/src/db/list.ts has no encodeCursor yet)'}`,
  );
  fs.mkdirSync(GROWTH_CACHE_DIR, { recursive: true });
  const dir = fs.mkdtempSync(path.join(GROWTH_CACHE_DIR, 'run-'));
  const cleanups: Array<() => Promise<void> | void> = [];
  if (!process.env.GROWTH_KEEP) cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  else log(`Server logs in ${dir}`);
  const targets: Target[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanUp = onStop(
    () =>
      (cleaning ??= (async () => {
        // The written license's status put back, then every server stopped.
        for (const t of targets)
          if (t.probe && t.port && t.child && children.has(t.child)) await setStatus(t, t.probe.writeLicenseStatus).catch(() => undefined);
        await Promise.all(targets.map((t) => stopServer(t).catch((err: unknown) => console.error(err))));
        for (const c of children) c.kill('SIGKILL');
        for (const c of cleanups.reverse()) await Promise.resolve(c()).catch((err: unknown) => console.error(err));
      })()),
  );
  try {
    // One process runs on one engine (server/src/db/engine.ts): each engine's databases are seeded and probed by a
    // child of this script started with that engine's DATABASE_URL (prepareEngine below).
    for (const engine of ENGINES) {
      const base = engine === 'postgres' ? await startPgCluster(cleanups) : '';
      const file = path.join(dir, `targets-${engine}.json`);
      const env: NodeJS.ProcessEnv = { ...process.env, GROWTH_PREPARE: engine, GROWTH_PREPARE_OUT: file };
      if (engine === 'postgres') env.DATABASE_URL = base;
      else delete env.DATABASE_URL;
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/growth.ts'], { cwd: ROOT, env, stdio: 'inherit' });
      if (child.status !== 0) throw new Error(`Preparing the ${engine} databases failed (exit ${child.status})`);
      targets.push(...(JSON.parse(fs.readFileSync(file, 'utf8')) as Target[]));
    }
    await Promise.all(targets.map((t) => startServer(t, dir)));
    log();
    table(
      ['database', 'licenses', 'audit rows', 'disk MB', 'seed', 'server ready in s', 'Broker (brokerage, people)'],
      targets.map((t) => [
        t.label,
        fmt(t.probe!.licenses),
        fmt(t.probe!.auditRows),
        fmt(t.diskBytes / 1e6),
        t.seedNote,
        fmt(t.startMs! / 1000, 1),
        `${t.probe!.brokerId} (${t.probe!.brokerageId}, ${t.probe!.brokeragePeople})`,
      ]),
    );

    if (encodeCursor) {
      for (const t of targets) {
        await checkCursor(t, `/licenses/page?limit=${PAGE}`, t.probe!.licenseCursorRow);
        await checkCursor(t, `/audit/logs?limit=${PAGE}`, t.probe!.auditCursorRow);
      }
    }
    const results = new Map<string, Result>();
    const keyOf = (c: Call, t: Target) => `${c.key}|${t.engine}|${t.size}`;
    for (const c of CALLS) for (const t of targets) results.set(keyOf(c, t), { times: [], spent: 0 });
    let writes = 0;
    for (let round = 1 - WARMUP; round <= ROUNDS; round++) {
      process.stdout.write(round <= 0 ? `warm-up ${round + WARMUP}/${WARMUP} ` : `round ${round}/${ROUNDS} `);
      for (const c of CALLS) {
        // Each call in turn on every server, starting from a different one each round.
        const shift = (round + WARMUP) % targets.length;
        for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
          await measure(t, c, ++writes, round > 0 ? results.get(keyOf(c, t)) : undefined).catch((err: unknown) => {
            throw new Error(`${t.label}, ${c.name} (warm-up): ${(err as Error).message}\n${tail(t.logFile!)}`);
          });
        }
        process.stdout.write('.');
      }
      process.stdout.write(` load ${load()}\n`);
    }

    log();
    log(
      `Milliseconds per call, p50 (p95) over ${ROUNDS} rounds; ×: p50 ratio to ${short(SIZES[0]!)}. "n=k": measured k times only (its ${BUDGET_MS / 1000} s budget ran out).`,
    );
    log();
    const header = ['call'];
    for (const e of ENGINES) {
      const name = e === 'sqlite' ? 'SQLite' : 'PG';
      for (const s of SIZES) header.push(`${name} ${short(s)}`);
      for (const s of SIZES.slice(1)) header.push(`× ${short(s)}`);
    }
    const rows = CALLS.map((c) => {
      const row = [c.name];
      for (const e of ENGINES) {
        const p50s: number[] = [];
        for (const s of SIZES) {
          const r = results.get(`${c.key}|${e}|${s}`)!;
          if (r.failure || r.times.length === 0) {
            row.push(r.failure ?? '-');
            p50s.push(NaN);
            continue;
          }
          const p50 = quantile(r.times, 0.5);
          p50s.push(p50);
          row.push(`${ms(p50)} (${ms(quantile(r.times, 0.95))})${r.times.length < ROUNDS ? ` n=${r.times.length}` : ''}`);
        }
        for (const p of p50s.slice(1)) row.push(Number.isFinite(p / p50s[0]!) ? fmt(p / p50s[0]!, 1) : '-');
      }
      return row;
    });
    table(header, rows);

    if (EXPORT) {
      log();
      log('Licenses CSV export (GET /api/licenses/export), once per server, one server at a time; memory: the server process.');
      log();
      const exportRows: string[][] = [];
      for (const t of targets) {
        process.stdout.write(`export ${t.label} ...\n`);
        exportRows.push(await measureExport(t));
      }
      table(['database', 'outcome', 'seconds', 'rows', 'MB sent', 'RSS before MB', 'RSS peak MB', 'VmHWM MB'], exportRows);
    }
    log();
    log(`Load average at start ${startLoad}, at the end ${load()}.`);
    const file = path.join(GROWTH_CACHE_DIR, `growth-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.md`);
    fs.writeFileSync(file, `${out.join('\n')}\n`);
    console.log(`\nWritten to ${file}`);
  } finally {
    await cleanUp();
  }
}

if (process.env.GROWTH_PREPARE) await prepareEngine(process.env.GROWTH_PREPARE as Engine, process.env.GROWTH_PREPARE_OUT!);
else await main();
