/**
 * `npx tsx bench/reauth-flood.ts` (docs/security.md "Re-authentication and stolen tokens"): starts the real server,
 * then for SECONDS (15) one Agent's session keeps CONCURRENCY (150) change-password calls with wrong current passwords
 * in flight (the issue's "one Agent with 150 concurrent calls"), while OTHERS (20) users sign in about once a second
 * each, from an address they signed in from before. Prints the change-password answers by status, the passwords it
 * got checked (audited reauth_failed rows), the other users' sign-in success ratio and latency. Not a test: figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverEnv, sleep, startServer } from '../server/test/child-server.ts';

const SECONDS = Number(process.env.REAUTH_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.REAUTH_CONCURRENCY ?? 150);
const OTHERS = Number(process.env.REAUTH_OTHERS ?? 20);
const ADMIN = { email: 'reauth-admin@bench.test', password: 'Bench-Passw0rd' };
const PASSWORD = 'Legit-Passw0rd';

async function call(port: number, method: string, url: string, body?: unknown, token?: string) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : null, ms: performance.now() - started };
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-reauth-'));
  const port = await freePort();
  const server = await startServer('reauth', { ...serverEnv(dataDir, port, ADMIN), TRUST_PROXY: 'false' });
  try {
    const admin = (await call(port, 'POST', '/auth/login', ADMIN)).body.token as string;
    const create = async (email: string, i: number) => {
      const r = await call(
        port,
        'POST',
        '/users',
        { email, password: PASSWORD, first_name: 'Bench', last_name: `User ${i}`, role_id: 3 },
        admin,
      );
      if (r.status !== 200) throw new Error(`create ${email}: ${JSON.stringify(r.body)}`);
      return r.body.user_id as number;
    };
    const agentId = await create('agent@bench.test', 0);
    const agent = (await call(port, 'POST', '/auth/login', { email: 'agent@bench.test', password: PASSWORD })).body.token as string;
    const others: string[] = [];
    for (let i = 1; i <= OTHERS; i++) {
      others.push(`other${i}@bench.test`);
      await create(others.at(-1)!, i);
      // A first sign-in from this (loopback) address: a known source from then on.
      if ((await call(port, 'POST', '/auth/login', { email: others.at(-1), password: PASSWORD })).status !== 200)
        throw new Error('sign-in');
    }

    const until = Date.now() + SECONDS * 1000;
    const byStatus = new Map<number, number>();
    const flood = async () => {
      while (Date.now() < until) {
        const r = await call(
          port,
          'POST',
          '/auth/change-password',
          { currentPassword: 'Wrong-Passw0rd', newPassword: 'Other-Passw0rd1' },
          agent,
        );
        byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
      }
    };
    const signIns: Array<{ ok: boolean; ms: number }> = [];
    const legit = async (email: string, offset: number) => {
      await sleep(offset);
      while (Date.now() < until) {
        const r = await call(port, 'POST', '/auth/login', { email, password: PASSWORD });
        signIns.push({ ok: r.status === 200, ms: r.ms });
        await sleep(1000);
      }
    };
    await Promise.all([...Array.from({ length: CONCURRENCY }, flood), ...others.map((e, i) => legit(e, Math.round((i * 1000) / OTHERS)))]);
    // Only the Agent fails re-authentication here: every reauth_failed entry is its (5 wrong passwords, then the lock).
    const audit = await call(port, 'GET', '/audit/logs?action=reauth_failed&limit=100', undefined, admin);
    const checked = (audit.body?.logs ?? []).filter((l: { target_id: number | null }) => l.target_id === agentId);
    const ms = signIns.map((s) => s.ms);
    console.log(
      `reauth flood: ${SECONDS} s, ${CONCURRENCY} concurrent change-password calls of one session: ` +
        [...byStatus].map(([s, n]) => `${n} x ${s}`).join(', ') +
        `; reauth_failed audit rows ${audit.status === 200 ? checked.length : `? (audit ${audit.status})`}` +
        `; other users' sign-ins ${signIns.filter((s) => s.ok).length}/${signIns.length}, p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms` +
        `; load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
