import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, brokerages, users } from '../src/db/schema/index.ts';
import { api, callerFor, seedBrokerage, seedUser, type TestEnv, trpcStatus, roleMatrix, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

describe('role x action table', () => {
  roleMatrix(
    t,
    'list, create, update, users, delete',
    { admin: 200, broker: 403, agent: 403, school: 403 },
    {
      rest: async (token, who) => {
        const id = await seedBrokerage(env, `Table ${who} ${unique()}`);
        const statuses = [
          (await api(env, 'GET', '/api/brokerages', { token })).status,
          (await api(env, 'POST', '/api/brokerages', { token, body: { name: `Created ${unique()}` } })).status,
          (await api(env, 'PUT', `/api/brokerages/${id}`, { token, body: { name: `Renamed ${unique()}` } })).status,
          (await api(env, 'GET', `/api/brokerages/${id}/users`, { token })).status,
          (await api(env, 'DELETE', `/api/brokerages/${id}`, { token })).status,
        ];
        if (who !== 'admin') expect((await env.db.select().from(brokerages).where(eq(brokerages.brokerage_id, id)))[0]).toBeTruthy();
        return statuses;
      },
      trpc: async (caller, who) => {
        const id = await seedBrokerage(env, `Table trpc ${who} ${unique()}`);
        return [
          await trpcStatus(caller.brokerages.list({})),
          await trpcStatus(caller.brokerages.create({ name: `Created ${unique()}` })),
          await trpcStatus(caller.brokerages.update({ id, name: `Renamed ${unique()}` })),
          await trpcStatus(caller.brokerages.users({ id })),
          await trpcStatus(caller.brokerages.options()),
          await trpcStatus(caller.brokerages.delete({ id })),
        ];
      },
    },
  );

  it('answers 401 signed out', async () => {
    expect((await api(env, 'GET', '/api/brokerages')).status).toBe(401);
    expect((await api(env, 'POST', '/api/brokerages', { body: { name: 'x' } })).status).toBe(401);
  });
});

describe('validation', () => {
  it('answers 400 with the docs/product.md messages and creates nothing', async () => {
    const token = roles.admin.token;
    const before = (await env.db.select().from(brokerages)).length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'Name is required'],
      [{ name: '' }, 'Name is required'],
      [{ name: '    ' }, 'Name is required'],
      [{ name: 'Valid', email: 'not-an-email' }, 'Invalid email address'],
      [{ name: 'Valid', website: 'www.example.com' }, 'Website must start with http:// or https://'],
      [{ name: 'Valid', website: 'ftp://example.com' }, 'Website must start with http:// or https://'],
    ];
    for (const [body, message] of cases) {
      const res = await api(env, 'POST', '/api/brokerages', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(message);
      expect(res.body.issues[0].message).toBe(message);
    }
    const edit = await api(env, 'PUT', `/api/brokerages/${roles.brokerageId}`, { token, body: { website: 'example.com' } });
    expect(edit.status).toBe(400);
    expect(edit.body.error).toBe('Website must start with http:// or https://');
    expect((await env.db.select().from(brokerages)).length).toBe(before);
  });

  it('creates with trimmed values, empty optional fields as null, and answers the object with its id', async () => {
    const name = `  Harbor Homes ${unique()}  `;
    const res = await api(env, 'POST', '/api/brokerages', {
      token: roles.admin.token,
      body: { name, email: '', website: 'https://harbor.example', phone: ' (555) 010-2000 ', address: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: name.trim(),
      email: null,
      website: 'https://harbor.example',
      phone: '(555) 010-2000',
      address: null,
      agent_count: 0,
    });
    expect(res.body.brokerage_id).toEqual(expect.any(Number));
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(
          and(eq(auditLogs.action, 'create'), eq(auditLogs.target_table, 'brokerages'), eq(auditLogs.target_id, res.body.brokerage_id)),
        )
    )[0];
    expect(entry?.user_id).toBe(roles.admin.user_id);
  });

  it('answers 409 for a name already used (any case), and 404 for a missing brokerage', async () => {
    const name = `Twin Realty ${unique()}`;
    await api(env, 'POST', '/api/brokerages', { token: roles.admin.token, body: { name } });
    const dup = await api(env, 'POST', '/api/brokerages', { token: roles.admin.token, body: { name: name.toUpperCase() } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('A brokerage with this name already exists');
    expect((await api(env, 'PUT', '/api/brokerages/987654', { token: roles.admin.token, body: { name: 'x' } })).status).toBe(404);
    expect((await api(env, 'DELETE', '/api/brokerages/987654', { token: roles.admin.token })).status).toBe(404);
    expect((await api(env, 'GET', '/api/brokerages/987654/users', { token: roles.admin.token })).status).toBe(404);
  });

  it('updates only the fields given; "" clears an optional field', async () => {
    const token = roles.admin.token;
    const created = await api(env, 'POST', '/api/brokerages', {
      token,
      body: { name: `Edit Me ${unique()}`, email: 'a@b.example', phone: '555' },
    });
    const id = created.body.brokerage_id;
    const res = await api(env, 'PUT', `/api/brokerages/${id}`, { token, body: { email: '', website: 'http://edit.example' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      brokerage_id: id,
      name: created.body.name,
      email: null,
      phone: '555',
      website: 'http://edit.example',
    });
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'update'), eq(auditLogs.target_table, 'brokerages'), eq(auditLogs.target_id, id)))
    )[0];
    expect(JSON.parse(entry!.new_values!)).toEqual({ email: null, website: 'http://edit.example' });
  });
});

describe('list', () => {
  it('paginates exactly with {page, limit, total, pages} and finds by name', async () => {
    const tag = `Pagetest${unique()}`;
    for (let i = 0; i < 12; i++) await seedBrokerage(env, `${tag} Realty ${String(i).padStart(2, '0')}`);
    const token = roles.admin.token;
    const p1 = await api(env, 'GET', `/api/brokerages?search=${tag}&limit=5&page=1`, { token });
    expect(p1.status).toBe(200);
    expect(p1.body.pagination).toEqual({ page: 1, limit: 5, total: 12, pages: 3, next_cursor: 'o5', total_capped: false });
    expect(p1.body.brokerages.map((b: { name: string }) => b.name)).toEqual([0, 1, 2, 3, 4].map((i) => `${tag} Realty 0${i}`));
    const p3 = await api(env, 'GET', `/api/brokerages?search=${tag}&limit=5&page=3`, { token });
    expect(p3.body.brokerages).toHaveLength(2);
    expect(p3.body.pagination).toEqual({ page: 3, limit: 5, total: 12, pages: 3, next_cursor: null, total_capped: false });
    const byName = await api(env, 'GET', `/api/brokerages?search=${encodeURIComponent(`${tag} Realty 07`)}`, { token });
    expect(byName.body.brokerages.map((b: { name: string }) => b.name)).toEqual([`${tag} Realty 07`]);
    const lower = await api(env, 'GET', `/api/brokerages?search=${tag.toLowerCase()}`, { token });
    expect(lower.body.pagination.total).toBe(12);
    const def = await api(env, 'GET', '/api/brokerages', { token });
    expect(def.body.pagination.limit).toBe(20);
    expect(def.body.pagination.page).toBe(1);
    const trpc = await callerFor(env, roles.admin.user_id).brokerages.list({ search: tag, limit: 10, page: 2 });
    expect(trpc.pagination).toEqual({ page: 2, limit: 10, total: 12, pages: 2, next_cursor: null, total_capped: false });
  });

  it('returns nothing and no error for a search shaped like SQL injection or wildcards', async () => {
    const token = roles.admin.token;
    for (const search of ["' OR 1=1 --", "x'; DROP TABLE brokerages; --", '%', '_%_', '\\']) {
      const res = await api(env, 'GET', `/api/brokerages?search=${encodeURIComponent(search)}`, { token });
      expect(res.status, search).toBe(200);
      expect(res.body.brokerages).toEqual([]);
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0, next_cursor: null, total_capped: false });
    }
    expect((await env.db.select().from(brokerages)).length).toBeGreaterThan(0);
  });

  it('refuses a bad page or limit with 400', async () => {
    const token = roles.admin.token;
    expect((await api(env, 'GET', '/api/brokerages?limit=1000', { token })).status).toBe(400);
    expect((await api(env, 'GET', '/api/brokerages?page=0', { token })).status).toBe(400);
    expect((await api(env, 'GET', '/api/brokerages?page=abc', { token })).status).toBe(400);
  });

  it('counts agents (not brokers, not deleted users) in agent_count', async () => {
    const name = `Counted Realty ${unique()}`;
    const id = await seedBrokerage(env, name);
    await seedUser(env, 'Broker', { brokerage_id: id });
    await seedUser(env, 'Agent', { brokerage_id: id });
    await seedUser(env, 'Agent', { brokerage_id: id, is_active: false });
    const gone = await seedUser(env, 'Agent', { brokerage_id: id });
    await api(env, 'DELETE', `/api/users/${gone.user_id}`, { token: roles.admin.token });
    const res = await api(env, 'GET', `/api/brokerages?search=${encodeURIComponent(name)}`, { token: roles.admin.token });
    expect(res.body.brokerages[0]).toMatchObject({ brokerage_id: id, agent_count: 2 });
    const users = await api(env, 'GET', `/api/brokerages/${id}/users`, { token: roles.admin.token });
    expect(users.status).toBe(200);
    expect(users.body.users).toHaveLength(3);
    expect(JSON.stringify(users.body)).not.toMatch(/password|argon2/);
  });

  it('answers {users: []} for a brokerage without users', async () => {
    const id = await seedBrokerage(env, `Empty Realty ${unique()}`);
    const res = await api(env, 'GET', `/api/brokerages/${id}/users`, { token: roles.admin.token });
    expect(res.body).toEqual({ users: [] });
  });
});

describe('delete', () => {
  it('leaves its users in place, unassigned, and audits each of them', async () => {
    const id = await seedBrokerage(env, `Closing Realty ${unique()}`);
    const broker = await seedUser(env, 'Broker', { brokerage_id: id });
    const agent = await seedUser(env, 'Agent', { brokerage_id: id });
    const res = await api(env, 'DELETE', `/api/brokerages/${id}`, { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await env.db.select().from(brokerages).where(eq(brokerages.brokerage_id, id)))[0]).toBeUndefined();
    for (const u of [broker, agent]) {
      const row = (await env.db.select().from(users).where(eq(users.user_id, u.user_id)))[0];
      expect(row).toMatchObject({ brokerage_id: null, is_active: true, deleted_at: null });
      const entry = (
        await env.db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.target_table, 'users'), eq(auditLogs.target_id, u.user_id), eq(auditLogs.action, 'update')))
      )[0];
      expect(JSON.parse(entry!.old_values!)).toEqual({ brokerage_id: id });
    }
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'delete'), eq(auditLogs.target_table, 'brokerages'), eq(auditLogs.target_id, id)))
    )[0];
    expect(JSON.parse(entry!.new_values!).unassigned_user_ids.sort()).toEqual([broker.user_id, agent.user_id].sort());
    const listed = await api(env, 'GET', `/api/users?search=${agent.email}`, { token: roles.admin.token });
    expect(listed.body.users[0]).toMatchObject({ user_id: agent.user_id, brokerage_id: null, brokerage_name: null });
  });
});

describe('OpenAPI', () => {
  it('publishes the brokerages paths', async () => {
    const doc = (await api(env, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const p of [
      'GET /brokerages',
      'POST /brokerages',
      'PUT /brokerages/{id}',
      'DELETE /brokerages/{id}',
      'GET /brokerages/{id}/users',
    ]) {
      expect(listed).toContain(p);
    }
  });
});
