/**
 * The imports case of `npm run bench` (docs/performance.md "Imports"): a 10,000-row roster CSV (the messy fixture of
 * server/test/imports-fixtures.ts: semicolons, BOM, four date styles) uploaded and previewed, committed, then the same
 * file previewed again (every row unchanged), each once through HTTP (app.inject), timed in seconds.
 * Also runnable alone on a throwaway database of its own: `npx tsx bench/imports.ts` (BENCH_IMPORT_ROWS=n).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ROLE } from '@lm/shared';
import { loadConfig } from '../server/src/config.ts';
import { ENGINE, openDatabase } from '../server/src/db/client.ts';
import { users } from '../server/src/db/schema/index.ts';
import { buildApp } from '../server/src/app.ts';
import { createSession } from '../server/src/core/sessions.ts';
import { createTestDatabase } from '../server/test/pg.ts';
import { rosterCsv, rosterRows } from '../server/test/imports-fixtures.ts';

export const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);

export interface ImportTiming {
  name: string;
  seconds: number;
}

async function timed<T>(name: string, out: ImportTiming[], fn: () => Promise<T>): Promise<T> {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  out.push({ name, seconds: Number(process.hrtime.bigint() - t0) / 1e9 });
  return value;
}

function multipart(fields: Record<string, string>, name: string, data: Buffer) {
  const boundary = `----lmbench${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Previews and commits IMPORT_ROWS roster rows as the Admin whose session token is given; answers the timings. */
export async function benchImports(app: FastifyInstance, token: string, rows = IMPORT_ROWS): Promise<ImportTiming[]> {
  const out: ImportTiming[] = [];
  const file = rosterCsv(rosterRows(`bench${Date.now()}`, rows, { bad: false }));
  const auth = { authorization: `Bearer ${token}` };
  const upload = async () => {
    const { payload, headers } = multipart({ kind: 'roster' }, 'roster.csv', file);
    const res = await app.inject({ method: 'POST', url: '/api/imports', payload, headers: { ...headers, ...auth } });
    if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as { import_id: number; counts: Record<string, number> };
  };
  const n = rows.toLocaleString('en-US');
  const first = await timed(`import preview, ${n} roster rows (upload, read, match, keep)`, out, upload);
  if (first.counts.create !== rows) throw new Error(`preview: ${JSON.stringify(first.counts)}`);
  await timed(`import commit, ${n} rows (people, brokerage, licenses)`, out, async () => {
    const res = await app.inject({ method: 'POST', url: `/api/imports/${first.import_id}/commit`, headers: auth });
    if (res.statusCode !== 200) throw new Error(`commit: ${res.statusCode} ${res.body.slice(0, 300)}`);
  });
  const again = await timed(`import preview again, ${n} rows all unchanged`, out, upload);
  if (again.counts.unchanged !== rows) throw new Error(`second preview: ${JSON.stringify(again.counts)}`);
  await timed(`import undo, ${n} rows`, out, async () => {
    const res = await app.inject({ method: 'POST', url: `/api/imports/${first.import_id}/undo`, headers: auth });
    if (res.statusCode !== 200) throw new Error(`undo: ${res.statusCode} ${res.body.slice(0, 300)}`);
  });
  return out;
}

export function printImportTimings(timings: ImportTiming[]): void {
  const w = Math.max(...timings.map((t) => t.name.length));
  console.log(`| ${'import'.padEnd(w)} | seconds |`);
  console.log(`|${'-'.repeat(w + 2)}|---------|`);
  for (const t of timings) console.log(`| ${t.name.padEnd(w)} | ${t.seconds.toFixed(2).padStart(7)} |`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-bench-imports-'));
  const pgDb = ENGINE === 'postgres' ? await createTestDatabase(process.env.DATABASE_URL!) : undefined;
  const config = loadConfig({
    DATA_DIR: dir,
    SCHEDULER: 'off',
    CLIENT_DIST: path.join(dir, 'no-client'),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  });
  const db = await openDatabase(config);
  const { app } = await buildApp({ config, db, logger: false });
  await app.ready();
  const [admin] = await db.transaction((tx) =>
    tx
      .insert(users)
      .values({ email: 'bench-admin@bench.example', password_hash: 'x', first_name: 'Bench', last_name: 'Admin', role_id: ROLE.Admin })
      .returning(),
  );
  const { token } = await db.transaction((tx) => createSession(tx, admin!.user_id, { ip: '127.0.0.1', userAgent: 'bench' }));
  console.log(
    `Engine: ${db.engine}; Node ${process.version}; ${os.cpus().length} CPU(s); load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  printImportTimings(await benchImports(app, token));
  await app.close();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await pgDb?.drop();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
