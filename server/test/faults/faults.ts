/**
 * `npm run test:faults` (docs/security.md "Faults"): the real server bundle (server/dist/server.mjs, built by
 * scripts/build.mjs as for the crash test) under faults, each checked from outside. Exits non-zero on any failure.
 *
 *   1. PostgreSQL: a throwaway cluster (scripts/pg-cluster.sh), two instances, 20 writers (alternating instances).
 *      `pg_ctl restart -m fast`, then pg_terminate_backend of every app connection (twice). Both instances must stay
 *      up, each must write again within 10 s of the fault, answers meanwhile are 200 or 503 with Retry-After, and
 *      every acknowledged write must be in the database.
 *   2. SQLite: an Agent's audit pack whose certificate's file is gone answers 409 with a message; the server keeps
 *      answering.
 *   3. SQLite on a full disk: DATA_DIR on a small tmpfs (mount needs root, as in CI; if it cannot be mounted the
 *      test fails and says so), filled to the last byte. Writes answer 507 with a message, reads (with a due
 *      last-seen touch) and sign-in answer 200, /api/health says 503 degraded; once space is freed writes work.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freePort, REPO_ROOT, serverEnv, sleep } from '../child-server.ts';

const run = promisify(execFile);
const WRITERS = 20;
const RECOVERY_LIMIT_MS = 10_000;
const ADMIN = { email: 'faults-admin@faults.test', password: 'Faults-Passw0rd' };
const AGENT = { email: 'faults-agent@faults.test', password: 'Agent-Passw0rd1' };

const failures: string[] = [];
const summary: string[] = [];
function check(ok: boolean, what: string) {
  if (!ok) failures.push(what);
  process.stdout.write(`  ${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
}

interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  alive: () => boolean;
  lastOk: number;
}

async function startInstance(name: string, dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const port = await freePort();
  const env = { ...serverEnv(dataDir, port, ADMIN), ...extra };
  if (!extra.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--enable-source-maps', 'server/dist/server.mjs'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + String(d)).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const inst: Instance = {
    name,
    port,
    child,
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    lastOk: 0,
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!inst.alive()) throw new Error(`${name} exited with ${child.exitCode}: ${out}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return inst;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start: ${out}`);
    await sleep(100);
  }
}

async function stopInstance(inst: Instance) {
  if (!inst.alive()) return;
  const exited = new Promise((r) => inst.child.once('exit', r));
  inst.child.kill('SIGTERM');
  const killer = setTimeout(() => inst.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

interface Answer {
  status: number;
  body: any;
  retryAfter: string | null;
}

async function call(inst: Instance, token: string | null, method: string, url: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${inst.port}/api${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a file)
  }
  return { status: res.status, body: parsed, retryAfter: res.headers.get('retry-after') };
}

async function signIn(inst: Instance, who: { email: string; password: string }): Promise<string> {
  const r = await call(inst, null, 'POST', '/auth/login', who);
  if (r.status !== 200) throw new Error(`sign-in of ${who.email} on ${inst.name} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

async function createAgent(inst: Instance, token: string): Promise<number> {
  const r = await call(inst, token, 'POST', '/users', {
    email: AGENT.email,
    password: AGENT.password,
    first_name: 'Fault',
    last_name: 'Agent',
    role_id: 3,
  });
  if (r.status !== 200) throw new Error(`could not create the Agent: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.user_id as number;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. PostgreSQL restart and terminated backends under 20 writers through two instances
// ---------------------------------------------------------------------------------------------------------------

const pgBin = () =>
  fs
    .readdirSync('/usr/lib/postgresql')
    .map((v) => `/usr/lib/postgresql/${v}/bin`)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .at(-1)!;
const asPostgres = (cmd: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args);

async function postgresFaults() {
  console.log('PostgreSQL: restart and terminated backends under writes, two instances');
  const clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-faults-pg-'));
  const pgPort = await freePort();
  const url = execFileSync(path.join(REPO_ROOT, 'scripts/pg-cluster.sh'), ['start', clusterDir, String(pgPort)], {
    encoding: 'utf8',
  }).trim();
  const superUrl = `postgres://postgres@127.0.0.1:${pgPort}/lm`;
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'lm-faults-inst-')));
  const instances: Instance[] = [];
  try {
    instances.push(await startInstance('instance A', dirs[0]!, { DATABASE_URL: url }));
    instances.push(await startInstance('instance B', dirs[1]!, { DATABASE_URL: url }));
    const [a, b] = instances as [Instance, Instance];
    const token = await signIn(a, ADMIN);
    const holderId = await createAgent(a, token);

    const acked: Array<{ table: 'brokerages' | 'payments'; id: number }> = [];
    const statuses = new Map<number, number>();
    let without503RetryAfter = 0;
    let networkErrors = 0;
    let stop = false;
    let serial = 0;
    const writer = async (w: number) => {
      const inst = instances[w % 2]!;
      while (!stop) {
        const n = ++serial;
        try {
          const r =
            n % 2 === 0
              ? await call(inst, token, 'POST', '/brokerages', { name: `Fault Brokerage ${n}` })
              : await call(inst, token, 'POST', '/payments', { user_id: holderId, amount: 10 + (n % 90), description: `w${w}` });
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 200) {
            acked.push(n % 2 === 0 ? { table: 'brokerages', id: r.body.brokerage_id } : { table: 'payments', id: r.body.payment_id });
            inst.lastOk = Date.now();
          } else {
            if (r.status === 503 && !r.retryAfter) without503RetryAfter++;
            await sleep(100);
          }
        } catch {
          networkErrors++;
          await sleep(100);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));

    /** Waits until both instances have written after `since`; the slower one's delay. */
    const recovery = async (since: number): Promise<number> => {
      const deadline = since + RECOVERY_LIMIT_MS + 5_000;
      while (Date.now() < deadline && !(a.lastOk > since && b.lastOk > since)) await sleep(20);
      return Math.max(a.lastOk, b.lastOk) > since && a.lastOk > since && b.lastOk > since ? Math.max(a.lastOk, b.lastOk) - since : Infinity;
    };

    await sleep(1500);
    const before = acked.length;
    const restartStart = Date.now();
    await asPostgres(`${pgBin()}/pg_ctl`, ['-D', clusterDir, '-l', path.join(clusterDir, 'server.log'), '-m', 'fast', '-w', 'restart']);
    const restarted = Date.now();
    const afterRestart = await recovery(restarted);
    check(a.alive() && b.alive(), 'pg_ctl restart -m fast: both instances still running');
    check(
      afterRestart <= RECOVERY_LIMIT_MS,
      `pg_ctl restart -m fast (${restarted - restartStart} ms): both instances write again ${afterRestart} ms after PostgreSQL is back`,
    );
    summary.push(`restart: PostgreSQL down ${restarted - restartStart} ms, both instances writing again after ${afterRestart} ms`);

    const superClient = new pg.Client({ connectionString: superUrl });
    superClient.on('error', () => undefined);
    await superClient.connect();
    const killedCounts: number[] = [];
    for (let round = 0; round < 2; round++) {
      await sleep(1000);
      const t = Date.now();
      const { rows } = await superClient.query<{ n: number }>(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'license-manager'",
      );
      killedCounts.push(rows[0]!.n);
      const took = await recovery(t);
      check(a.alive() && b.alive(), `pg_terminate_backend of ${rows[0]!.n} connections: both instances still running`);
      check(took <= RECOVERY_LIMIT_MS, `pg_terminate_backend round ${round + 1}: both instances write again after ${took} ms`);
      summary.push(`terminate round ${round + 1}: ${rows[0]!.n} backends ended, both writing again after ${took} ms`);
    }
    await sleep(500);
    stop = true;
    await Promise.all(writers);

    let lost = 0;
    for (const table of ['brokerages', 'payments'] as const) {
      const ids = acked.filter((x) => x.table === table).map((x) => x.id);
      const col = table === 'brokerages' ? 'brokerage_id' : 'payment_id';
      const { rows } = await superClient.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${col} = ANY($1::int[])`, [
        ids,
      ]);
      lost += ids.length - rows[0]!.n;
    }
    await superClient.end();
    const unexpected = [...statuses.entries()].filter(([s]) => s !== 200 && s !== 503);
    check(acked.length > before, `writes acknowledged: ${acked.length} (${before} before the restart)`);
    check(lost === 0, `acknowledged writes missing from the database: ${lost}`);
    check(unexpected.length === 0, `answers other than 200 and 503: ${JSON.stringify(Object.fromEntries(unexpected))}`);
    check(without503RetryAfter === 0, `503 answers without Retry-After: ${without503RetryAfter}`);
    check(networkErrors === 0, `requests that got no answer at all: ${networkErrors}`);
    summary.push(
      `PostgreSQL: ${acked.length} acknowledged, ${lost} lost, answers ${JSON.stringify(Object.fromEntries(statuses))}, backends ended ${killedCounts.join('+')}`,
    );
  } finally {
    for (const inst of instances) {
      if (!inst.alive()) console.log(`--- last output of ${inst.name} ---\n${inst.output().slice(-4000)}`);
      await stopInstance(inst);
    }
    execFileSync(path.join(REPO_ROOT, 'scripts/pg-cluster.sh'), ['stop', clusterDir]);
    fs.rmSync(clusterDir, { recursive: true, force: true });
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

/** Uploads a small PDF as a document with `fields`. */
async function upload(inst: Instance, token: string, fields: Record<string, string>): Promise<Answer> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n% a license copy\n%%EOF\n')], { type: 'application/pdf' }), 'copy.pdf');
  const res = await fetch(`http://127.0.0.1:${inst.port}/api/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, retryAfter: res.headers.get('retry-after') };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. A missing document file in an audit pack (SQLite)
// ---------------------------------------------------------------------------------------------------------------

async function missingFile() {
  console.log('SQLite: audit pack of a license whose certificate file is missing');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-faults-files-'));
  let inst: Instance | undefined;
  try {
    inst = await startInstance('instance C', dataDir);
    const admin = await signIn(inst, ADMIN);
    const agentId = await createAgent(inst, admin);
    const license = await call(inst, admin, 'POST', '/licenses', {
      user_id: agentId,
      license_number: 'FAULT-1',
      state: 'CA',
      issue_date: '2026-01-01',
      expiration_date: '2028-01-01',
    });
    if (license.status !== 200) throw new Error(`could not create the license: ${JSON.stringify(license.body)}`);
    const agent = await signIn(inst, AGENT);
    const up = await upload(inst, agent, { category: 'license_copy', license_id: String(license.body.license_id) });
    if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
    // What db:copy leaves behind: the rows without the files.
    const docsDir = path.join(dataDir, 'documents');
    for (const f of fs.readdirSync(docsDir)) fs.rmSync(path.join(docsDir, f));
    const pack = await call(inst, agent, 'GET', `/licenses/${license.body.license_id}/audit-pack`);
    check(pack.status === 409, `audit pack with a missing file answers ${pack.status}: ${JSON.stringify(pack.body)}`);
    const health = await call(inst, null, 'GET', '/health');
    check(inst.alive() && health.status === 200, `the server keeps answering (health ${health.status})`);
    const again = await call(inst, agent, 'GET', `/licenses/${license.body.license_id}/audit-pack`);
    check(again.status === 409 && inst.alive(), 'a second try answers the same, the server still up');
    summary.push(`missing file: audit pack ${pack.status}, server up`);
  } finally {
    if (inst) await stopInstance(inst);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. A full disk (SQLite on a small tmpfs)
// ---------------------------------------------------------------------------------------------------------------

/** Fills the file system of `dir` to the last byte; returns the filler files. */
function fill(dir: string): string[] {
  const files: string[] = [];
  for (const size of [1024 * 1024, 4096, 1]) {
    const file = path.join(dir, `filler-${size}`);
    files.push(file);
    const fd = fs.openSync(file, 'w');
    const buf = Buffer.alloc(size, 0x55);
    try {
      for (;;) fs.writeSync(fd, buf);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      fs.closeSync(fd);
    }
  }
  return files;
}

async function fullDisk() {
  console.log('SQLite: a full disk (DATA_DIR on a 32 MiB tmpfs)');
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-faults-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (err) {
    fs.rmSync(mountPoint, { recursive: true, force: true });
    throw new Error(
      `The full-disk test needs a small tmpfs and could not mount one at ${mountPoint} (run as root, as CI does): ${String((err as { stderr?: unknown }).stderr ?? err).trim()}`,
    );
  }
  let inst: Instance | undefined;
  try {
    inst = await startInstance('instance D', mountPoint);
    const admin = await signIn(inst, ADMIN);
    for (let i = 0; i < 20; i++) await call(inst, admin, 'POST', '/brokerages', { name: `Before ${i}` });
    // The admin's session last seen a minute ago: its next request is due a last-seen touch.
    const db = new Database(path.join(mountPoint, 'license-manager.db'));
    db.pragma('busy_timeout = 5000');
    db.prepare("UPDATE sessions SET last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds')").run();
    db.close();

    const fillers = fill(mountPoint);
    const writes: number[] = [];
    let message = '';
    for (let i = 0; i < 50; i++) {
      const r = await call(inst, admin, 'POST', '/brokerages', { name: `During ${i}` });
      writes.push(r.status);
      if (r.status === 507) {
        message = r.body?.error ?? '';
        break;
      }
    }
    const accepted = writes.filter((s) => s === 200).length;
    check(writes.at(-1) === 507, `a write on the full disk answers 507 (after ${accepted} that still fit): ${message}`);
    check(
      writes.every((s) => s === 200 || s === 507),
      `writes answered only 200 or 507: ${JSON.stringify(writes.filter((s) => s !== 200))}`,
    );
    const second = await call(inst, admin, 'POST', '/brokerages', { name: 'During again' });
    check(second.status === 507, `the next write answers 507 too (${second.status})`);
    const up = await upload(inst, admin, { category: 'other' });
    check(up.status === 507, `a document upload answers 507 (${up.status} ${up.body?.error ?? ''})`);
    const read = await call(inst, admin, 'GET', '/brokerages?limit=5');
    check(read.status === 200, `a read with a due last-seen touch answers 200 (${read.status})`);
    const signin = await call(inst, null, 'POST', '/auth/login', ADMIN);
    check(signin.status === 200, `sign-in answers 200 (${signin.status} ${signin.status === 200 ? '' : JSON.stringify(signin.body)})`);
    const health = await call(inst, null, 'GET', '/health');
    check(
      health.status === 503 && health.body?.status === 'degraded' && health.body?.disk === 'full',
      `/api/health reports the full disk: ${health.status} ${JSON.stringify(health.body)}`,
    );
    check(inst.alive(), 'the server is still running');

    for (const f of fillers) fs.rmSync(f, { force: true });
    let after = 0;
    for (let i = 0; i < 20 && after !== 200; i++) {
      after = (await call(inst, admin, 'POST', '/brokerages', { name: `After ${i}` })).status;
      if (after !== 200) await sleep(100);
    }
    check(after === 200, `once space is freed, writes work again (${after})`);
    const healthAfter = await call(inst, null, 'GET', '/health');
    check(healthAfter.status === 200 && healthAfter.body?.status === 'ok', `/api/health is ok again (${healthAfter.status})`);
    summary.push(
      `full disk: ${accepted} writes fitted after filling, then 507; read ${read.status}, sign-in ${signin.status}, health ${health.status}; after freeing: write ${after}, health ${healthAfter.status}`,
    );
  } finally {
    if (inst) {
      if (!inst.alive()) console.log(`--- last output of ${inst.name} ---\n${inst.output().slice(-4000)}`);
      await stopInstance(inst);
    }
    execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  }
}

async function main() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const started = Date.now();
  const only = process.env.FAULTS_ONLY;
  if (!only || only === 'pg') await postgresFaults();
  if (!only || only === 'file') await missingFile();
  if (!only || only === 'disk') await fullDisk();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nfault test (${seconds} s):\n${summary.map((s) => `  ${s}`).join('\n')}`);
  if (failures.length) {
    console.log(`${failures.length} check(s) failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('all fault checks passed');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
