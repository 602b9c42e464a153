import { describe, expect, it } from 'vitest';
import { api, seedUser, useTestEnv } from './helpers.ts';

const t = useTestEnv();

let n = 0;
async function newLicense(userId: number): Promise<number> {
  const res = await api(t.env, 'POST', '/api/licenses', {
    token: t.roles.admin.token,
    body: {
      user_id: userId,
      license_number: `SINCE-${Date.now()}-${++n}`,
      state: 'CA',
      issue_date: '2026-01-01',
      expiration_date: '2028-01-01',
    },
  });
  expect(res.status).toBe(200);
  return res.body.license_id as number;
}
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('updated_since on lists', () => {
  it('?updated_since lists only the licenses changed after that time', async () => {
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
    const a = await newLicense(holder.user_id);
    const b = await newLicense(holder.user_id);
    await tick();
    const since = new Date().toISOString();
    await tick();
    const c = await newLicense(holder.user_id);
    expect((await api(t.env, 'PUT', `/api/licenses/${a}`, { token: t.roles.admin.token, body: { state: 'TX' } })).status).toBe(200);

    const url = `/api/licenses?user_id=${holder.user_id}&updated_since=${encodeURIComponent(since)}`;
    const res = await api(t.env, 'GET', url, { token: t.roles.admin.token });
    expect(res.status).toBe(200);
    const ids = (res.body as Array<{ license_id: number }>).map((l) => l.license_id).sort((x, y) => x - y);
    expect(ids).toEqual([a, c].sort((x, y) => x - y));
    expect(ids).not.toContain(b);

    const page = await api(t.env, 'GET', `/api/licenses/page?user_id=${holder.user_id}&updated_since=${encodeURIComponent(since)}`, {
      token: t.roles.admin.token,
    });
    expect(page.body.pagination.total).toBe(2);

    // Any zone is read as the same instant.
    const offset = since.replace('Z', '+00:00');
    const same = await api(t.env, 'GET', `/api/licenses?user_id=${holder.user_id}&updated_since=${encodeURIComponent(offset)}`, {
      token: t.roles.admin.token,
    });
    expect(same.body).toHaveLength(2);
  });

  it('a bad updated_since is a 400 with a message', async () => {
    const res = await api(t.env, 'GET', '/api/licenses?updated_since=yesterday', { token: t.roles.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/updated_since/);
  });
});

describe('deletions visible to a sync', () => {
  it('GET /api/deletions?since= lists deleted licenses in the caller scope, written with the delete', async () => {
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
    const outsider = await seedUser(t.env, 'Agent');
    const kept = await newLicense(holder.user_id);
    await tick();
    const since = new Date().toISOString();
    await tick();
    const gone = await newLicense(holder.user_id);
    const elsewhere = await newLicense(outsider.user_id);
    for (const id of [gone, elsewhere]) {
      expect((await api(t.env, 'DELETE', `/api/licenses/${id}`, { token: t.roles.admin.token })).status).toBe(200);
    }
    const url = `/api/deletions?resource=licenses&since=${encodeURIComponent(since)}`;
    const admin = await api(t.env, 'GET', url, { token: t.roles.admin.token });
    expect(admin.status).toBe(200);
    const adminIds = (admin.body.deletions as Array<{ resource: string; id: number; deleted_at: string }>).map((d) => d.id);
    expect(adminIds).toEqual(expect.arrayContaining([gone, elsewhere]));
    expect(adminIds).not.toContain(kept);
    expect(admin.body.deletions[0]).toMatchObject({ resource: 'licenses' });

    // The Broker sees its brokerage's deletion, not the other one; the Agent of another person sees none of them.
    const broker = await api(t.env, 'GET', url, { token: t.roles.broker.token });
    const brokerIds = (broker.body.deletions as Array<{ id: number }>).map((d) => d.id);
    expect(brokerIds).toContain(gone);
    expect(brokerIds).not.toContain(elsewhere);
    const agent = await api(t.env, 'GET', url, { token: t.roles.agent.token });
    expect((agent.body.deletions as Array<{ id: number }>).map((d) => d.id)).not.toContain(gone);

    const later = await api(t.env, 'GET', `/api/deletions?since=${encodeURIComponent(new Date().toISOString())}`, {
      token: t.roles.admin.token,
    });
    expect(later.body.deletions).toEqual([]);
    const missing = await api(t.env, 'GET', '/api/deletions', { token: t.roles.admin.token });
    expect(missing.status).toBe(400);
  });
});

describe('updated_since on every list', () => {
  it('filters users, brokerages, courses and payments; completions and documents take it', async () => {
    const token = t.roles.admin.token;
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
    const payment = (await api(t.env, 'POST', '/api/payments', { token, body: { user_id: holder.user_id, amount: 10 } })).body.payment_id;
    const brokerage = (await api(t.env, 'POST', '/api/brokerages', { token, body: { name: `Since Realty ${Date.now()}` } })).body
      .brokerage_id;
    await tick();
    const since = new Date().toISOString();
    await tick();
    const q = `updated_since=${encodeURIComponent(since)}`;
    // Nothing changed yet.
    const users0 = await api(t.env, 'GET', `/api/users?${q}`, { token });
    expect(users0.status).toBe(200);
    expect((users0.body.users as Array<{ user_id: number }>).map((u) => u.user_id)).not.toContain(holder.user_id);
    expect(
      ((await api(t.env, 'GET', `/api/payments?${q}`, { token })).body as Array<{ payment_id: number }>).map((p) => p.payment_id),
    ).not.toContain(payment);
    // Changes.
    expect((await api(t.env, 'PUT', `/api/users/${holder.user_id}`, { token, body: { first_name: 'Changed' } })).status).toBe(200);
    expect((await api(t.env, 'PUT', `/api/payments/${payment}`, { token, body: { amount: 11 } })).status).toBe(200);
    expect((await api(t.env, 'PUT', `/api/brokerages/${brokerage}`, { token, body: { address: 'Moved' } })).status).toBe(200);
    const course = (
      await api(t.env, 'POST', '/api/courses', {
        token,
        body: { course_name: `Since ${Date.now()}`, description: 'D', provider: 'P', ce_hours: 1 },
      })
    ).body.course_id;

    const users = await api(t.env, 'GET', `/api/users?${q}`, { token });
    expect((users.body.users as Array<{ user_id: number }>).map((u) => u.user_id)).toEqual([holder.user_id]);
    const payments = await api(t.env, 'GET', `/api/payments?${q}`, { token });
    expect((payments.body as Array<{ payment_id: number }>).map((p) => p.payment_id)).toEqual([payment]);
    const brokerages = await api(t.env, 'GET', `/api/brokerages?${q}`, { token });
    expect((brokerages.body.brokerages as Array<{ brokerage_id: number }>).map((b) => b.brokerage_id)).toEqual([brokerage]);
    const courses = await api(t.env, 'GET', `/api/courses?${q}`, { token });
    expect((courses.body as Array<{ course_id: number }>).map((c) => c.course_id)).toEqual([course]);
    for (const list of [
      '/api/completions',
      '/api/completions/page',
      '/api/documents',
      '/api/courses/page',
      '/api/payments/page',
      '/api/licenses/page',
    ]) {
      expect((await api(t.env, 'GET', `${list}?${q}`, { token })).status, list).toBe(200);
      expect((await api(t.env, 'GET', `${list}?updated_since=soon`, { token })).status, list).toBe(400);
    }
  });
});
