/**
 * Must-show 8 (issue 29): the outbox survives a kill, and several instances send each event once. The real server
 * runs as a child process (server/test/child-server.ts) on a database of its own (testServerEnv): a license is
 * created while the instance's worker is off (WEBHOOK_WORKER=off, so nothing can be sent), the process is killed
 * with SIGKILL, and a restarted instance delivers it. On the PostgreSQL pass (TEST_DATABASE_URL), two instances on
 * one database, both sending, deliver each of N events exactly once (webhook-ids counted at the receiver).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@lm/shared';
import { today } from '../src/core/dates.ts';
import { testServerEnv } from './helpers.ts';
import { freePort, serverEnv, sleep, startServer, type ChildServer } from './child-server.ts';
import { startReceiver, type Receiver } from './webhooks-receiver.ts';

const ADMIN = { email: 'webhooks-admin@webhooks.test', password: 'Webhooks-Passw0rd' };

async function call(server: ChildServer, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api${url}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signIn(server: ChildServer): Promise<string> {
  const res = await call(server, 'POST', '/auth/login', { body: ADMIN });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

let seq = 0;
const licenseBody = (userId: number) => ({
  user_id: userId,
  license_number: `CRASH-${Date.now().toString(36)}-${++seq}`,
  state: 'CA',
  issue_date: addDays(today(), -100),
  expiration_date: addDays(today(), 600),
});

/** An Agent (the license holder) and an endpoint for `events` at the receiver: the endpoint's secret. */
async function setUp(server: ChildServer, token: string, receiver: Receiver, events: string[]) {
  const agent = await call(server, 'POST', '/users', {
    token,
    body: {
      email: `agent.${Date.now().toString(36)}@webhooks.test`,
      password: 'Agent-Passw0rd-1',
      first_name: 'Crash',
      last_name: 'Agent',
      role_id: 3,
    },
  });
  expect(agent.status).toBe(200);
  const hook = await call(server, 'POST', '/webhooks', { token, body: { url: receiver.url, events } });
  expect(hook.status).toBe(200);
  return { agentId: agent.body.user_id as number, secret: hook.body.secret as string };
}

const servers: ChildServer[] = [];
const cleanups: Array<() => Promise<void>> = [];
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
  for (const c of cleanups) await c();
}, 60_000);

async function serverDir(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-webhooks-'));
  const db = await testServerEnv(dir);
  cleanups.push(async () => {
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, env: db.env };
}

describe('must-show 8: the outbox survives a kill', () => {
  it('a license created on an instance killed with SIGKILL before it could send is delivered by the restarted instance', async () => {
    const { dir, env } = await serverDir();
    const base = { ...serverEnv(dir, await freePort(), ADMIN), ...env, WEBHOOK_ALLOW_PRIVATE: 'true' };
    const first = await startServer('webhooks-a', { ...base, WEBHOOK_WORKER: 'off' });
    servers.push(first);
    const token = await signIn(first);
    const { agentId, secret } = await setUp(first, token, receiver, ['license.created']);
    const created = await call(first, 'POST', '/licenses', { token, body: licenseBody(agentId) });
    expect(created.status).toBe(200);
    await sleep(500);
    expect(receiver.received).toHaveLength(0);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startServer('webhooks-b', { ...base, PORT: String(await freePort()) });
    servers.push(second);
    await receiver.waitFor((r) => r.length >= 1, 15_000);
    const [event] = receiver.verified(secret);
    expect(event).toMatchObject({ type: 'license.created', data: { license_id: created.body.license_id } });
    await second.stop();
  }, 120_000);
});

if (process.env.TEST_DATABASE_URL) {
  describe('PostgreSQL pass: two instances on one database', () => {
    it('send each of N events exactly once', async () => {
      const a = await serverDir();
      const bDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-webhooks-b-'));
      cleanups.push(async () => fs.rmSync(bDir, { recursive: true, force: true }));
      const common = { WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_URL: a.env.DATABASE_URL! };
      const [one, two] = await Promise.all([
        startServer('webhooks-pg-a', { ...serverEnv(a.dir, await freePort(), ADMIN), ...a.env, ...common }),
        startServer('webhooks-pg-b', { ...serverEnv(bDir, await freePort(), ADMIN), ...common }),
      ]);
      servers.push(one!, two!);
      const tokens = [await signIn(one!), await signIn(two!)];
      const hits = receiver.received.length;
      const { agentId, secret } = await setUp(one!, tokens[0]!, receiver, ['license.created']);
      const N = 20;
      const ids: number[] = [];
      await Promise.all(
        Array.from({ length: N }, async (_, i) => {
          const server = i % 2 === 0 ? one! : two!;
          const res = await call(server, 'POST', '/licenses', { token: tokens[i % 2], body: licenseBody(agentId) });
          expect(res.status).toBe(200);
          ids.push(res.body.license_id as number);
        }),
      );
      await receiver.waitFor((r) => new Set(r.slice(hits).map((x) => x.headers['webhook-id'])).size >= N, 20_000);
      // Both keep polling for a while: nothing comes twice.
      await sleep(6_000);
      const got = receiver.received.slice(hits);
      expect(got).toHaveLength(N);
      expect(new Set(got.map((x) => x.headers['webhook-id'])).size).toBe(N);
      const licensed = receiver.verified(secret).map((e) => e.data.license_id as number);
      expect(licensed.sort((x, y) => x - y)).toEqual(ids.sort((x, y) => x - y));
    }, 180_000);
  });
}
