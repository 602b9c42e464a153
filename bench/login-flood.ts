/**
 * `npm run bench:login-flood` (docs/security.md "Fair hashing"): starts the real server, then for
 * FLOOD_SECONDS (30) keeps FLOOD_CONCURRENCY (150) bad sign-ins in flight from many loopback source
 * addresses (127.0.x.y; TRUST_PROXY off, so the server sees them as distinct), half against the real
 * users' e-mails and half against unknown ones. Meanwhile legitimate users, who signed in before from
 * their address, sign in about once a second each, and a signed-in client polls /auth/me.
 * Prints the legitimate success ratio and /auth/me p50/p99. Not a test: it prints figures (exit 1 when
 * under 9 in 10 or p99 over 500 ms). FLOOD_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT, serverEnv, sleep } from '../server/test/child-server.ts';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 30);
const CONCURRENCY = Number(process.env.FLOOD_CONCURRENCY ?? 150);
const LEGIT_USERS = 10;
const ADMIN = { email: 'flood-admin@flood.test', password: 'Flood-Passw0rd' };
const USER_PASSWORD = 'Legit-Passw0rd';

interface Answer {
  status: number;
  body: any;
  ms: number;
}

function request(port: number, method: string, url: string, opts: { body?: unknown; token?: string; from?: string } = {}): Promise<Answer> {
  const started = performance.now();
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api${url}`,
        localAddress: opts.from,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started });
        });
      },
    );
    req.on('error', () => resolve({ status: 0, body: null, ms: performance.now() - started }));
    req.setTimeout(30_000, () => req.destroy());
    if (payload) req.write(payload);
    req.end();
  });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const nodeArgs = (process.env.FLOOD_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/src/server.ts'], {
    cwd: REPO_ROOT,
    env: { ...serverEnv(dataDir, port, ADMIN), TRUST_PROXY: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if ((await request(port, 'GET', '/health')).status === 200) return child;
    await sleep(100);
  }
  throw new Error('server did not start');
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-flood-'));
  const port = await freePort();
  const server = await startServer(dataDir, port);
  try {
    const admin = await request(port, 'POST', '/auth/login', { body: ADMIN });
    const token = admin.body.token as string;
    const users: Array<{ email: string; from: string }> = [];
    for (let i = 1; i <= LEGIT_USERS; i++) {
      const email = `legit${i}@flood.test`;
      const created = await request(port, 'POST', '/users', {
        token,
        body: { email, password: USER_PASSWORD, first_name: 'Legit', last_name: `User ${i}`, role_id: 3 },
      });
      if (created.status !== 200) throw new Error(`could not create ${email}: ${JSON.stringify(created.body)}`);
      // Each signs in once from its own address before the flood: a known source from then on.
      const from = `127.0.1.${i}`;
      const first = await request(port, 'POST', '/auth/login', { body: { email, password: USER_PASSWORD }, from });
      if (first.status !== 200) throw new Error(`first sign-in of ${email} failed: ${first.status}`);
      users.push({ email, from });
    }

    const deadline = Date.now() + SECONDS * 1000;
    const flood: Record<number, number> = {};
    let floodN = 0;
    const attacker = async (a: number) => {
      while (Date.now() < deadline) {
        const from = `127.0.${2 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
        const email =
          a % 2 === 0 ? users[Math.floor(Math.random() * users.length)]!.email : `nobody${Math.floor(Math.random() * 1e6)}@flood.test`;
        const r = await request(port, 'POST', '/auth/login', { body: { email, password: 'Wrong-Passw0rd' }, from });
        flood[r.status] = (flood[r.status] ?? 0) + 1;
        floodN++;
      }
    };
    const legit = { ok: 0, total: 0, ms: [] as number[], failures: {} as Record<number, number> };
    const user = async (u: { email: string; from: string }) => {
      await sleep(Math.random() * 1000);
      while (Date.now() < deadline) {
        const r = await request(port, 'POST', '/auth/login', { body: { email: u.email, password: USER_PASSWORD }, from: u.from });
        legit.total++;
        legit.ms.push(r.ms);
        if (r.status === 200) legit.ok++;
        else legit.failures[r.status] = (legit.failures[r.status] ?? 0) + 1;
        await sleep(1000);
      }
    };
    const me: number[] = [];
    let meErrors = 0;
    const poller = async () => {
      while (Date.now() < deadline) {
        const r = await request(port, 'GET', '/auth/me', { token });
        if (r.status === 200) me.push(r.ms);
        else meErrors++;
        await sleep(50);
      }
    };

    await Promise.all([...Array.from({ length: CONCURRENCY }, (_, a) => attacker(a)), ...users.map((u) => user(u)), poller()]);

    const ratio = legit.total ? legit.ok / legit.total : 0;
    console.log(
      `login flood: ${SECONDS} s, ${CONCURRENCY} concurrent bad sign-ins from rotating 127.0.x.y addresses, ${os.availableParallelism()} cores`,
    );
    console.log(`  bad sign-ins: ${floodN} (${(floodN / SECONDS).toFixed(0)}/s), answers ${JSON.stringify(flood)}`);
    console.log(
      `  legitimate sign-ins: ${legit.ok}/${legit.total} succeeded (${(ratio * 100).toFixed(1)}%), p50 ${percentile(legit.ms, 50).toFixed(0)} ms, p99 ${percentile(legit.ms, 99).toFixed(0)} ms${Object.keys(legit.failures).length ? `, failures ${JSON.stringify(legit.failures)}` : ''}`,
    );
    console.log(
      `  /auth/me: ${me.length} answers, p50 ${percentile(me, 50).toFixed(0)} ms, p99 ${percentile(me, 99).toFixed(0)} ms, max ${Math.max(...me).toFixed(0)} ms, errors ${meErrors}`,
    );
    process.exitCode = ratio >= 0.9 && percentile(me, 99) < 500 ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
