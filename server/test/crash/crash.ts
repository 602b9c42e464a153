/**
 * `npm run test:crash` (docs/security.md "Crash safety"): the real server, under a write load from
 * several concurrent REST clients, is killed with SIGKILL at random moments. After each restart every
 * write the server acknowledged (a 2xx with the new id) must be in the database with its audit row,
 * and PRAGMA integrity_check must answer ok. Exits non-zero on any loss.
 *
 *   CRASH_CYCLES=100 npm run test:crash     (default 10, as in CI)
 *
 * The server is the one `npm start` runs: the bundle server/dist/server.mjs under plain Node, built first by
 * scripts/build.mjs (only what changed), so each restart starts in about a second instead of transpiling.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT, serverEnv, sleep } from '../child-server.ts';
import Database from 'better-sqlite3';

const CYCLES = Number(process.env.CRASH_CYCLES ?? 10);
const WRITERS = 6;
const ADMIN = { email: 'crash-admin@crash.test', password: 'Crash-Passw0rd' };

interface Ack {
  table: 'brokerages' | 'licenses' | 'payments';
  id: number;
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', 'server/dist/server.mjs'], {
    cwd: REPO_ROOT,
    env: serverEnv(dataDir, port, ADMIN),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await sleep(100);
  }
}

async function call(port: number, token: string | null, method: string, url: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const ID_COLUMN = { brokerages: 'brokerage_id', licenses: 'license_id', payments: 'payment_id' } as const;

/** Every acknowledged write present, with its audit row; and the database intact. */
function verify(dbFile: string, acked: Ack[]) {
  const db = new Database(dbFile);
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    let lost = 0;
    let withoutAudit = 0;
    const audited = db.prepare("SELECT 1 FROM audit_logs WHERE action = 'create' AND target_table = ? AND target_id = ?");
    for (const a of acked) {
      if (!db.prepare(`SELECT 1 FROM ${a.table} WHERE ${ID_COLUMN[a.table]} = ?`).get(a.id)) lost++;
      if (!audited.get(a.table, a.id)) withoutAudit++;
    }
    return { integrity, lost, withoutAudit };
  } finally {
    db.close();
  }
}

async function main() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-crash-'));
  const dbFile = path.join(dataDir, 'license-manager.db');
  const acked: Ack[] = [];
  let lost = 0;
  let withoutAudit = 0;
  let integrity = 'ok';
  let holderId = 0;
  const started = Date.now();
  let serial = 0;

  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    const port = await freePort();
    const server = await startServer(dataDir, port);

    // Everything acknowledged before the previous kill is there (the server has recovered the WAL).
    const seen = verify(dbFile, acked);
    lost = Math.max(lost, seen.lost);
    withoutAudit = Math.max(withoutAudit, seen.withoutAudit);
    if (seen.integrity !== 'ok') integrity = seen.integrity;

    const signIn = await call(port, null, 'POST', '/auth/login', ADMIN);
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
    const token = signIn.body.token as string;
    if (!holderId) {
      const holder = await call(port, token, 'POST', '/users', {
        email: 'holder@crash.test',
        password: 'Holder-Passw0rd',
        first_name: 'Holder',
        last_name: 'Agent',
        role_id: 3,
      });
      if (holder.status !== 200) throw new Error(`could not create the license holder: ${JSON.stringify(holder.body)}`);
      holderId = holder.body.user_id;
    }

    let killed = false;
    const writer = async (w: number) => {
      while (!killed) {
        const n = ++serial;
        const kind = n % 3;
        try {
          if (kind === 0) {
            const r = await call(port, token, 'POST', '/brokerages', { name: `Crash Brokerage ${n}` });
            if (r.status === 200) acked.push({ table: 'brokerages', id: r.body.brokerage_id });
          } else if (kind === 1) {
            const r = await call(port, token, 'POST', '/licenses', {
              user_id: holderId,
              license_number: `CR-${n}`,
              state: 'CA',
              issue_date: '2026-01-01',
              expiration_date: '2028-01-01',
            });
            if (r.status === 200) acked.push({ table: 'licenses', id: r.body.license_id });
          } else {
            const r = await call(port, token, 'POST', '/payments', { user_id: holderId, amount: 10 + (n % 90), description: `w${w}` });
            if (r.status === 200) acked.push({ table: 'payments', id: r.body.payment_id });
          }
        } catch {
          // the connection died with the server: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await sleep(500 + Math.random() * 2500);
    server.kill('SIGKILL');
    killed = true;
    await Promise.all(writers);
    await new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r(null) : server.once('exit', r)));
    process.stdout.write(`cycle ${cycle}/${CYCLES}: ${acked.length} acknowledged so far\n`);
  }

  // A last start, to check the writes of the last cycle.
  const port = await freePort();
  const server = await startServer(dataDir, port);
  const last = verify(dbFile, acked);
  lost = Math.max(lost, last.lost);
  withoutAudit = Math.max(withoutAudit, last.withoutAudit);
  if (last.integrity !== 'ok') integrity = last.integrity;
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });

  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `crash test: cycles ${CYCLES}, acknowledged writes ${acked.length}, lost ${lost}, without audit ${withoutAudit}, integrity ${integrity} (${seconds} s)`,
  );
  if (lost > 0 || withoutAudit > 0 || integrity !== 'ok' || acked.length === 0) process.exit(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
