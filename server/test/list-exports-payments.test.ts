/**
 * The Payments list (docs/product.md "Payments"): its CSV export (GET /api/payments/export, server/src/http/list-export.ts),
 * the sort of every column it shows, and the row's detail (GET /api/payments/{id}/detail).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../src/db/schema/index.ts';
import { EXPORT_CHUNK } from '../src/http/list-export.ts';
import { api, callerFor, parseCsv, seedBrokerage, seedUser, tokenFor, trpcStatus, useTestEnv } from './helpers.ts';

const t = useTestEnv();

async function csv(path: string, token: string) {
  const res = await api(t.env, 'GET', path, { token });
  return { status: res.status, headers: res.headers, rows: res.status === 200 ? parseCsv(String(res.body)) : [], body: res.body };
}

const HEADER = ['Payment ID', 'Date', 'User', 'License Number', 'Type', 'Amount', 'Method', 'Status', 'Description'];

let outsider: { user_id: number; token: string };
let outsiderPaymentId: number;
beforeAll(async () => {
  const { env, roles } = t;
  const brokerageId = await seedBrokerage(env, 'Elsewhere Realty');
  const other = await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'Olga', last_name: 'Outside' });
  outsider = { user_id: other.user_id, token: await tokenFor(env, other.user_id) };
  // Past one chunk for the agent: amounts 1.01 .. (EXPORT_CHUNK + 3).01, Pending on every third.
  await env.db.transaction(async (tx) => {
    await tx.insert(payments).values(
      Array.from({ length: EXPORT_CHUNK + 3 }, (_, i) => ({
        user_id: roles.agent.user_id,
        amount_cents: (i + 1) * 100 + 1,
        status: i % 3 === 0 ? ('Pending' as const) : ('Completed' as const),
        description: `bulk ${String(i).padStart(4, '0')}`,
        payment_date: '2025-03-01',
      })),
    );
    const [row] = await tx
      .insert(payments)
      .values({ user_id: other.user_id, amount_cents: 5000, description: '=HYPERLINK("http://x")', payment_date: '2025-04-01' })
      .returning();
    outsiderPaymentId = row!.payment_id;
  });
});

describe('GET /api/payments/export', () => {
  it('holds every row of the filtered view, past one chunk, in the list sort, with a header and a dated name', async () => {
    const res = await csv(
      '/api/payments/export?status=Completed&user_id=' + t.roles.agent.user_id + '&sort=amount&order=desc',
      t.roles.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="payments_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual(HEADER);
    const completed = Array.from({ length: EXPORT_CHUNK + 3 }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(completed.length).toBeGreaterThan(EXPORT_CHUNK / 2);
    expect(rows.map((r) => r[5])).toEqual(completed.reverse().map((i) => `${i + 1}.01`));
    expect(new Set(rows.map((r) => r[7]))).toEqual(new Set(['Completed']));
    expect(rows[0]!.slice(1, 5)).toEqual(['2025-03-01', `Agent ${rows[0]![2]!.split(' ')[1]}`, '', 'License Fee']);
    // The page procedure with the same filters has the same total.
    const page = await api(t.env, 'GET', `/api/payments/page?status=Completed&user_id=${t.roles.agent.user_id}&limit=1`, {
      token: t.roles.admin.token,
    });
    expect(page.body.pagination.total).toBe(rows.length);
  });

  it('is newest first without a sort, past one chunk, like the list', async () => {
    const res = await csv('/api/payments/export', t.roles.admin.token);
    expect(res.rows).toHaveLength(EXPORT_CHUNK + 4 + 1);
    expect(res.rows[1]![1]).toBe('2025-04-01');
  });

  it("keeps to the caller's scope and neutralises formula-like cells", async () => {
    const mine = await csv('/api/payments/export', outsider.token);
    expect(mine.rows.slice(1).map((r) => r[8])).toEqual([`'=HYPERLINK("http://x")`]);
    const agent = await csv('/api/payments/export?search=bulk', t.roles.agent.token);
    expect(agent.rows).toHaveLength(EXPORT_CHUNK + 3 + 1);
    // The agent's Broker sees the agent's payments; not the other brokerage's.
    const broker = await csv('/api/payments/export', t.roles.broker.token);
    expect(broker.rows.slice(1).some((r) => r[2] === 'Olga Outside')).toBe(false);
    expect(broker.rows).toHaveLength(EXPORT_CHUNK + 3 + 1);
  });

  it('refuses a School, a missing session and a bad filter, with a message', async () => {
    expect((await csv('/api/payments/export', t.roles.school.token)).status).toBe(403);
    expect((await api(t.env, 'GET', '/api/payments/export')).status).toBe(401);
    for (const q of ['status=Sideways', 'sort=nonsense', 'start_date=2025-02-30']) {
      const bad = await csv(`/api/payments/export?${q}`, t.roles.admin.token);
      expect(bad.status, q).toBe(400);
      expect(typeof bad.body.error).toBe('string');
      expect(bad.body.error).not.toBe('');
    }
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await api(t.env, 'GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths['/payments/export'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.body.paths['/payments/{id}/detail'] ?? {})).toEqual(['get']);
  });
});

describe('payments sort keys', () => {
  let ids: Record<string, number>;
  const tag = 'SORTKEY';
  beforeAll(async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const make = (description: string | null, amount: number, payment_type: 'Penalty' | 'Other' | 'Course Fee') =>
      admin.payments.create({ user_id: t.roles.broker.user_id, amount, payment_type, description, payment_date: '2020-01-01' });
    ids = {
      b: (await make(`${tag} banana`, 3, 'Other')).payment_id,
      a: (await make(`${tag} Apple`, 2, 'Penalty')).payment_id,
      c: (await make(`${tag} cherry`, 1, 'Course Fee')).payment_id,
    };
  });

  const order = async (sort: string, dir: 'asc' | 'desc') => {
    const res = await api(t.env, 'GET', `/api/payments/page?search=${tag}&sort=${sort}&order=${dir}`, { token: t.roles.admin.token });
    expect(res.status).toBe(200);
    return (res.body.payments as Array<{ payment_id: number }>).map((p) => p.payment_id);
  };

  it('sorts by description case-insensitively, both ways', async () => {
    expect(await order('description', 'asc')).toEqual([ids.a, ids.b, ids.c]);
    expect(await order('description', 'desc')).toEqual([ids.c, ids.b, ids.a]);
  });

  it('puts payments without a description first (ascending) on every engine', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const none = await admin.payments.create({ user_id: t.roles.broker.user_id, amount: 7, payment_date: '1999-12-31' });
    const res = await api(t.env, 'GET', '/api/payments/page?end_date=2020-01-01&sort=description&order=asc&limit=100', {
      token: t.roles.admin.token,
    });
    const got = (res.body.payments as Array<{ payment_id: number }>).map((p) => p.payment_id);
    expect(got).toEqual([none.payment_id, ids.a, ids.b, ids.c]);
  });

  it('sorts by amount and type with the id as tie-break', async () => {
    expect(await order('amount', 'asc')).toEqual([ids.c, ids.a, ids.b]);
    expect(await order('payment_type', 'asc')).toEqual([ids.c, ids.b, ids.a]);
    const agentAll = await api(t.env, 'GET', `/api/payments/page?user_id=${t.roles.agent.user_id}&sort=payment_date&order=asc&limit=5`, {
      token: t.roles.admin.token,
    });
    const sameDay = (agentAll.body.payments as Array<{ payment_id: number }>).map((p) => p.payment_id);
    expect(sameDay).toEqual([...sameDay].sort((x, y) => x - y));
  });
});

describe('GET /api/payments/{id}/detail', () => {
  it('answers the payment, its payer and its license', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const license = await admin.licenses.create({
      user_id: t.roles.agent.user_id,
      license_number: 'DETAIL-1',
      state: 'OR',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    });
    const paid = await admin.payments.create({ user_id: t.roles.agent.user_id, amount: 45.5, license_id: license.license_id });
    const res = await api(t.env, 'GET', `/api/payments/${paid.payment_id}/detail`, { token: t.roles.broker.token });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ payment_id: paid.payment_id, amount: 45.5, license_number: 'DETAIL-1' });
    expect(res.body.payer).toMatchObject({
      user_id: t.roles.agent.user_id,
      role_name: 'Agent',
      brokerage_name: 'Main Street Realty',
      is_active: true,
    });
    expect(res.body.payer.email).toMatch(/@test\.example$/);
    expect(res.body.payer).not.toHaveProperty('password_hash');
    expect(res.body.license).toMatchObject({ license_id: license.license_id, license_number: 'DETAIL-1', state: 'OR' });
  });

  it('has a null license when none is linked, and answers 404 out of scope, 403 to a School', async () => {
    const own = await callerFor(t.env, outsider.user_id).payments.detail({ id: outsiderPaymentId });
    expect(own.license).toBeNull();
    expect(own.payer).toMatchObject({ first_name: 'Olga', last_name: 'Outside', brokerage_name: 'Elsewhere Realty' });
    expect(await trpcStatus(callerFor(t.env, t.roles.broker.user_id).payments.detail({ id: outsiderPaymentId }))).toBe(404);
    expect(await trpcStatus(callerFor(t.env, t.roles.agent.user_id).payments.detail({ id: outsiderPaymentId }))).toBe(404);
    expect(await trpcStatus(callerFor(t.env, t.roles.school.user_id).payments.detail({ id: outsiderPaymentId }))).toBe(403);
  });
});
