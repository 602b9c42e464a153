/**
 * The Users and Brokerages lists' CSV exports (server/src/http/list-export.ts) and their server sort: the current
 * filtered, sorted view, in the caller's scope, streamed past one chunk, formula-safe, bad filters 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { brokerages, users } from '../src/db/schema/index.ts';
import { EXPORT_CHUNK } from '../src/http/list-export.ts';
import { api, parseCsv, seedBrokerage, seedUser, useTestEnv } from './helpers.ts';

const t = useTestEnv();

async function csv(path: string, token?: string) {
  const res = await api(t.env, 'GET', path, token ? { token } : {});
  return { status: res.status, headers: res.headers, rows: res.status === 200 ? parseCsv(String(res.body)) : [], body: res.body };
}

const pad = (i: number) => String(i).padStart(4, '0');

describe('GET /api/users/export', () => {
  const tag = `Uexp${Date.now()}`;
  const many = EXPORT_CHUNK + 3;
  beforeAll(async () => {
    const { env, roles } = t;
    const [{ password_hash }] = await env.db
      .select({ password_hash: users.password_hash })
      .from(users)
      .limit(1)
      .then((r) => r as [{ password_hash: string }]);
    await env.db.transaction(async (tx) => {
      await tx.insert(users).values(
        Array.from({ length: many }, (_, i) => ({
          email: `${tag.toLowerCase()}.${pad(i)}@test.example`,
          password_hash,
          first_name: 'Exp',
          last_name: `${tag}${pad(i)}`,
          role_id: 3,
          brokerage_id: i % 2 ? roles.brokerageId : null,
          is_active: true,
        })),
      );
    });
    // A cell a spreadsheet would run, in the Broker's brokerage.
    await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId, first_name: '=HYPERLINK("http://x")', last_name: `${tag}Formula` });
  });

  it('holds every row of the filtered view, past one chunk, in the list sort, with a header and a dated name', async () => {
    const res = await csv(
      `/api/users/export?search=${encodeURIComponent(`Exp ${tag}`)}&role=Agent&sort=email&order=desc`,
      t.roles.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual([
      'User ID',
      'First Name',
      'Last Name',
      'Email',
      'Role',
      'Brokerage',
      'Status',
      'Phone',
      'Address',
      'City',
      'State',
      'Zip Code',
      'Last Login',
      'Created',
    ]);
    // `Exp ${tag}` matches every one of them (first and last name), not the formula row.
    const expected = Array.from({ length: many }, (_, i) => `${tag.toLowerCase()}.${pad(i)}@test.example`).reverse();
    expect(rows.length).toBeGreaterThan(EXPORT_CHUNK);
    expect(rows.map((r) => r[3])).toEqual(expected);
    expect(new Set(rows.map((r) => r[4]))).toEqual(new Set(['Agent']));
    // The same filter over the list procedure gives the same total.
    const page = await api(t.env, 'GET', `/api/users?search=${encodeURIComponent(`Exp ${tag}`)}&role=Agent&limit=1`, {
      token: t.roles.admin.token,
    });
    expect(page.body.pagination.total).toBe(rows.length);
  });

  it("keeps to a Broker's brokerage and neutralises formula-like cells", async () => {
    const res = await csv(`/api/users/export?search=${tag}&sort=name`, t.roles.broker.token);
    expect(res.status).toBe(200);
    const rows = res.rows.slice(1);
    expect(rows).toHaveLength((many - 1) / 2 + 1);
    expect(new Set(rows.map((r) => r[5]))).toEqual(new Set(['Main Street Realty']));
    // Sorted by last name: the formula user (…Formula) comes after the numbered ones.
    expect(rows.at(-1)![1]).toBe(`'=HYPERLINK("http://x")`);
  });

  it('refuses an Agent, a School, a missing session and a bad filter, with a message', async () => {
    expect((await csv('/api/users/export', t.roles.agent.token)).status).toBe(403);
    expect((await csv('/api/users/export', t.roles.school.token)).status).toBe(403);
    expect((await csv('/api/users/export')).status).toBe(401);
    const bad = await csv('/api/users/export?role=Wizard', t.roles.admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Unknown role "Wizard"/);
    expect((await csv('/api/users/export?sort=password', t.roles.admin.token)).status).toBe(400);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await api(t.env, 'GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths['/users/export'] ?? {})).toEqual(['get']);
  });
});

describe('GET /api/brokerages/export and the brokerages sort', () => {
  const tag = `Bexp${Date.now()}`;
  const many = EXPORT_CHUNK + 3;
  beforeAll(async () => {
    await t.env.db.transaction(async (tx) => {
      await tx.insert(brokerages).values(
        Array.from({ length: many }, (_, i) => ({
          name: `${tag} ${pad(i)}`,
          // Every third has no phone: empty values sort last in both directions.
          phone: i % 3 ? `555-${pad(many - i)}` : null,
          email: `b${pad(i)}@${tag.toLowerCase()}.example`,
        })),
      );
      await tx.insert(brokerages).values({ name: `@SUM(1) Formula Realty`, website: '=cmd|x', phone: '555-9999' });
    });
  });

  it('holds every row of the searched view, past one chunk, in the list sort', async () => {
    const res = await csv(`/api/brokerages/export?search=${tag}&sort=phone&order=desc`, t.roles.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="brokerages_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual(['Brokerage ID', 'Name', 'Address', 'Phone', 'Email', 'Website', 'Agents', 'Created']);
    expect(rows).toHaveLength(many);
    const withPhone = Array.from({ length: many }, (_, i) => i).filter((i) => i % 3);
    const withoutPhone = Array.from({ length: many }, (_, i) => i).filter((i) => i % 3 === 0);
    // Phones descending (555-0001 belongs to the last index), then the empty ones by id.
    expect(rows.map((r) => r[1])).toEqual([...withPhone, ...withoutPhone].map((i) => `${tag} ${pad(i)}`));
    expect(rows.slice(withPhone.length).every((r) => r[3] === '')).toBe(true);
  });

  it('neutralises formula-like cells', async () => {
    const res = await csv(`/api/brokerages/export?search=${encodeURIComponent('@SUM')}`, t.roles.admin.token);
    expect(res.rows.slice(1).map((r) => [r[1], r[5]])).toEqual([[`'@SUM(1) Formula Realty`, `'=cmd|x`]]);
  });

  it('is for Admins only, and a bad sort is a 400 with a message', async () => {
    for (const who of ['broker', 'agent', 'school'] as const)
      expect((await csv('/api/brokerages/export', t.roles[who].token)).status).toBe(403);
    expect((await csv('/api/brokerages/export')).status).toBe(401);
    const bad = await csv('/api/brokerages/export?sort=agents', t.roles.admin.token);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
    expect(bad.body.error).not.toBe('');
  });

  it('sorts the list by every column it shows, empty values last either way, the id breaking ties', async () => {
    const tag2 = `Bsort${Date.now()}`;
    const a = await seedBrokerage(t.env, `${tag2} b`);
    const b = await seedBrokerage(t.env, `${tag2} A`);
    const c = await seedBrokerage(t.env, `${tag2} c`);
    const token = t.roles.admin.token;
    await api(t.env, 'PUT', `/api/brokerages/${a}`, {
      token,
      body: { address: 'zeta road', email: 'a@x.example', website: 'https://b.example' },
    });
    await api(t.env, 'PUT', `/api/brokerages/${b}`, { token, body: { address: 'Alpha road', website: 'https://a.example' } });
    await seedUser(t.env, 'Agent', { brokerage_id: c });
    await seedUser(t.env, 'Agent', { brokerage_id: c });
    await seedUser(t.env, 'Agent', { brokerage_id: a });
    const order = async (sort: string, dir: 'asc' | 'desc') => {
      const res = await api(t.env, 'GET', `/api/brokerages?search=${tag2}&sort=${sort}&order=${dir}`, { token });
      expect(res.status).toBe(200);
      return (res.body.brokerages as Array<{ brokerage_id: number }>).map((r) => r.brokerage_id);
    };
    expect(await order('name', 'asc')).toEqual([b, a, c]);
    expect(await order('name', 'desc')).toEqual([c, a, b]);
    expect(await order('address', 'asc')).toEqual([b, a, c]);
    expect(await order('address', 'desc')).toEqual([a, b, c]);
    expect(await order('email', 'asc')).toEqual([a, b, c]);
    expect(await order('email', 'desc')).toEqual([a, b, c]);
    expect(await order('website', 'asc')).toEqual([b, a, c]);
    expect(await order('phone', 'desc')).toEqual([a, b, c]);
    expect(await order('agent_count', 'desc')).toEqual([c, a, b]);
    expect(await order('agent_count', 'asc')).toEqual([b, a, c]);
    expect(await order('created_at', 'asc')).toEqual([a, b, c]);
  });
});
