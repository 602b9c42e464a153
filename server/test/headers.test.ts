/** Security headers (docs/security.md "Headers"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CSP, API_HEADERS, PERMISSIONS_POLICY } from '../src/app.ts';
import { api, createTestEnv, login, seedUser, type TestEnv } from './helpers.ts';

let env: TestEnv;
let proxied: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
  proxied = await createTestEnv({ TRUST_PROXY: '10.70.0.1' });
});
afterAll(async () => {
  await env.close();
  await proxied.close();
});

const PAGE_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;" +
  "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self';frame-src 'self' blob:";

describe('security headers', () => {
  it('every JSON answer carries the API set: a success, a refusal, an unknown route, REST and tRPC', async () => {
    const token = await login(env, (await seedUser(env, 'Agent')).email);
    for (const res of [
      await api(env, 'GET', '/api/health'),
      await api(env, 'GET', '/api/licenses'),
      await api(env, 'GET', '/api/no-such-route'),
      await api(env, 'POST', '/api/licenses', { token, body: {} }),
      await api(env, 'POST', '/api/auth/login', { body: { email: 'nobody@test.example', password: 'x' } }),
      await env.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${token}` } }),
      await env.app.inject({ method: 'GET', url: '/trpc/no.such' }),
    ]) {
      for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers[name], name).toBe(value);
      expect(res.headers['content-security-policy']).toBe(API_CSP);
      // helmet's document headers are not sent on JSON (they mean nothing there).
      for (const name of [
        'referrer-policy',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-xss-protection',
        'x-dns-prefetch-control',
      ]) {
        expect(res.headers[name], name).toBeUndefined();
      }
    }
  });

  it("every page answer carries helmet's: the app, a page path's not-found answer, Swagger UI", async () => {
    for (const [res, csp] of [
      [await env.app.inject({ method: 'GET', url: '/licenses' }), PAGE_CSP],
      [await env.app.inject({ method: 'GET', url: '/no-such-file.js' }), PAGE_CSP],
      [await env.app.inject({ method: 'GET', url: '/api/docs/' }), undefined],
    ] as const) {
      if (csp) expect(res.headers['content-security-policy']).toBe(csp);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });
});

describe('Permissions-Policy', () => {
  it('every answer denies the device, sensor, payment and capture features: API, refusal, unknown route, page, /trpc', async () => {
    const answers = [
      await api(env, 'GET', '/api/health'),
      await api(env, 'GET', '/api/licenses'),
      await api(env, 'GET', '/api/no-such-route'),
      await api(env, 'POST', '/api/auth/login', { body: { email: 'nobody@test.example', password: 'x' } }),
      await api(env, 'GET', '/'),
      await api(env, 'GET', '/trpc/auth.me'),
    ];
    for (const res of answers) {
      const policy = String(res.headers['permissions-policy']);
      expect(policy).toBe(PERMISSIONS_POLICY);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'display-capture']) {
        expect(policy.split(', ')).toContain(`${feature}=()`);
      }
      expect(policy).toContain('fullscreen=(self)');
    }
  });
});

describe('HSTS', () => {
  it('is not sent over plain HTTP, nor when an untrusted client claims HTTPS', async () => {
    expect((await api(env, 'GET', '/api/health')).headers['strict-transport-security']).toBeUndefined();
    const claimed = await api(env, 'GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const otherPeer = await api(proxied, 'GET', '/api/health', { ip: '10.70.0.9', headers: { 'x-forwarded-proto': 'https' } });
    expect(otherPeer.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when a trusted proxy says the request came over HTTPS', async () => {
    const res = await api(proxied, 'GET', '/api/health', { ip: '10.70.0.1', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('Cache-Control', () => {
  it('every API answer, signed in or not, REST and tRPC, is no-store', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    for (const res of [
      await api(env, 'GET', '/api/auth/me', { token }),
      await api(env, 'GET', '/api/auth/me'),
      await api(env, 'GET', '/api/users', { token }),
      await api(env, 'GET', '/api/no-such-route'),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const trpc = await env.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${token}` } });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.headers['cache-control']).toBe('no-store');
  });
});

describe('/api/docs', () => {
  it('has a CSP that does not upgrade plain requests', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/docs/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('HEAD', () => {
  it('no API operation answers HEAD as if it had succeeded (the adapter would say 204 to anyone)', async () => {
    const res = await env.app.inject({ method: 'HEAD', url: '/api/ce-rules' });
    expect(res.statusCode).toBe(404);
    expect((await env.app.inject({ method: 'GET', url: '/api/ce-rules' })).statusCode).toBe(401);
  });
});
