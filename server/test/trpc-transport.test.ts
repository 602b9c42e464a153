/**
 * The /trpc transport (server/src/http/trpc.ts) answers as tRPC's own Fastify adapter does: each request of the
 * table goes to the real app and to a second Fastify instance serving the same router, with the same options
 * (trpcOptions of app.ts) over the same database, through tRPC's `fastifyTRPCPlugin`; status, body (byte for
 * byte), content-type, vary and retry-after must be equal. The fast path sends a content-length (tRPC streams its
 * Response), which tells which path answered.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { BODY_LIMIT, trpcOptions } from '../src/app.ts';
import { registerTrpcTransport } from '../src/http/trpc.ts';
import { createContextFromRequest } from '../src/http/context.ts';
import { api, seedUser, useTestEnv, type RoleKey } from './helpers.ts';

const t = useTestEnv();
let reference: FastifyInstance;

beforeAll(async () => {
  reference = Fastify({ logger: false, bodyLimit: BODY_LIMIT, routerOptions: { maxParamLength: 5000 } });
  await reference.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: trpcOptions((req) => createContextFromRequest(t.env.db, t.env.config, t.env.services, req), reference.log),
  });
  await reference.ready();
});
afterAll(async () => reference?.close());

interface Case {
  name: string;
  method?: 'GET' | 'POST' | 'HEAD' | 'PUT';
  url: string;
  as?: RoleKey;
  headers?: Record<string, string>;
  body?: string;
  /** Which path of ours answers: the fast one (default) or tRPC's own handler. */
  path?: 'fast' | 'trpc';
}

const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const JSON_CT = { 'content-type': 'application/json' };

function request(c: Case): InjectOptions {
  const headers: Record<string, string> = { ...c.headers };
  if (c.as) headers.authorization = `Bearer ${t.roles[c.as].token}`;
  return { method: c.method ?? 'GET', url: c.url, headers, ...(c.body !== undefined ? { payload: c.body } : {}) };
}

function view(res: LightMyRequestResponse) {
  return {
    status: res.statusCode,
    body: res.body,
    contentType: res.headers['content-type'],
    vary: res.headers.vary,
    retryAfter: res.headers['retry-after'],
  };
}

async function compare(c: Case) {
  const ours = await t.env.app.inject(request(c));
  const theirs = await reference.inject(request(c));
  expect(view(ours), c.name).toEqual(view(theirs));
  if ((c.path ?? 'fast') === 'fast') {
    expect(ours.headers['content-length'], `${c.name}: answered by the fast path`).toBe(String(Buffer.byteLength(ours.body)));
    expect(theirs.headers['content-length']).toBeUndefined();
  } else {
    expect(ours.headers['content-length'], `${c.name}: answered by tRPC's handler`).toBe(theirs.headers['content-length']);
  }
  // The onSend hook of app.ts still applies on every path.
  expect(ours.headers['cache-control']).toBe('no-store');
  return { ours, theirs };
}

// Batches hold no auth.* call: the app refuses them (docs/security.md "Bounded work per request"; bounded-work.test.ts).
const cases: Case[] = [
  { name: 'single query', url: `/trpc/licenses.list?input=${json({ limit: 50 })}`, as: 'admin' },
  { name: 'single query, no input', url: '/trpc/auth.me', as: 'agent' },
  { name: 'single query, empty input parameter', url: '/trpc/auth.me?input=', as: 'agent' },
  { name: 'signed out public query', url: '/trpc/settings.public' },
  { name: 'batch of 2 queries', url: `/trpc/ceRules.list,settings.public?batch=1&input=${json({ 0: {}, 1: {} })}`, as: 'broker' },
  { name: 'batch without input', url: '/trpc/ceRules.list,settings.public?batch=1', as: 'broker' },
  {
    name: 'batch, one forbidden (403 + 200 -> 207)',
    url: `/trpc/users.list,ceRules.list?batch=1&input=${json({ 0: { limit: 5 } })}`,
    as: 'agent',
  },
  { name: 'batch, one unknown (200 + 404 -> 207)', url: '/trpc/ceRules.list,nope.nothing?batch=1', as: 'agent' },
  { name: 'batch, all failing alike (401)', url: '/trpc/ceRules.list,licenses.list?batch=1' },
  { name: 'batch, input not an object', url: `/trpc/licenses.list,ceRules.list?batch=1&input=${json([1])}`, as: 'admin' },
  {
    name: 'batch, one input failing zod',
    url: `/trpc/licenses.list,licenses.list?batch=1&input=${json({ 0: { limit: 'x' }, 1: { limit: 2 } })}`,
    as: 'admin',
  },
  { name: 'batch with repeated path', url: '/trpc/settings.public,settings.public,settings.public?batch=1' },
  { name: 'mutation via POST', method: 'POST', url: '/trpc/notifications.readAll', as: 'agent', headers: JSON_CT, body: '{}' },
  { name: 'mutation via POST, no input', method: 'POST', url: '/trpc/notifications.readAll', as: 'agent', headers: JSON_CT, body: '' },
  {
    name: 'batched POST',
    method: 'POST',
    url: '/trpc/notifications.readAll,notifications.readAll?batch=1',
    as: 'agent',
    headers: JSON_CT,
    body: JSON.stringify({ 0: {}, 1: {} }),
  },
  {
    name: 'batched POST with charset',
    method: 'POST',
    url: '/trpc/notifications.readAll,nope?batch=1',
    as: 'agent',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ 0: {} }),
  },
  {
    name: 'POST body with a byte order mark',
    method: 'POST',
    url: '/trpc/notifications.readAll',
    as: 'agent',
    headers: JSON_CT,
    body: '\uFEFF{}',
  },
  { name: 'GET to a mutation (405)', url: '/trpc/notifications.readAll', as: 'agent' },
  { name: 'POST to a query (405)', method: 'POST', url: '/trpc/auth.me', as: 'agent', headers: JSON_CT, body: '{}' },
  { name: 'GET batch to a mutation and an unknown path', url: '/trpc/notifications.readAll,nope?batch=1', as: 'agent' },
  { name: 'unknown procedure', url: '/trpc/nope.nothing', as: 'admin' },
  { name: 'unknown procedure, signed out', url: '/trpc/nope' },
  { name: 'percent-encoded path', url: '/trpc/auth%2Eme', as: 'agent' },
  { name: 'malformed input JSON', url: '/trpc/licenses.list?input=%7Bbad', as: 'admin' },
  { name: 'malformed input JSON, signed out (401 before the input is read)', url: '/trpc/licenses.list?input=%7Bbad' },
  { name: 'malformed input JSON, procedure without input', url: '/trpc/settings.public?input=%7Bbad' },
  { name: 'malformed batch input JSON', url: '/trpc/licenses.list,ceRules.list?batch=1&input=%7Bbad', as: 'admin' },
  { name: 'malformed POST body', method: 'POST', url: '/trpc/notifications.readAll', as: 'agent', headers: JSON_CT, body: '{"a":' },
  { name: 'input failing zod (issues)', url: `/trpc/licenses.list?input=${json({ limit: 'x', sort: 7 })}`, as: 'admin' },
  { name: 'input with + and escapes', url: '/trpc/licenses.list?input={"search":"a+b%20c","limit":1}', as: 'admin' },
  { name: 'unauthenticated (401)', url: '/trpc/auth.me' },
  { name: 'bad token (401)', url: '/trpc/auth.me', headers: { authorization: 'Bearer nope' } },
  { name: 'forbidden (403)', url: `/trpc/users.list?input=${json({ limit: 5 })}`, as: 'agent' },
  {
    name: 'duplicate query parameters (first wins)',
    url: `/trpc/licenses.list?input=${json({ limit: 1 })}&input=x&batch=0&batch=1`,
    as: 'admin',
  },
  // tRPC's own handler answers these.
  { name: 'HEAD (204)', method: 'HEAD', url: '/trpc/auth.me', as: 'agent', path: 'trpc' },
  { name: 'PUT', method: 'PUT', url: '/trpc/notifications.readAll', as: 'agent', headers: JSON_CT, body: '{}', path: 'trpc' },
  {
    name: 'POST as text/plain (415)',
    method: 'POST',
    url: '/trpc/notifications.readAll',
    as: 'agent',
    headers: { 'content-type': 'text/plain' },
    body: '{}',
    path: 'trpc',
  },
  {
    name: 'jsonl batch (trpc-accept)',
    url: '/trpc/ceRules.list,settings.public?batch=1',
    as: 'agent',
    headers: { 'trpc-accept': 'application/jsonl' },
    path: 'trpc',
  },
  { name: 'jsonl, not batched (400)', url: '/trpc/auth.me', as: 'agent', headers: { accept: 'application/jsonl' }, path: 'trpc' },
  { name: 'mixed query and mutation in a batch (400)', url: '/trpc/ceRules.list,notifications.readAll?batch=1', as: 'agent', path: 'trpc' },
  { name: 'encoded parameter name', url: `/trpc/licenses.list?inp%75t=${json({ limit: 1 })}`, as: 'admin', path: 'trpc' },
  { name: 'malformed escape in the query', url: '/trpc/licenses.list?input=%E0%A4', as: 'admin', path: 'trpc' },
  { name: 'malformed escape in the path', url: '/trpc/auth%25E0me', as: 'agent', path: 'trpc' },
];

describe('/trpc answers as tRPC does', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await compare(c);
  });

  it('a license listed: the same rows, byte for byte', async () => {
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
    const number = `TRPC-${Date.now()}`;
    const created = await api(t.env, 'POST', '/api/licenses', {
      token: t.roles.admin.token,
      body: {
        user_id: holder.user_id,
        license_number: number,
        license_type: 'Sales',
        state: 'TX',
        issue_date: '2024-01-01',
        expiration_date: '2099-01-01',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const { ours } = await compare({ name: 'list with a row', url: `/trpc/licenses.list?input=${json({ limit: 50 })}`, as: 'admin' });
    expect(ours.body).toContain(number);
  });

  it('a refused sign-in carries retry-after, alike', async () => {
    // One instant for every attempt, so both answers count the same seconds to wait.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const user = await seedUser(t.env, 'Agent');
      const attempt = { email: user.email, password: 'Wrong-passw0rd' };
      for (let i = 0; i < 5; i++) await api(t.env, 'POST', '/api/auth/login', { body: attempt, ip: '10.90.0.1' });
      const c: Case = { name: 'refused sign-in', method: 'POST', url: '/trpc/auth.login', headers: JSON_CT, body: JSON.stringify(attempt) };
      const { ours } = await compare(c);
      expect(ours.statusCode).toBe(429);
      expect(Number(ours.headers['retry-after'])).toBeGreaterThan(0);
      // A sign-in is never batched (docs/security.md "Bounded work per request"): refused whole, before it runs.
      const batch = await t.env.app.inject(request({ ...c, url: '/trpc/auth.login?batch=1', body: JSON.stringify({ 0: attempt }) }));
      expect(batch.statusCode).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a POST without a content type is refused by Fastify before any route, with the app error body', async () => {
    const res = await t.env.app.inject(
      request({ name: 'no content type', method: 'POST', url: '/trpc/notifications.readAll', as: 'agent', body: '{}' }),
    );
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body)).toEqual({ error: 'Send the request body as application/json', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('a failed sign-in answers 401 alike', async () => {
    const user = await seedUser(t.env, 'Agent');
    await compare({
      name: 'wrong password',
      method: 'POST',
      url: '/trpc/auth.login',
      headers: JSON_CT,
      body: JSON.stringify({ email: user.email, password: 'Wrong-passw0rd' }),
    });
  });
});

describe('onError and createContext, as tRPC calls them', () => {
  type Seen = { code: string; message: string; path: string | undefined; type: string; input: unknown; ctx: boolean };
  async function instance(transport: 'ours' | 'trpc', seen: Seen[], failContext = false) {
    const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, routerOptions: { maxParamLength: 5000 } });
    const base = trpcOptions((req) => createContextFromRequest(t.env.db, t.env.config, t.env.services, req), app.log);
    const options = {
      ...base,
      createContext: failContext ? () => Promise.reject(new Error('no context')) : base.createContext,
      onError: ({
        error,
        path,
        type,
        input,
        ctx,
      }: {
        error: { code: string; message: string };
        path: string | undefined;
        type: string;
        input: unknown;
        ctx?: unknown;
      }) => {
        seen.push({ code: error.code, message: error.message, path, type, input, ctx: ctx !== undefined });
      },
    };
    if (transport === 'ours') await registerTrpcTransport(app, { prefix: '/trpc', trpcOptions: options });
    else await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: options });
    await app.ready();
    return app;
  }

  const requests: Case[] = [
    {
      name: 'batch with failures',
      url: `/trpc/users.list,auth.me,nope,licenses.list?batch=1&input=${json({ 0: { limit: 5 }, 3: { limit: 'x' } })}`,
      as: 'agent',
    },
    { name: 'malformed input', url: '/trpc/licenses.list?input=%7Bbad', as: 'admin' },
    { name: 'wrong method', method: 'POST', url: '/trpc/auth.me,licenses.list?batch=1', as: 'agent', headers: JSON_CT, body: '{}' },
    { name: 'a mutation refused', method: 'POST', url: '/trpc/notifications.readAll', headers: JSON_CT, body: '{}' },
  ];

  for (const failContext of [false, true]) {
    it(`the same onError calls${failContext ? ' when createContext throws' : ''}`, async () => {
      const seenOurs: Seen[] = [];
      const seenTrpc: Seen[] = [];
      const ours = await instance('ours', seenOurs, failContext);
      const theirs = await instance('trpc', seenTrpc, failContext);
      try {
        for (const c of requests) {
          const a = await ours.inject(request(c));
          const b = await theirs.inject(request(c));
          expect(view(a), c.name).toEqual(view(b));
          expect(a.headers['content-length']).toBeDefined();
        }
        const order = (s: Seen[]) => [...s].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
        expect(seenOurs.length).toBeGreaterThan(4);
        expect(order(seenOurs)).toEqual(order(seenTrpc));
      } finally {
        await ours.close();
        await theirs.close();
      }
    });
  }
});
