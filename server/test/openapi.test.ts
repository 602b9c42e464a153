import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../src/router.ts';
import { fileRoutePaths } from '../src/http/routes.ts';
import { api, createTestEnv, type TestEnv } from './helpers.ts';

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
