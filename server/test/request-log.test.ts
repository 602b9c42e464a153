/**
 * The request log (docs/performance.md "API throughput"): one line per request, written when it completes, with
 * the method, URL, status and time, and never the request's headers (a bearer token would be in them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { requestLine } from '../src/core/log.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { testServerEnv } from './helpers.ts';

const lines: Array<Record<string, any>> = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});

let app: FastifyInstance;
let db: Db;
let dir: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-log-'));
  const server = await testServerEnv(dir);
  drop = server.drop;
  const config = loadConfig(server.env);
  db = await openDatabase(config);
  ({ app } = await buildApp({ config, db, logger: { level: 'info', stream } }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('one line per request, when it completes: method, URL, status and time; no headers', async () => {
  lines.length = 0;
  const ok = await app.inject({ method: 'GET', url: '/api/health', headers: { authorization: 'Bearer secret-token-value' } });
  const refused = await app.inject({ method: 'GET', url: '/api/licenses', headers: { authorization: 'Bearer secret-token-value' } });
  expect([ok.statusCode, refused.statusCode]).toEqual([200, 401]);

  const perRequest = lines.filter((l) => l.reqId !== undefined);
  expect(perRequest.map((l) => l.msg)).toEqual(['request completed', 'request completed']);
  expect(perRequest.map((l) => [l.req.method, l.req.url, l.res.statusCode])).toEqual([
    ['GET', '/api/health', 200],
    ['GET', '/api/licenses', 401],
  ]);
  for (const l of perRequest) expect(typeof l.responseTime).toBe('number');
  expect(JSON.stringify(lines)).not.toContain('secret-token-value');
});

it('LOG_FORMAT: pretty on a terminal, JSON otherwise (a service, journald, a file) or when asked; nothing else', () => {
  expect(loadConfig({}, true).logFormat).toBe('pretty');
  expect(loadConfig({}, false).logFormat).toBe('json');
  expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
  expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  expect(() => loadConfig({ LOG_FORMAT: 'yaml' }, true)).toThrow(/LOG_FORMAT must be json or pretty/);
});

it('the pretty format puts a request on one line: method, URL, status, milliseconds', async () => {
  lines.length = 0;
  await app.inject({ method: 'GET', url: '/api/health?probe=1' });
  const [line] = lines.filter((l) => l.reqId !== undefined);
  expect(requestLine(line!, 'msg')).toMatch(/^GET \/api\/health\?probe=1 200 \d+\.\d ms$/);
  expect(requestLine({ msg: 'license reminders', sent: 2 }, 'msg')).toBe('license reminders');
});
