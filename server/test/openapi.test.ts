import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../src/router.ts';
import { fileRoutePaths } from '../src/routes.ts';
import { api, callerFor, createTestEnv, seedRoles, type TestEnv } from './helpers.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

/** Every procedure with OpenAPI meta, as "METHOD /path". */
function publishedProcedures(): string[] {
  const out: string[] = [];
  for (const proc of Object.values(appRouter._def.procedures as unknown as Record<string, unknown>) as Array<{
    _def: { meta?: { openapi?: { method: string; path: string } } };
  }>) {
    const o = proc._def.meta?.openapi;
    if (o) out.push(`${o.method} ${o.path}`);
  }
  return out;
}

describe('/api/openapi.json', () => {
  it('lists every published procedure and plain route', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const expected = [
      ...publishedProcedures(),
      ...Object.entries(fileRoutePaths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`)),
    ].map((e) => e.replace(/\{(\w+)\}/g, '{$1}'));
    for (const e of expected) expect(listed).toContain(e);
    // The foundation's own paths, named explicitly; each domain's tests name theirs.
    for (const p of ['POST /auth/login', 'POST /auth/logout', 'GET /auth/me', 'POST /auth/change-password', 'GET /health']) {
      expect(listed).toContain(p);
    }
  });

  it('serves the API reference page at /api/docs', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/docs' });
    const final = res.statusCode === 302 ? await env.app.inject({ method: 'GET', url: String(res.headers.location) }) : res;
    expect(final.statusCode).toBe(200);
    expect(final.body).toMatch(/swagger/i);
  });

  it('answers /api/health', async () => {
    const res = await api(env, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});

describe('what the document promises integrators', () => {
  it('types a failed sign-in as the real error body and marks sign-in public', async () => {
    const doc = (await api(env, 'GET', '/api/openapi.json')).body;
    const login = doc.paths['/auth/login'].post;
    expect(login.security).toEqual([]);
    for (const status of ['400', '401', '429']) {
      const ref = login.responses[status].$ref.split('/').pop();
      expect(doc.components.responses[ref].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(doc.components.schemas.Error.properties.error).toMatchObject({ type: 'string' });
    expect(doc.components.schemas.Error.properties.issues.items.required).toEqual(['path', 'message']);
    const res = await api(env, 'POST', '/api/auth/login', { body: { email: 'nobody@example.test', password: 'wrong' } });
    expect(res.status).toBe(401);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'error']);
  });

  it('answers 400 to a JSON body that is not an object, before anything runs; a body-less POST still works', async () => {
    const roles = await seedRoles(env);
    const before = (await api(env, 'GET', '/api/admin/backups', { token: roles.admin.token })).body.total;
    for (const payload of ['[]', '"str"', '42', 'null', 'true', '[{"description":"x"}]']) {
      for (const [method, url] of [
        ['POST', '/api/admin/backups'],
        ['POST', '/api/admin/settings/reset'],
        ['PUT', '/api/admin/settings'],
        ['POST', '/api/auth/login'],
      ] as const) {
        const res = await env.app.inject({
          method,
          url,
          payload,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${roles.admin.token}` },
        });
        expect(res.statusCode, `${method} ${url} ${payload}`).toBe(400);
        expect(JSON.parse(res.body)).toEqual({ error: 'The request body must be a JSON object', code: 'BAD_REQUEST' });
      }
    }
    expect((await api(env, 'GET', '/api/admin/backups', { token: roles.admin.token })).body.total).toBe(before);
    const license = await callerFor(env, roles.admin.user_id).licenses.create({
      user_id: roles.agent.user_id,
      license_number: 'OBJ-1',
      state: 'CA',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    });
    const renewed = await env.app.inject({
      method: 'POST',
      url: `/api/licenses/${license.license_id}/renew`,
      headers: { authorization: `Bearer ${roles.admin.token}` },
    });
    expect(renewed.statusCode).toBe(200);
  });
});
