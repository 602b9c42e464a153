/**
 * `npm run bench:api`: HTTP throughput of the product as shipped against a bare baseline doing the same work on
 * the same data (docs/performance.md "API throughput"). It takes the large bench database (bench/api-db.ts: seeded
 * once, kept by data version), builds the product if needed (scripts/build.mjs) and starts, each on its own copy
 * of the data, on 127.0.0.1 and a free port:
 *   product   node <the flags of `npm run start:server`> server/dist/server.mjs, NODE_ENV=production,
 *             SCHEDULER=off
 *   baseline  bench/baseline.ts (plain Fastify and prepared statements), with the same node flags
 * (both with bench/exit-with-parent.mjs, which stops them should this process die without stopping them)
 * then drives both with autocannon in interleaved rounds (product and baseline alternate, each scenario in turn)
 * and prints req/s, p50 and p99 per scenario with the ratio product/baseline (medians over the rounds). Both
 * servers are stopped at the end, on error and on Ctrl-C too. Not a test: it asserts only that every answer
 * was a 2xx and that both servers answer the same rows.
 *
 *   BENCH_ROUNDS=5 BENCH_DURATION=3 BENCH_CONNECTIONS=20 BENCH_P99_CONNECTIONS=50   the defaults
 *   BENCH_WARMUP=1            seconds of warm-up per scenario and server before the rounds (0: none)
 *   BENCH_ONLY=licenses-rest  only the scenarios whose key contains one of these (comma-separated)
 *   BENCH_PROFILE=<dir>       run both servers under --cpu-prof into <dir> and print where the product's time went,
 *                             and its CPU per request beside the baseline's, package by package
 *   BENCH_RESEED=1            seed the kept database again;  BENCH_KEEP=1  keep this run's copies
 *   DATABASE_URL=postgres://  the same on PostgreSQL (throwaway clones of a kept database; role needs CREATEDB)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { ROOT } from '../server/src/paths.ts';
import { ENGINE } from '../server/src/db/engine.ts';
import { adminSession, clonePostgres, copySqlite, keptPostgres, keptSqlite } from './api-db.ts';
import { children, freePort, onStop, shippedNodeFlags } from './processes.ts';
import { compareProfiles, summarizeProfile } from './cpuprofile.ts';

const env = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number`);
  return v;
};
const ROUNDS = Math.max(1, env('BENCH_ROUNDS', 5));
const DURATION = Math.max(1, env('BENCH_DURATION', 3));
const CONNECTIONS = Math.max(1, env('BENCH_CONNECTIONS', 20));
const P99_CONNECTIONS = env('BENCH_P99_CONNECTIONS', 50);
const WARMUP = env('BENCH_WARMUP', 1);
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;
const HOST = '127.0.0.1';
const WATCH_PARENT = pathToFileURL(path.join(ROOT, 'bench/exit-with-parent.mjs')).href;

const log = (line: string) => console.log(line);

// ---------------------------------------------------------------------------------------------------------------
// Child servers: every one started is stopped, whatever happens.

interface Server {
  name: 'product' | 'baseline';
  child: ChildProcess;
  port: number;
  logFile: string;
  exited: Promise<number | null>;
  /** When it was spawned and how long it took to answer /api/health (ms). */
  spawnedAt: number;
  startMs: number;
  /** Requests it answered under load (warm-up and rounds): the profile's per-request figures divide by this. */
  served: number;
}

const tail = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '');

async function start(name: Server['name'], args: string[], extraEnv: Record<string, string>, dir: string): Promise<Server> {
  const port = await freePort();
  const logFile = path.join(dir, `${name}.log`);
  const out = fs.openSync(logFile, 'w');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOST, PORT: String(port), NODE_ENV: 'production', SCHEDULER: 'off', ...extraEnv };
  if (!extraEnv.DATABASE_URL) delete childEnv.DATABASE_URL;
  // stdin stays a pipe from this process: exit-with-parent.mjs stops the server when it closes (this process died).
  const child = spawn(process.execPath, ['--import', WATCH_PARENT, ...args], { cwd: ROOT, env: childEnv, stdio: ['pipe', out, out] });
  fs.closeSync(out);
  children.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const server: Server = { name, child, port, logFile, exited, spawnedAt: Date.now(), startMs: 0, served: 0 };
  const deadline = Date.now() + 120_000;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`The ${name} server exited while starting:\n${tail(logFile)}`);
    try {
      const res = await fetch(`http://${HOST}:${port}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The ${name} server did not answer /api/health within 120 s:\n${tail(logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.startMs = Date.now() - server.spawnedAt;
  return server;
}

/** SIGTERM (the product drains and exits, writing its CPU profile), SIGKILL after 20 s. */
async function stop(server: Server): Promise<void> {
  if (!children.has(server.child)) return;
  server.child.kill('SIGTERM');
  const killed = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
  await server.exited;
  clearTimeout(killed);
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios.

interface Scenario {
  key: string;
  name: string;
  connections: number;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** A request per call, for writes (unique license numbers, rotating ids). */
  setup?: () => { path?: string; body?: string };
}

const trpcInput = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;

function scenarios(runId: string): Scenario[] {
  const lists: Scenario[] = [];
  for (const name of ['licenses', 'users', 'payments']) {
    lists.push({
      key: `${name}-rest`,
      name: `GET /api/${name}?limit=50`,
      connections: CONNECTIONS,
      method: 'GET',
      path: `/api/${name}?limit=50`,
    });
    lists.push({
      key: `${name}-trpc`,
      name: `tRPC ${name}.list {limit: 50}`,
      connections: CONNECTIONS,
      method: 'GET',
      path: `/trpc/${name}.list${trpcInput({ limit: 50 })}`,
    });
  }
  let created = 0;
  let updated = 0;
  const all: Scenario[] = [
    ...lists,
    { key: 'dashboard-rest', name: 'GET /api/dashboard/stats', connections: CONNECTIONS, method: 'GET', path: '/api/dashboard/stats' },
    {
      key: 'create-rest',
      name: 'POST /api/licenses (+ audit row)',
      connections: CONNECTIONS,
      method: 'POST',
      path: '/api/licenses',
      // Unique numbers across runs and servers; expiring in 2099, so the sorted first page never changes.
      setup: () => ({
        body: JSON.stringify({
          user_id: 2,
          license_number: `BENCH-${runId}-${++created}`,
          state: 'CA',
          issue_date: '2026-01-01',
          expiration_date: '2099-01-01',
        }),
      }),
    },
    {
      key: 'update-rest',
      name: 'PUT /api/licenses/{id} (+ audit row)',
      connections: CONNECTIONS,
      method: 'PUT',
      path: '/api/licenses/1',
      // A different license each time (no two connections on one row), its status toggled.
      setup: () => {
        const n = ++updated;
        return {
          path: `/api/licenses/${1 + ((n * 7919) % 49_999)}`,
          body: JSON.stringify({ status: Math.floor(n / 49_999) % 2 === 0 ? 'Suspended' : 'Active' }),
        };
      },
    },
  ];
  if (P99_CONNECTIONS > 0) {
    for (const s of lists) all.push({ ...s, key: `${s.key}@${P99_CONNECTIONS}`, connections: P99_CONNECTIONS });
  }
  return ONLY.length ? all.filter((s) => ONLY.some((o) => s.key.includes(o))) : all;
}

interface Sample {
  /** Requests answered within the round. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
}

async function drive(server: Server, s: Scenario, token: string, seconds: number): Promise<Sample> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const result = await autocannon({
    url: `http://${HOST}:${server.port}`,
    connections: s.connections,
    duration: seconds,
    headers,
    requests: [
      {
        method: s.method,
        path: s.path,
        ...(s.setup ? { setupRequest: (req: autocannon.Request) => ({ ...req, ...s.setup!() }) } : {}),
      },
    ],
  });
  server.served += result.requests.total;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    throw new Error(
      `${server.name}, ${s.name}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts\n${tail(server.logFile)}`,
    );
  }
  return {
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** Both servers answer the same rows, before any write (every list and the dashboard in full). */
async function checkSameWork(servers: Server[], list: Scenario[], token: string): Promise<void> {
  const ids = (body: unknown): unknown => {
    const rows = (body as { result?: { data?: unknown } }).result?.data ?? body;
    const arr = Array.isArray(rows) ? rows : ((rows as { users?: unknown[] }).users ?? rows);
    return arr;
  };
  for (const s of list) {
    if (s.method !== 'GET' || s.connections !== CONNECTIONS) continue;
    const bodies = [];
    const sizes: number[] = [];
    for (const server of servers) {
      const res = await fetch(`http://${HOST}:${server.port}${s.path}`, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${server.name}, ${s.name}: ${res.status} ${text.slice(0, 300)}`);
      bodies.push(ids(JSON.parse(text)));
      sizes.push(Buffer.byteLength(text));
    }
    log(`  ${s.name}: ${sizes.map((n, i) => `${servers[i]!.name} ${fmt(n)} B`).join(', ')}`);
    if (!isDeepStrictEqual(bodies[0], bodies[1])) {
      throw new Error(
        `${s.name}: the servers answer different rows:\n  ${JSON.stringify(bodies[0]).slice(0, 300)}\n  ${JSON.stringify(bodies[1]).slice(0, 300)}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report.

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Fewer requests than this in one measurement make its p99 and rate unreliable. */
const FEW = 100;

function report(list: Scenario[], samples: Map<string, { product: Sample[]; baseline: Sample[] }>) {
  let few = 0;
  const header = ['scenario', 'conns', 'product req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'base p99 ms', 'ratio', 'ratio range'];
  const rows = list.map((s) => {
    const { product, baseline } = samples.get(s.key)!;
    const ratios = product.map((p, i) => p.rps / baseline[i]!.rps).filter((r) => Number.isFinite(r));
    few += [...product, ...baseline].filter((x) => x.requests < FEW).length;
    const pr = median(product.map((x) => x.rps));
    const br = median(baseline.map((x) => x.rps));
    return [
      s.name,
      String(s.connections),
      fmt(pr),
      fmt(median(product.map((x) => x.p50)), 1),
      fmt(median(product.map((x) => x.p99)), 1),
      fmt(br),
      fmt(median(baseline.map((x) => x.p99)), 1),
      fmt(pr / br, 2),
      ratios.length ? `${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}` : '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  if (few > 0) {
    console.log(
      `\nWarning: ${few} measurement(s) answered fewer than ${FEW} requests in ${DURATION} s: too few for a p99 or a steady ` +
        'rate (the machine is loaded, or the scenario is slow): raise BENCH_DURATION or run on a quieter machine.',
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------

const RUN_PREFIX = 'lm-bench-api-run-';

/** The copies of runs that were killed outright (their bench process is gone): 1.4 GB each on SQLite. */
function removeAbandonedRuns() {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(RUN_PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
    const pid = Number(fs.existsSync(path.join(dir, 'pid')) ? fs.readFileSync(path.join(dir, 'pid'), 'utf8') : NaN);
    if (!Number.isInteger(pid)) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as { code?: string }).code === 'ESRCH') fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

async function main() {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  log(`bench:api on ${ENGINE}: Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), load ${load()}`);
  log(`${ROUNDS} round(s) of ${DURATION} s per scenario and server, ${CONNECTIONS} connections (p99 check at ${P99_CONNECTIONS || 'off'})`);

  // The product as shipped: built by the same script `npm start` runs (it builds only what changed).
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('scripts/build.mjs failed');

  removeAbandonedRuns();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), RUN_PREFIX));
  fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
  const cleanups: Array<() => Promise<void> | void> = [];
  if (!process.env.BENCH_KEEP) cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const servers: Server[] = [];
  const profileSkip = { product: 0, baseline: 0 };
  const served = { product: 0, baseline: 0 };
  let cleaning: Promise<void> | undefined;
  const cleanUp = onStop(
    () =>
      (cleaning ??= (async () => {
        for (const server of servers) await stop(server).catch((err: unknown) => console.error(err));
        for (const child of children) child.kill('SIGKILL'); // one that never became ready
        for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch((err: unknown) => console.error(err));
        if (process.env.BENCH_KEEP) {
          fs.rmSync(path.join(dir, 'pid'), { force: true }); // not abandoned: kept on purpose
          log(`Kept ${dir}`);
        }
      })()),
  );
  try {
    let productDb: Record<string, string>;
    let baselineDb: Record<string, string>;
    let productWhere: { databasePath?: string; databaseUrl?: string };
    let baselineWhere: { databasePath?: string; databaseUrl?: string };
    if (ENGINE === 'postgres') {
      const base = process.env.DATABASE_URL!;
      const kept = await keptPostgres(base, log);
      const p = await clonePostgres(base, kept, 'product');
      cleanups.unshift(p.drop);
      const b = await clonePostgres(base, kept, 'baseline');
      cleanups.unshift(b.drop);
      productDb = { DATABASE_URL: p.url };
      baselineDb = { DATABASE_URL: b.url };
      productWhere = { databaseUrl: p.url };
      baselineWhere = { databaseUrl: b.url };
    } else {
      const kept = await keptSqlite(log);
      const p = path.join(dir, 'product.db');
      const b = path.join(dir, 'baseline.db');
      await copySqlite(kept, p);
      await copySqlite(kept, b);
      productDb = { DATABASE_PATH: p };
      baselineDb = { BASELINE_DB: b };
      productWhere = { databasePath: p };
      baselineWhere = { databasePath: b };
    }
    const { token } = await adminSession(productWhere);
    await adminSession(baselineWhere, token);

    const nodeFlags = shippedNodeFlags();
    const profiled = (name: Server['name']) => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, name)}`] : []);
    const productArgs = [...nodeFlags, ...profiled('product'), 'server/dist/server.mjs'];
    const productDataDir = path.join(dir, 'product-data');
    servers.push(await start('product', productArgs, { ...productDb, DATA_DIR: productDataDir }, dir));
    // The baseline gets the same node flags: the ratio compares the code, not the runtime's settings.
    servers.push(await start('baseline', [...nodeFlags, ...profiled('baseline'), '--import', 'tsx', 'bench/baseline.ts'], baselineDb, dir));
    const [product, baseline] = servers as [Server, Server];
    log(
      `product on :${product.port} (ready in ${fmt(product.startMs / 1000, 1)} s), baseline on :${baseline.port} ` +
        `(ready in ${fmt(baseline.startMs / 1000, 1)} s); logs in ${dir}`,
    );

    const runId = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
    const list = scenarios(runId);
    if (list.length === 0) throw new Error(`BENCH_ONLY=${ONLY.join(',')} matches no scenario`);
    log('Both servers answer the same rows:');
    await checkSameWork(servers, list, token);

    // The profile summary leaves out the product's start-up (module loading, migrations check).
    profileSkip.product = (Date.now() - product.spawnedAt) / 1000;
    profileSkip.baseline = (Date.now() - baseline.spawnedAt) / 1000;
    if (WARMUP > 0) {
      process.stdout.write('warm-up ');
      for (const s of list) for (const server of servers) await drive(server, s, token, WARMUP);
      process.stdout.write('done\n');
    }
    const samples = new Map(list.map((s) => [s.key, { product: [] as Sample[], baseline: [] as Sample[] }]));
    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round}/${ROUNDS} `);
      for (const s of list) {
        // Alternate who goes first, so drift in the machine's load favours neither.
        const order = round % 2 ? [product, baseline] : [baseline, product];
        for (const server of order) samples.get(s.key)![server.name].push(await drive(server, s, token, DURATION));
        process.stdout.write('.');
      }
      process.stdout.write(` load ${load()}\n`);
    }
    log('');
    report(list, samples);
    log(`\nMedians over ${ROUNDS} round(s); ratio = product req/s / baseline req/s (ratio range: per round). Load at the end: ${load()}.`);
    for (const server of servers) served[server.name] = server.served;
  } finally {
    await cleanUp();
  }
  if (PROFILE_DIR) {
    const summaries: Partial<Record<Server['name'], ReturnType<typeof summarizeProfile>>> = {};
    for (const name of ['product', 'baseline'] as const) {
      const folder = path.join(PROFILE_DIR, name);
      const newest = fs.existsSync(folder)
        ? fs
            .readdirSync(folder)
            // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: the main thread's (tsx's loader runs in a thread of its own)
            .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
            .map((f) => path.join(folder, f))
            .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]
        : undefined;
      if (!newest) {
        log(`\nThe ${name} wrote no CPU profile.`);
        continue;
      }
      if (name === 'product') {
        log(`\nCPU profile of the product: ${newest}\n`);
        summaries[name] = summarizeProfile(newest, log, { skipSeconds: profileSkip[name] });
      } else {
        log(`\nCPU profile of the baseline: ${newest}`);
        summaries[name] = summarizeProfile(newest, () => undefined, { skipSeconds: profileSkip[name] });
      }
    }
    if (summaries.product && summaries.baseline) {
      compareProfiles({ ...summaries.product, requests: served.product }, { ...summaries.baseline, requests: served.baseline }, log);
    }
  }
}

await main();
