/**
 * API keys on the REST paths (issue #29, must-shows 1 and 6; docs/api.md "API keys", docs/decisions.md "API keys"):
 * a key reads with no one signed in, the secret is shown once, scopes and brokerages bound it, a revoke holds at
 * once, its writes are audited as the key, it never works on /trpc, and each key has a rate limit.
 */
import { describe, expect, it } from 'vitest';
import { api, seedBrokerage, seedUser, tokenFor, useTestEnv, type TestEnv } from './helpers.ts';
import { buildApp } from '../src/app.ts';
import { createAppServices } from '../src/core/context.ts';

const t = useTestEnv({ API_KEY_RATE_LIMIT: '1000', API_KEY_RATE_WINDOW: '60' });
let seq = 0;

async function createKey(env: TestEnv, token: string, body: Record<string, unknown>) {
  const res = await api(env, 'POST', '/api/api-keys', { token, body: { name: `Key ${++seq}`, ...body } });
  return res;
}

async function licenseFor(env: TestEnv, token: string, userId: number) {
  const res = await api(env, 'POST', '/api/licenses', {
    token,
    body: {
      user_id: userId,
      license_number: `KEY-${++seq}-${Date.now()}`,
      state: 'CA',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { license_id: number; user_id: number };
}

describe('API keys (must-show 1)', () => {
  it('an Admin key reads licenses with no one signed in; the secret is shown once, never in the list', async () => {
    const { env, roles } = t;
    const created = await createKey(env, roles.admin.token, { scopes: ['read'] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const key = created.body.secret as string;
    expect(key).toMatch(/^lmk_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(`lmk_${created.body.prefix}_`)).toBe(true);
    expect(created.body.scopes).toEqual(['read']);
    expect(created.body.brokerage_id).toBeNull();

    await licenseFor(env, roles.admin.token, roles.agent.user_id);
    const read = await api(env, 'GET', '/api/licenses', { token: key });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.length).toBeGreaterThan(0);

    const list = await api(env, 'GET', '/api/api-keys', { token: roles.admin.token });
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(-43));
    const row = list.body.api_keys.find((k: { api_key_id: number }) => k.api_key_id === created.body.api_key_id);
    expect(row).toMatchObject({ prefix: created.body.prefix, scopes: ['read'], revoked_at: null });
    expect(row.secret).toBeUndefined();
    // The read above was the key's use.
    expect(row.last_used_at).not.toBeNull();
    expect(row.created_by_name).toMatch(/^Admin User\d+$/);

    // The plain file routes take keys too (authenticate()).
    const csv = await api(env, 'GET', '/api/licenses/export', { token: key });
    expect(csv.status).toBe(200);
  });

  it('a read key gets 403 with a clear message on a write; a write key writes, audited as the key', async () => {
    const { env, roles } = t;
    const readKey = (await createKey(env, roles.admin.token, { scopes: ['read'] })).body.secret as string;
    const body = {
      user_id: roles.agent.user_id,
      license_number: `RO-${Date.now()}`,
      state: 'CA',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    };
    const refused = await api(env, 'POST', '/api/licenses', { token: readKey, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/read-only/);

    const name = `Back office ${Date.now()}`;
    const writer = await api(env, 'POST', '/api/api-keys', { token: roles.admin.token, body: { name, scopes: ['write'] } });
    expect(writer.body.scopes).toEqual(['read', 'write']);
    const made = await api(env, 'POST', '/api/licenses', { token: writer.body.secret, body });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const logs = await api(env, 'GET', `/api/audit/logs?target_table=licenses&action=create&limit=100`, { token: roles.admin.token });
    const entry = logs.body.logs.find((l: { target_id: number }) => l.target_id === made.body.license_id);
    expect(entry.actor_name).toBe(`API key: ${name}`);
    expect(entry.actor_email).toBeNull();
  });

  it('a revoked key is refused (401) at once; an unknown key too; revoking is audited', async () => {
    const { env, roles } = t;
    const created = await createKey(env, roles.admin.token, { scopes: ['read'] });
    const key = created.body.secret as string;
    expect((await api(env, 'GET', '/api/licenses', { token: key })).status).toBe(200);
    const revoked = await api(env, 'DELETE', `/api/api-keys/${created.body.api_key_id}`, { token: roles.admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const after = await api(env, 'GET', '/api/licenses', { token: key });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('Invalid or revoked API key');
    // A wrong secret under a real prefix, and garbage.
    const wrong = `lmk_${created.body.prefix}_${'A'.repeat(43)}`;
    expect((await api(env, 'GET', '/api/licenses', { token: wrong })).status).toBe(401);
    expect((await api(env, 'GET', '/api/licenses', { token: 'lmk_nope' })).status).toBe(401);
    const logs = await api(env, 'GET', `/api/audit/logs?target_table=api_keys&limit=100`, { token: roles.admin.token });
    const actions = logs.body.logs
      .filter((l: { target_id: number }) => l.target_id === created.body.api_key_id)
      .map((l: { action: string }) => l.action);
    expect(actions.sort()).toEqual(['create', 'revoke']);
  });

  it("a Broker's key sees only its brokerage; a Broker cannot make a write key or one for another brokerage", async () => {
    const { env, roles } = t;
    const other = await seedBrokerage(env, `Other Realty ${Date.now()}`);
    const otherAgent = await seedUser(env, 'Agent', { brokerage_id: other });
    const mine = await licenseFor(env, roles.admin.token, roles.agent.user_id);
    const theirs = await licenseFor(env, roles.admin.token, otherAgent.user_id);

    expect((await createKey(env, roles.broker.token, { scopes: ['write'] })).status).toBe(403);
    expect((await createKey(env, roles.broker.token, { scopes: ['read'], brokerage_id: other })).status).toBe(403);
    const created = await createKey(env, roles.broker.token, { scopes: ['read'] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.brokerage_id).toBe(roles.brokerageId);

    const res = await api(env, 'GET', '/api/licenses', { token: created.body.secret });
    expect(res.status).toBe(200);
    const ids = res.body.map((l: { license_id: number }) => l.license_id);
    expect(ids).toContain(mine.license_id);
    expect(ids).not.toContain(theirs.license_id);

    // An Admin's key for the other brokerage acts with a Broker's reach there.
    const scoped = await createKey(env, roles.admin.token, { scopes: ['read'], brokerage_id: other });
    const there = await api(env, 'GET', '/api/licenses', { token: scoped.body.secret });
    const thereIds = there.body.map((l: { license_id: number }) => l.license_id);
    expect(thereIds).toContain(theirs.license_id);
    expect(thereIds).not.toContain(mine.license_id);

    // The Broker lists only its brokerage's keys, and cannot revoke another's (404: outside its scope).
    const list = await api(env, 'GET', '/api/api-keys?limit=100', { token: roles.broker.token });
    expect(list.body.api_keys.every((k: { brokerage_id: number }) => k.brokerage_id === roles.brokerageId)).toBe(true);
    expect((await api(env, 'DELETE', `/api/api-keys/${scoped.body.api_key_id}`, { token: roles.broker.token })).status).toBe(404);
    // Agents and Schools have no keys.
    expect((await createKey(env, roles.agent.token, { scopes: ['read'] })).status).toBe(403);
    expect((await api(env, 'GET', '/api/api-keys', { token: roles.school.token })).status).toBe(403);
  });

  it('a key does not work on /trpc, and cannot manage keys or act as a person', async () => {
    const { env, roles } = t;
    const key = (await createKey(env, roles.admin.token, { scopes: ['write'] })).body.secret as string;
    const trpc = await env.app.inject({ method: 'GET', url: '/trpc/licenses.list', headers: { authorization: `Bearer ${key}` } });
    expect(trpc.statusCode).toBe(401);
    const minted = await createKey(env, key, { scopes: ['read'] });
    expect(minted.status).toBe(403);
    expect(minted.body.error).toMatch(/sign in as a person/);
    expect((await api(env, 'POST', '/api/auth/logout', { token: key })).status).toBe(403);
  });

  it('a key stops when its creator may no longer make it (deactivated)', async () => {
    const { env } = t;
    const admin = await seedUser(env, 'Admin');
    const token = await tokenFor(env, admin.user_id);
    const key = (await createKey(env, token, { scopes: ['read'] })).body.secret as string;
    expect((await api(env, 'GET', '/api/licenses', { token: key })).status).toBe(200);
    const off = await api(env, 'PUT', `/api/users/${admin.user_id}`, { token: t.roles.admin.token, body: { is_active: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await api(env, 'GET', '/api/licenses', { token: key })).status).toBe(401);
  });

  it('bad input is a 400 that creates nothing; an unknown brokerage 404', async () => {
    const { env, roles } = t;
    const before = (await api(env, 'GET', '/api/api-keys?limit=1', { token: roles.admin.token })).body.pagination.total;
    expect((await createKey(env, roles.admin.token, { scopes: [] })).status).toBe(400);
    expect((await createKey(env, roles.admin.token, { scopes: ['admin'] })).status).toBe(400);
    expect((await api(env, 'POST', '/api/api-keys', { token: roles.admin.token, body: { name: '', scopes: ['read'] } })).status).toBe(400);
    expect((await createKey(env, roles.admin.token, { scopes: ['read'], brokerage_id: 999999 })).status).toBe(404);
    const after = (await api(env, 'GET', '/api/api-keys?limit=1', { token: roles.admin.token })).body.pagination.total;
    expect(after).toBe(before);
  });
});

describe('API key rate limits (must-show 6)', () => {
  const small = useTestEnv({ API_KEY_RATE_LIMIT: '3', API_KEY_RATE_WINDOW: '3600' });

  it('every key answer carries RateLimit headers; past the limit 429 with Retry-After and a human message', async () => {
    const { env, roles } = small;
    const key = (await createKey(env, roles.admin.token, { scopes: ['read'] })).body.secret as string;
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(env, 'GET', '/api/licenses', { token: key });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await api(env, 'GET', '/api/licenses', { token: key });
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(over.body.error).toMatch(/^This API key has made 3 requests in 3600 seconds, the most allowed\. Try again in \d+ seconds\.$/);
    // Another key has its own count; people are not limited by it.
    const other = (await createKey(env, roles.admin.token, { scopes: ['read'] })).body.secret as string;
    expect((await api(env, 'GET', '/api/licenses', { token: other })).status).toBe(200);
    const person = await api(env, 'GET', '/api/licenses', { token: roles.admin.token });
    expect(person.status).toBe(200);
    expect(person.headers['ratelimit-limit']).toBeUndefined();
  });
});

// PostgreSQL pass only (TEST_DATABASE_URL): on SQLite the server is one process.
if (process.env.TEST_DATABASE_URL) {
  describe('PostgreSQL: two instances share each key’s count and see a revoke at once', () => {
    const pair = useTestEnv({ API_KEY_RATE_LIMIT: '3', API_KEY_RATE_WINDOW: '3600' });

    it('the second instance continues the first one’s count', async () => {
      const { env, roles } = pair;
      // Another app with its own per-process state on the same database: what a second instance is.
      const other = await buildApp({ config: env.config, db: env.db, services: createAppServices(), logger: false });
      try {
        await other.app.ready();
        const b = { app: other.app };
        const created = await createKey(env, roles.admin.token, { scopes: ['read'] });
        const key = created.body.secret as string;
        expect((await api(env, 'GET', '/api/licenses', { token: key })).headers['ratelimit-remaining']).toBe('2');
        expect((await api(b, 'GET', '/api/licenses', { token: key })).headers['ratelimit-remaining']).toBe('1');
        expect((await api(env, 'GET', '/api/licenses', { token: key })).headers['ratelimit-remaining']).toBe('0');
        expect((await api(b, 'GET', '/api/licenses', { token: key })).status).toBe(429);

        const fresh = (await createKey(env, roles.admin.token, { scopes: ['read'] })).body;
        expect((await api(b, 'GET', '/api/licenses', { token: fresh.secret })).status).toBe(200);
        expect((await api(env, 'DELETE', `/api/api-keys/${fresh.api_key_id}`, { token: roles.admin.token })).status).toBe(200);
        expect((await api(b, 'GET', '/api/licenses', { token: fresh.secret })).status).toBe(401);
      } finally {
        await other.app.close();
      }
    });
  });
}
