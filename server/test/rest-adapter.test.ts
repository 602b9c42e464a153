/**
 * The REST adapter (server/src/http/rest.ts, docs/architecture.md "The path of one request"): one Fastify
 * route per published procedure, a catch-all for the rest of /api. First against the real app, then with
 * a small router for what the app's own procedures do not exercise (array query keys, a void input, a
 * string answer, an unexpected failure).
 */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { initTRPC } from '@trpc/server';
import { z } from 'zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/base/errors.ts';
import { registerRestAdapter } from '../src/http/rest.ts';
import { api, callerFor, useTestEnv } from './helpers.ts';

const t = useTestEnv();

const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND' };

async function seedLicense(number: string) {
  const license = await callerFor(t.env, t.roles.admin.user_id).licenses.create({
    user_id: t.roles.agent.user_id,
    license_number: number,
    state: 'CA',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });
  return license.license_id;
}

describe('REST adapter on the app', () => {
  it('answers an unknown path under /api with the one 404 body, signed in or not', async () => {
    for (const token of [null, t.roles.admin.token]) {
      for (const url of ['/api/no-such-thing', '/api/', '/api/licenses/1/nothing']) {
        const res = await api(t.env, 'GET', url, { token });
        expect(res.status, url).toBe(404);
        expect(res.body, url).toEqual(NOT_FOUND);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    }
    // A body Fastify can parse does not change that (no 415 before the 404).
    const posted = await t.env.app.inject({ method: 'POST', url: '/api/nope', payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect([posted.statusCode, JSON.parse(posted.body)]).toEqual([404, NOT_FOUND]);
  });

  it('answers a known path with another method 404 too, and has no HEAD or OPTIONS routes', async () => {
    const token = t.roles.admin.token;
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const res = await api(t.env, method, '/api/licenses', { token, body: {} });
      expect([method, res.status, res.body]).toEqual([method, 404, NOT_FOUND]);
    }
    const head = await t.env.app.inject({ method: 'HEAD', url: '/api/licenses', headers: { authorization: `Bearer ${token}` } });
    expect([head.statusCode, head.body]).toEqual([404, '']);
    const options = await t.env.app.inject({ method: 'OPTIONS', url: '/api/licenses' });
    expect(options.statusCode).toBe(404);
    expect(JSON.parse(options.body)).toEqual({ error: 'No route for OPTIONS /api/licenses', code: 'NOT_FOUND' });
  });

  it('refuses a body that is not JSON with 415 before anything else (even signed out)', async () => {
    const id = await seedLicense('REST-415');
    for (const token of [null, t.roles.admin.token]) {
      const res = await t.env.app.inject({
        method: 'PUT',
        url: `/api/licenses/${id}`,
        payload: 'license_number=X',
        headers: { 'content-type': 'text/plain', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      expect(res.statusCode).toBe(415);
      expect(JSON.parse(res.body)).toEqual({ error: 'Unsupported content-type "text/plain', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    // A type Fastify has no parser for is refused by Fastify itself, with the app's message.
    const xml = await t.env.app.inject({
      method: 'POST',
      url: '/api/licenses',
      payload: '<license/>',
      headers: { 'content-type': 'application/xml', authorization: `Bearer ${t.roles.admin.token}` },
    });
    expect([xml.statusCode, JSON.parse(xml.body)]).toEqual([
      415,
      { error: 'Send the request body as application/json', code: 'UNSUPPORTED_MEDIA_TYPE' },
    ]);
  });

  it('reads the query as before: a repeated key is an array, an empty value is left out, strings are coerced', async () => {
    await seedLicense('REST-Q1');
    await seedLicense('REST-Q2');
    const token = t.roles.admin.token;
    const repeated = await api(t.env, 'GET', '/api/licenses?limit=1&limit=2', { token });
    expect(repeated.status).toBe(400);
    expect(repeated.body.issues).toEqual([{ path: 'limit', message: expect.any(String) }]);
    const empty = await api(t.env, 'GET', '/api/licenses?limit=', { token });
    expect(empty.status).toBe(200);
    const one = await api(t.env, 'GET', '/api/licenses?limit=1', { token });
    expect([one.status, one.body.length]).toEqual([200, 1]);
    const flag = await api(t.env, 'GET', '/api/notifications?unread=true&limit=1', { token });
    expect(flag.status).toBe(200);
    expect(flag.body.pagination.limit).toBe(1);
  });

  it('coerces a path parameter to a number, validates it, and lets it win over a body field of the same name', async () => {
    const id = await seedLicense('REST-P1');
    const token = t.roles.admin.token;
    const ok = await api(t.env, 'GET', `/api/licenses/${id}/transcript`, { token });
    expect(ok.status).toBe(200);
    expect(ok.body.license.license_id).toBe(id);
    for (const bad of ['abc', '1.5', '0']) {
      const res = await api(t.env, 'GET', `/api/licenses/${bad}/transcript`, { token });
      expect(res.status, bad).toBe(400);
      expect(res.body.issues[0].path).toBe('id');
    }
    const missing = await api(t.env, 'GET', '/api/licenses/999999/transcript', { token });
    expect(missing.status).toBe(404);
    const put = await api(t.env, 'PUT', `/api/licenses/${id}`, { token, body: { id: id + 1000, license_number: 'REST-P1b' } });
    expect(put.status).toBe(200);
    expect([put.body.license_id, put.body.license_number]).toEqual([id, 'REST-P1b']);
  });

  it('prefers a static path over a parameter, and still matches any letter case or a trailing slash', async () => {
    const token = t.roles.admin.token;
    const summary = await api(t.env, 'GET', '/api/payments/summary', { token });
    expect(summary.status).toBe(200);
    expect(summary.body).toHaveProperty('total_payments');
    const page = await api(t.env, 'GET', '/api/licenses/page?limit=1', { token });
    expect(page.status).toBe(200);
    expect(page.body).toHaveProperty('licenses');
    // DELETE /licenses/{id} takes "page" as an id.
    expect((await api(t.env, 'DELETE', '/api/licenses/page', { token })).status).toBe(400);
    for (const url of ['/api/Payments/Summary', '/api/payments/summary/', '/api/LICENSES/page?limit=1']) {
      expect((await api(t.env, 'GET', url, { token })).status, url).toBe(200);
    }
  });

  it('sends the data once, as JSON, with the API headers', async () => {
    const res = await api(t.env, 'GET', '/api/auth/me', { token: t.roles.agent.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.user_id).toBe(t.roles.agent.user_id);
  });
});

describe('REST adapter with a small router', () => {
  const tr = initTRPC.meta<OpenApiMeta>().context<{ who: string }>().create();
  const seen: unknown[] = [];
  const router = tr.router({
    tags: tr.procedure
      .meta({ openapi: { method: 'GET', path: '/tags' } })
      .input(z.object({ tag: z.array(z.string()).optional(), n: z.coerce.number().optional() }))
      .output(z.object({ tag: z.array(z.string()).optional(), n: z.number().optional() }))
      .query(({ input }) => input),
    nothing: tr.procedure
      .meta({ openapi: { method: 'POST', path: '/nothing' } })
      .input(z.void())
      .output(z.string())
      .mutation(({ input }) => {
        seen.push(input);
        return 'done';
      }),
    fails: tr.procedure
      .meta({ openapi: { method: 'GET', path: '/fails' } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => {
        throw new TypeError('secret detail');
      }),
    busy: tr.procedure
      .meta({ openapi: { method: 'GET', path: '/busy' } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => {
        throw new AppError('TOO_MANY_REQUESTS', 'Slow down', { retryAfter: 7 });
      }),
    who: tr.procedure
      .meta({ openapi: { method: 'GET', path: '/who/{id}' } })
      .input(z.object({ id: z.string() }))
      .output(z.object({ who: z.string(), id: z.string() }))
      .query(({ ctx, input }) => ({ who: ctx.who, id: input.id })),
    hidden: tr.procedure.input(z.object({})).query(() => 'not published'),
  });

  async function small() {
    const lines: Array<{ level: number; msg: string; err?: { message: string } }> = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'error', stream } });
    await app.register(
      async (scope) => {
        registerRestAdapter(scope, {
          router,
          prefix: '/api',
          createContext: (req) => {
            if (req.headers['x-break']) throw new RangeError('context broke');
            return { who: String(req.headers['x-who'] ?? 'nobody') };
          },
        });
      },
      { prefix: '/api' },
    );
    await app.ready();
    return { app, lines };
  }

  it('wraps a single value of an array-typed query key, coerces the numbers its schema declares z.coerce, and merges path parameters', async () => {
    const { app } = await small();
    const get = async (url: string) => JSON.parse((await app.inject({ method: 'GET', url })).body);
    expect(await get('/api/tags?tag=a&n=3')).toEqual({ tag: ['a'], n: 3 });
    expect(await get('/api/tags?tag=a&tag=b')).toEqual({ tag: ['a', 'b'] });
    expect(await get('/api/tags?tag=&n=')).toEqual({});
    expect((await app.inject({ method: 'GET', url: '/api/who/x%20y', headers: { 'x-who': 'me' } })).json()).toEqual({
      who: 'me',
      id: 'x y',
    });
    await app.close();
  });

  it('gives a void input nothing and sends a string answer as JSON', async () => {
    const { app } = await small();
    seen.length = 0;
    const res = await app.inject({ method: 'POST', url: '/api/nothing', payload: { a: 1 } });
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([200, 'application/json; charset=utf-8', '"done"']);
    expect(seen).toEqual([undefined]);
    await app.close();
  });

  it('answers an unexpected failure 500 without its message, and logs it; AppErrors keep their status and Retry-After', async () => {
    const { app, lines } = await small();
    const failed = await app.inject({ method: 'GET', url: '/api/fails' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ error: 'Something went wrong on the server. Please try again.', code: 'INTERNAL_SERVER_ERROR' });
    expect(failed.body).not.toContain('secret');
    expect(lines.some((l) => l.msg === 'rest procedure failed' && l.err?.message.includes('secret detail'))).toBe(true);
    const broke = await app.inject({ method: 'GET', url: '/api/who/1', headers: { 'x-break': '1' } });
    expect([broke.statusCode, broke.json().code]).toEqual([500, 'INTERNAL_SERVER_ERROR']);
    const busy = await app.inject({ method: 'GET', url: '/api/busy' });
    expect([busy.statusCode, busy.headers['retry-after'], busy.json()]).toEqual([
      429,
      '7',
      { error: 'Slow down', code: 'TOO_MANY_REQUESTS' },
    ]);
    expect(lines.filter((l) => l.level >= 50)).toHaveLength(2);
    await app.close();
  });

  it('publishes only procedures with OpenAPI meta', async () => {
    const { app } = await small();
    expect(app.hasRoute({ method: 'GET', url: '/api/tags' })).toBe(true);
    expect(app.hasRoute({ method: 'HEAD', url: '/api/tags' })).toBe(false);
    expect(app.hasRoute({ method: 'GET', url: '/api/who/:id' })).toBe(true);
    const res = await app.inject({ method: 'GET', url: '/api/hidden' });
    expect([res.statusCode, res.json()]).toEqual([404, NOT_FOUND]);
    await app.close();
  });
});
