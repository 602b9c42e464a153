/**
 * `npm run bench:abuse` (docs/security.md "Bounded work per request"): the shape of issue #25's attack scripts
 * against the product as shipped (server/dist/server.mjs, built by scripts/build.mjs) on a copy of the bench
 * database (bench/api-db.ts: 50,000 licenses, seeded once and kept). For ABUSE_SECONDS (30):
 *   - 16 anonymous sign-in floods: each a loop of POST /trpc/auth.login×10?batch=1 (10 bad sign-ins a request)
 *     from rotating 127.0.x.y addresses;
 *   - 2 Agent floods: each ABUSE_AGENT_CONNECTIONS (8) concurrent loops of GET /trpc/dashboard.stats×10?batch=1
 *     (the Agents with the most licenses, each signed in);
 *   - a signed-in Broker polls GET /api/auth/me every 50 ms.
 * Prints the answers of each flood and /auth/me p50/p99; exits 1 when the p99 is 100 ms or more. The load
 * generator runs on the same machine as the server, so the figures include its own CPU use.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { desc, eq, sql } from 'drizzle-orm';
import { ROLE } from '@lm/shared';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { ROOT } from '../server/src/paths.ts';
import { createSession } from '../server/src/core/sessions.ts';
import { licenses, users } from '../server/src/db/schema/index.ts';
import { freePort, sleep } from '../server/test/child-server.ts';
import { copySqlite, keptSqlite } from './api-db.ts';

const SECONDS = Number(process.env.ABUSE_SECONDS ?? 30);
const LOGIN_FLOODS = Number(process.env.ABUSE_LOGIN_FLOODS ?? 16);
const AGENT_CONNECTIONS = Number(process.env.ABUSE_AGENT_CONNECTIONS ?? 8);
const BATCH = 10;
const HOST = '127.0.0.1';
const WATCH_PARENT = pathToFileURL(path.join(ROOT, 'bench/exit-with-parent.mjs')).href;
const log = (line: string) => console.log(line);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Answer {
  status: number;
  ms: number;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(port: number, method: string, url: string, opts: { body?: string; token?: string; from?: string } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: HOST,
        port,
        method,
        path: url,
        // Sign-in floods come from many addresses (a new connection each); the rest keep their connections.
        ...(opts.from ? { localAddress: opts.from, agent: false } : { agent: keepAlive }),
        headers: {
          ...(opts.body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(opts.body) } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.setTimeout(60_000, () => req.destroy());
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** The signed-in user's client (a worker thread): GET /api/auth/me every 50 ms until the deadline, over one kept connection. */
const POLLER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { port, token, deadline } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const me = [];
const other = {};
const once = () => new Promise((resolve) => {
  const started = performance.now();
  const req = http.request({ host: '127.0.0.1', port, path: '/api/auth/me', agent, headers: { authorization: 'Bearer ' + token } }, (res) => {
    res.resume();
    res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
  });
  req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
  req.end();
});
(async () => {
  while (Date.now() < deadline) {
    const r = await once();
    if (r.status === 200) me.push(r.ms);
    else other[r.status] = (other[r.status] || 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  agent.destroy();
  parentPort.postMessage({ me, other });
})();
`;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Sessions on the database copy (the product's own createSession): two Agents with the most licenses and a Broker. */
async function sessions(databasePath: string, dataDir: string): Promise<{ agents: string[]; broker: string }> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    SCHEDULER: 'off',
    CLIENT_DIST: path.join(dataDir, 'no-client'),
    DATABASE_PATH: databasePath,
  });
  const db = await openDatabase(config);
  try {
    const agents = await db
      .select({ user_id: users.user_id, n: sql<number>`count(*)` })
      .from(licenses)
      .innerJoin(users, eq(users.user_id, licenses.user_id))
      .where(eq(users.role_id, ROLE.Agent))
      .groupBy(users.user_id)
      .orderBy(desc(sql`count(*)`))
      .limit(2);
    const [broker] = await db.select({ user_id: users.user_id }).from(users).where(eq(users.role_id, ROLE.Broker)).limit(1);
    if (agents.length < 2 || !broker) throw new Error('the bench data has no two Agents with licenses and a Broker');
    const token = async (userId: number) =>
      (await db.transaction((tx) => createSession(tx, userId, { ip: HOST, userAgent: 'bench:abuse' }))).token;
    return { agents: [await token(agents[0]!.user_id), await token(agents[1]!.user_id)], broker: await token(broker.user_id) };
  } finally {
    await db.close();
  }
}

function shippedNodeFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts['start:server'] ?? '').split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('server/dist/server.mjs'));
}

async function startServer(dir: string, databasePath: string): Promise<{ child: ChildProcess; port: number; exited: Promise<unknown> }> {
  const port = await freePort();
  const out = fs.openSync(path.join(dir, 'server.log'), 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST,
    PORT: String(port),
    NODE_ENV: 'production',
    SCHEDULER: 'off',
    TRUST_PROXY: 'false',
    DATA_DIR: path.join(dir, 'data'),
    DATABASE_PATH: databasePath,
  };
  delete env.DATABASE_URL;
  // stdin stays a pipe: exit-with-parent.mjs stops the server should this process die.
  const child = spawn(process.execPath, ['--import', WATCH_PARENT, ...shippedNodeFlags(), 'server/dist/server.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['pipe', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 120_000;
  while ((await request(port, 'GET', '/api/health')).status !== 200) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start; see ${dir}/server.log`);
    await sleep(200);
  }
  return { child, port, exited };
}

async function main() {
  log(`bench:abuse: Node ${process.version}, ${os.availableParallelism()} cores, load ${load()}`);
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('scripts/build.mjs failed');
  const kept = await keptSqlite(log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-abuse-'));
  const databasePath = path.join(dir, 'abuse.db');
  await copySqlite(kept, databasePath);
  const tokens = await sessions(databasePath, path.join(dir, 'data'));
  const server = await startServer(dir, databasePath);
  const { port } = server;
  try {
    const deadline = Date.now() + SECONDS * 1000;
    const tally = (into: Record<number, number>, status: number) => (into[status] = (into[status] ?? 0) + 1);

    const logins: Record<number, number> = {};
    const loginBody = JSON.stringify(
      Object.fromEntries(Array.from({ length: BATCH }, (_, i) => [i, { email: `nobody${i}@abuse.test`, password: 'Wrong-Passw0rd' }])),
    );
    const loginUrl = `/trpc/${Array.from({ length: BATCH }, () => 'auth.login').join(',')}?batch=1`;
    const loginFlood = async () => {
      while (Date.now() < deadline) {
        const from = `127.0.${2 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
        tally(logins, (await request(port, 'POST', loginUrl, { body: loginBody, from })).status);
      }
    };

    const stats: Record<number, number> = {};
    const statsMs: number[] = [];
    const statsUrl = `/trpc/${Array.from({ length: BATCH }, () => 'dashboard.stats').join(',')}?batch=1`;
    const agentFlood = async (token: string) => {
      while (Date.now() < deadline) {
        const r = await request(port, 'GET', statsUrl, { token });
        tally(stats, r.status);
        if (r.status === 200) statsMs.push(r.ms);
      }
    };

    // The signed-in user's client runs on its own thread, so the floods' work in this process does not delay it.
    const poller = () =>
      new Promise<{ me: number[]; other: Record<number, number> }>((resolve, reject) => {
        const worker = new Worker(POLLER, { eval: true, workerData: { port, token: tokens.broker, deadline } });
        worker.once('message', resolve);
        worker.once('error', reject);
      });

    log(
      `${SECONDS} s: ${LOGIN_FLOODS} anonymous floods of ${BATCH}-call sign-in batches, 2 Agents × ${AGENT_CONNECTIONS} connections of ` +
        `${BATCH}-call dashboard.stats batches, /api/auth/me every 50 ms as a Broker`,
    );
    const [{ me, other: meOther }] = await Promise.all([
      poller(),
      ...Array.from({ length: LOGIN_FLOODS }, loginFlood),
      ...tokens.agents.flatMap((token) => Array.from({ length: AGENT_CONNECTIONS }, () => agentFlood(token))),
    ]);

    const n = (o: Record<number, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    log(`  sign-in batches: ${n(logins)} requests (${(n(logins) / SECONDS).toFixed(0)}/s), answers ${JSON.stringify(logins)}`);
    log(
      `  dashboard.stats batches: ${n(stats)} requests (${(n(stats) / SECONDS).toFixed(0)}/s), answers ${JSON.stringify(stats)}; ` +
        `answered batches p50 ${percentile(statsMs, 50).toFixed(0)} ms, p99 ${percentile(statsMs, 99).toFixed(0)} ms`,
    );
    const p99 = percentile(me, 99);
    log(
      `  /auth/me: ${me.length} answers, p50 ${percentile(me, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...me).toFixed(0)} ms` +
        `${Object.keys(meOther).length ? `, other answers ${JSON.stringify(meOther)}` : ''}`,
    );
    log(`  load average at the end: ${load()}`);
    process.exitCode = p99 < 100 && Object.keys(meOther).length === 0 ? 0 : 1;
  } finally {
    keepAlive.destroy();
    server.child.kill('SIGTERM');
    const killed = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
    await server.exited;
    clearTimeout(killed);
    if (!process.env.ABUSE_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
