/**
 * `npm run bench:certificate-abuse` (docs/security.md "Certificates and uploads"): starts the real server, then for
 * ABUSE_SECONDS (20) one Agent keeps uploading as CE certificates a 60,000-page PDF (page objects packed in an object
 * stream, 1 MB) and a 20,000 × 20,000 PNG (header only), and, at the start, 20 real scans (OCR, about 1 s of CPU
 * each) that fill the reading queue; a second Agent then uploads one typed certificate. Meanwhile a signed-in Admin
 * polls /auth/me every 50 ms over a keep-alive connection. Prints the refusals' statuses and times, how long the
 * second Agent's certificate waited to be read, the server's RSS, and the /auth/me p50/p99. Not a test: it prints
 * figures (exit 1 when a refusal is not a 400 or the p99 is 100 ms or more).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT, serverEnv, sleep } from '../server/test/child-server.ts';
import { packedPagesPdf, pngHeaderOnly } from '../server/test/certificate-files.ts';

const SECONDS = Number(process.env.ABUSE_SECONDS ?? 20);
const ADMIN = { email: 'abuse-admin@abuse.test', password: 'Abuse-Passw0rd' };
const PASSWORD = 'Agent-Passw0rd';
const FIXTURES = path.join(REPO_ROOT, 'server/test/fixtures/certificates');

interface Answer {
  status: number;
  body: any;
  ms: number;
}

function request(
  port: number,
  method: string,
  url: string,
  opts: { body?: Buffer | object; token?: string; type?: string; agent?: http.Agent } = {},
) {
  const started = performance.now();
  const payload = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(JSON.stringify(opts.body));
  return new Promise<Answer>((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api${url}`,
        agent: opts.agent ?? false,
        headers: {
          ...(payload ? { 'content-type': opts.type ?? 'application/json', 'content-length': payload.length } : {}),
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
    if (payload) req.write(payload);
    req.end();
  });
}

function uploadCertificate(port: number, token: string, name: string, data: Buffer): Promise<Answer> {
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nce_certificate\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return request(port, 'POST', '/documents', { body, token, type: `multipart/form-data; boundary=${boundary}` });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
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
const rssMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-abuse-'));
  const port = await freePort();
  const server = await startServer(dataDir, port);
  try {
    const admin = (await request(port, 'POST', '/auth/login', { body: ADMIN })).body.token as string;
    const agentToken = async (i: number) => {
      const email = `agent${i}@abuse.test`;
      const created = await request(port, 'POST', '/users', {
        token: admin,
        body: { email, password: PASSWORD, first_name: 'Agent', last_name: `No ${i}`, role_id: 3 },
      });
      if (created.status !== 200) throw new Error(`could not create ${email}: ${JSON.stringify(created.body)}`);
      return (await request(port, 'POST', '/auth/login', { body: { email, password: PASSWORD } })).body.token as string;
    };
    const heavy = await agentToken(1);
    const light = await agentToken(2);
    const pdf = packedPagesPdf(60_000);
    const png = pngHeaderOnly(20_000, 20_000);
    const scan = fs.readFileSync(path.join(FIXTURES, 'certificate-scan.png'));
    const typed = fs.readFileSync(path.join(FIXTURES, 'certificate-typed.pdf'));
    const rssBefore = rssMb(server.pid!);

    let meErrors = 0;
    const poller = async (until: number, into: number[]) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (Date.now() < until) {
        const r = await request(port, 'GET', '/auth/me', { token: admin, agent });
        if (r.status === 200) into.push(r.ms);
        else meErrors++;
        await sleep(50);
      }
      agent.destroy();
    };
    // The same polling with nothing else going on first: the machine's own noise.
    const quiet: number[] = [];
    await poller(Date.now() + 5_000, quiet);
    const deadline = Date.now() + SECONDS * 1000;
    const me: number[] = [];
    const refusals: Record<string, { statuses: Record<number, number>; ms: number[]; message?: string }> = {
      pdf: { statuses: {}, ms: [] },
      png: { statuses: {}, ms: [] },
    };
    const abuser = async () => {
      for (let i = 0; i < 20; i++) heavyIds.push((await uploadCertificate(port, heavy, `scan-${i}.png`, scan)).body.document_id as number);
      while (Date.now() < deadline) {
        for (const [kind, data, name] of [
          ['pdf', pdf, 'many.pdf'],
          ['png', png, 'huge.png'],
        ] as const) {
          const r = await uploadCertificate(port, heavy, name, data);
          const t = refusals[kind]!;
          t.statuses[r.status] = (t.statuses[r.status] ?? 0) + 1;
          t.ms.push(r.ms);
          t.message ??= r.body?.error;
        }
      }
    };
    const heavyIds: number[] = [];
    let lightWait = NaN;
    let heavyDoneBefore = NaN;
    const single = async () => {
      await sleep(3000); // the 20 scans are queued by then
      const started = performance.now();
      const created = await uploadCertificate(port, light, 'mine.pdf', typed);
      const id = created.body.document_id as number;
      while (Date.now() < deadline + 120_000) {
        const r = await request(port, 'GET', `/documents/${id}/extraction`, { token: light });
        if (r.body?.status !== 'pending') break;
        await sleep(100);
      }
      lightWait = performance.now() - started;
      const statuses = await Promise.all(heavyIds.map((h) => request(port, 'GET', `/documents/${h}/extraction`, { token: heavy })));
      heavyDoneBefore = statuses.filter((r) => r.body?.status !== 'pending').length;
    };
    await Promise.all([poller(deadline, me), abuser(), single()]);
    const rssAfter = rssMb(server.pid!);

    const p99 = percentile(me, 99);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (${os.cpus().length} CPUs)`,
    );
    for (const [kind, t] of Object.entries(refusals)) {
      console.log(
        `${kind === 'pdf' ? '60,000-page PDF' : '20,000 x 20,000 PNG'}: ${t.ms.length} uploads, statuses ${JSON.stringify(t.statuses)}, ` +
          `p50 ${percentile(t.ms, 50).toFixed(0)} ms, p99 ${percentile(t.ms, 99).toFixed(0)} ms: "${t.message}"`,
      );
    }
    console.log(
      `the second Agent's certificate read after ${(lightWait / 1000).toFixed(1)} s; by then ${heavyDoneBefore} of the first Agent's ${heavyIds.length} scans (queued before it) were read`,
    );
    console.log(`server RSS ${rssBefore} MB before, ${rssAfter} MB after`);
    console.log(
      `/auth/me alone first: ${quiet.length} answers, p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${percentile(quiet, 99).toFixed(1)} ms`,
    );
    console.log(
      `/auth/me under the abuse: ${me.length} answers, ${meErrors} errors, p50 ${percentile(me, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    );
    const refusedOk = Object.values(refusals).every((t) => Object.keys(t.statuses).every((s) => s === '400'));
    process.exitCode = refusedOk && p99 < 100 ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
