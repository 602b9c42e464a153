import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MAX_PAYMENT_DOLLARS, type RoleName } from '@lm/shared';
import { auditLogs, payments } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { api, callerFor, seedBrokerage, seedUser, tokenFor, type TestEnv, trpcStatus, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
let other: { broker: { user_id: number; token: string }; agent: { user_id: number; token: string } };
const ROLES: RoleName[] = ['Admin', 'Broker', 'Agent', 'School'];
const who = (r: RoleName) => roles[r.toLowerCase() as 'admin' | 'broker' | 'agent' | 'school'];

beforeAll(async () => {
  ({ env, roles } = t);
  const brokerageId = await seedBrokerage(env, 'Other Realty');
  const broker = await seedUser(env, 'Broker', { brokerage_id: brokerageId });
  const agent = await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'Olga', last_name: 'Otheragent' });
  other = {
    broker: { user_id: broker.user_id, token: await tokenFor(env, broker.user_id) },
    agent: { user_id: agent.user_id, token: await tokenFor(env, agent.user_id) },
  };
});

const body = (userId: number, extra: Record<string, unknown> = {}) => ({ user_id: userId, amount: 125.5, ...extra });
const seedPayment = (userId: number, extra: Record<string, unknown> = {}) =>
  callerFor(env, roles.admin.user_id).payments.create(body(userId, extra) as never);

let licenseN = 0;
function seedLicense(userId: number) {
  return callerFor(env, roles.admin.user_id).licenses.create({
    user_id: userId,
    license_number: `PAY-LIC-${++licenseN}-${Date.now()}`,
    state: 'TX',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });
}

describe('OpenAPI', () => {
  it('publishes the payment paths', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/payments'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/payments/page'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/payments/summary'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/payments/{id}'] ?? {})).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
  });
});

describe('REST rules (acceptance 5)', () => {
  it('answers 400 with the spec messages', async () => {
    const t = roles.admin.token;
    const zero = await api(env, 'POST', '/api/payments', { token: t, body: body(roles.agent.user_id, { amount: 0 }) });
    expect(zero.status).toBe(400);
    expect(zero.body.error).toBe('Amount must be greater than 0');
    expect(zero.body.issues).toContainEqual({ path: 'amount', message: 'Amount must be greater than 0' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: -5 }, 'Amount must be greater than 0'],
      [{ amount: undefined }, 'Amount must be greater than 0'],
      [{ user_id: undefined }, 'User is required'],
      [{ payment_type: '' }, 'Payment type is required'],
      [{ payment_type: null }, 'Payment type is required'],
      [{ amount: 10.005 }, 'Amount can have at most 2 decimal places'],
    ];
    for (const [extra, message] of cases) {
      const res = await api(env, 'POST', '/api/payments', { token: t, body: body(roles.agent.user_id, extra) });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    for (const extra of [{ payment_method: 'Bitcoin' }, { status: 'Lost' }, { payment_date: '2026-02-30' }]) {
      expect((await api(env, 'POST', '/api/payments', { token: t, body: body(roles.agent.user_id, extra) })).status).toBe(400);
    }
  });

  it('creates with the defaults, lists with names, gets, updates and deletes', async () => {
    const t = roles.admin.token;
    const created = await api(env, 'POST', '/api/payments', { token: t, body: { user_id: roles.agent.user_id, amount: 19.99 } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      payment_id: expect.any(Number),
      user_id: roles.agent.user_id,
      first_name: 'Agent',
      amount: 19.99,
      payment_type: 'License Fee',
      payment_method: 'Credit Card',
      status: 'Completed',
      payment_date: today(),
      description: null,
      license_id: null,
      created_by: roles.admin.user_id,
    });
    const id = created.body.payment_id as number;
    expect((await env.db.select().from(payments).where(eq(payments.payment_id, id)))[0]!.amount_cents).toBe(1999);

    const list = await api(env, 'GET', '/api/payments', { token: t });
    expect(list.status).toBe(200);
    expect(list.body.find((p: { payment_id: number }) => p.payment_id === id)).toMatchObject({
      first_name: 'Agent',
      last_name: expect.any(String),
    });

    const got = await api(env, 'GET', `/api/payments/${id}`, { token: t });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const upd = await api(env, 'PUT', `/api/payments/${id}`, {
      token: t,
      body: { amount: 20.1, status: 'Refunded', description: '  Refund for duplicate charge ', payment_method: 'Check' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      payment_id: id,
      amount: 20.1,
      status: 'Refunded',
      payment_method: 'Check',
      description: 'Refund for duplicate charge',
    });
    expect((await env.db.select().from(payments).where(eq(payments.payment_id, id)))[0]!.amount_cents).toBe(2010);

    const del = await api(env, 'DELETE', `/api/payments/${id}`, { token: t });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await api(env, 'GET', `/api/payments/${id}`, { token: t })).status).toBe(404);
    const actions = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'payments'), eq(auditLogs.target_id, id)))
    ).map((r) => r.action);
    expect(actions).toEqual(['create', 'update', 'delete']);
  });

  it('summary: revenue is the exact sum of Completed amounts; counts by status', async () => {
    const payer = await seedUser(env, 'Agent', { brokerage_id: null });
    const t = roles.admin.token;
    for (const [amount, status] of [
      [0.1, 'Completed'],
      [0.2, 'Completed'],
      [19.99, 'Completed'],
      [100, 'Pending'],
      [7.5, 'Failed'],
      [3, 'Refunded'],
    ] as const) {
      expect((await api(env, 'POST', '/api/payments', { token: t, body: { user_id: payer.user_id, amount, status } })).status).toBe(200);
    }
    const res = await api(env, 'GET', `/api/payments/summary?user_id=${payer.user_id}`, { token: t });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total_revenue: 20.29, completed: 3, pending: 1, failed: 1, refunded: 1, total_payments: 6 });
    const none = await api(env, 'GET', `/api/payments/summary?user_id=${payer.user_id}&start_date=2099-01-01`, { token: t });
    expect(none.body).toEqual({ total_revenue: 0, completed: 0, pending: 0, failed: 0, refunded: 0, total_payments: 0 });
  });

  it('a day of large payments sums past 2^31 cents: each is recorded and the summary counts them exactly', async () => {
    // 22 payments of the largest amount (100,000,000 cents each) on one day, one type and method: the running total of
    // that (date, status, type, method) passes a 32-bit integer's 2,147,483,647.
    const payer = await seedUser(env, 'Agent', { brokerage_id: null });
    const day = { payment_date: '2031-02-03', payment_type: 'Other', payment_method: 'Check' };
    for (let i = 0; i < 22; i++) {
      const res = await api(env, 'POST', '/api/payments', {
        token: roles.admin.token,
        body: { user_id: payer.user_id, amount: MAX_PAYMENT_DOLLARS, ...day },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const query = `start_date=${day.payment_date}&end_date=${day.payment_date}&payment_type=Other&payment_method=Check`;
    const fromTotals = await api(env, 'GET', `/api/payments/summary?${query}`, { token: roles.admin.token });
    expect(fromTotals.body).toEqual({
      total_revenue: 22 * MAX_PAYMENT_DOLLARS,
      completed: 22,
      pending: 0,
      failed: 0,
      refunded: 0,
      total_payments: 22,
    });
    const fromRows = await api(env, 'GET', `/api/payments/summary?${query}&user_id=${payer.user_id}`, { token: roles.admin.token });
    expect(fromRows.body).toEqual(fromTotals.body);
  });

  it("links only one of the payer's own licenses (400 otherwise)", async () => {
    const t = roles.admin.token;
    const own = await seedLicense(roles.agent.user_id);
    const foreign = await seedLicense(other.agent.user_id);
    const ok = await api(env, 'POST', '/api/payments', { token: t, body: body(roles.agent.user_id, { license_id: own.license_id }) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ license_id: own.license_id, license_number: own.license_number });
    const bad = await api(env, 'POST', '/api/payments', { token: t, body: body(roles.agent.user_id, { license_id: foreign.license_id }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("The license must belong to the payment's user");
    // Moving the payment to another payer while it keeps the first payer's license is refused too.
    const moved = await api(env, 'PUT', `/api/payments/${ok.body.payment_id}`, { token: t, body: { user_id: other.agent.user_id } });
    expect(moved.status).toBe(400);
    const unlinked = await api(env, 'PUT', `/api/payments/${ok.body.payment_id}`, {
      token: t,
      body: { user_id: other.agent.user_id, license_id: null },
    });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toMatchObject({ user_id: other.agent.user_id, license_id: null, first_name: 'Olga' });
  });

  it('filters and pages', async () => {
    const payer = await seedUser(env, 'Agent', { first_name: 'Penelope', last_name: 'Payfilter' });
    const t = roles.admin.token;
    await seedPayment(payer.user_id, { payment_date: '2026-01-10', payment_type: 'Renewal Fee', description: 'January renewal' });
    await seedPayment(payer.user_id, { payment_date: '2026-02-10', payment_type: 'Course Fee', payment_method: 'Cash', status: 'Pending' });
    await seedPayment(payer.user_id, { payment_date: '2026-03-10', payment_type: 'Penalty', payment_method: 'Check' });
    const dates = (rows: Array<{ payment_date: string }>) => rows.map((r) => r.payment_date);
    const q = (query: string) => api(env, 'GET', `/api/payments?user_id=${payer.user_id}&${query}`, { token: t });
    expect(dates((await q('')).body)).toEqual(['2026-03-10', '2026-02-10', '2026-01-10']);
    expect(dates((await q('status=Pending')).body)).toEqual(['2026-02-10']);
    expect(dates((await q('payment_type=Penalty')).body)).toEqual(['2026-03-10']);
    expect(dates((await q('payment_method=Cash')).body)).toEqual(['2026-02-10']);
    expect(dates((await q('start_date=2026-02-01&end_date=2026-03-01')).body)).toEqual(['2026-02-10']);
    expect(dates((await q('sort=payment_date&order=asc&limit=1&page=2')).body)).toEqual(['2026-02-10']);
    const search = await api(env, 'GET', '/api/payments?search=payfilter', { token: t });
    expect(search.body).toHaveLength(3);
    expect(dates((await q('search=january')).body)).toEqual(['2026-01-10']);
    const page = await api(env, 'GET', `/api/payments/page?user_id=${payer.user_id}&limit=2`, { token: t });
    expect(page.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2, next_cursor: expect.any(String), total_capped: false });
    expect(dates(page.body.payments)).toEqual(['2026-03-10', '2026-02-10']);
  });
});

describe('scopes', () => {
  it("another Agent gets 404 for someone else's payment; lists and summaries are scoped", async () => {
    const mine = await seedPayment(roles.agent.user_id, { amount: 42 });
    const brokers = await seedPayment(roles.broker.user_id);
    const foreign = await seedPayment(other.agent.user_id, { amount: 77 });

    const otherAgent = await api(env, 'GET', `/api/payments/${mine.payment_id}`, { token: other.agent.token });
    expect(otherAgent.status).toBe(404);
    expect(otherAgent.body.code).toBe('NOT_FOUND');
    expect((await api(env, 'GET', `/api/payments/${mine.payment_id}`, { token: roles.agent.token })).status).toBe(200);
    expect((await api(env, 'GET', `/api/payments/${brokers.payment_id}`, { token: roles.agent.token })).status).toBe(404);

    const ids = (rows: Array<{ payment_id: number }>) => rows.map((r) => r.payment_id);
    const agentList = await api(env, 'GET', '/api/payments', { token: roles.agent.token });
    expect(agentList.body.every((p: { user_id: number }) => p.user_id === roles.agent.user_id)).toBe(true);
    const brokerList = await api(env, 'GET', '/api/payments', { token: roles.broker.token });
    expect(ids(brokerList.body)).toEqual(expect.arrayContaining([mine.payment_id, brokers.payment_id]));
    expect(ids(brokerList.body)).not.toContain(foreign.payment_id);

    const agentSummary = await api(env, 'GET', '/api/payments/summary', { token: roles.agent.token });
    const expected = agentList.body.length;
    expect(agentSummary.body.total_payments).toBe(expected);

    const t = roles.broker.token;
    expect((await api(env, 'PUT', `/api/payments/${foreign.payment_id}`, { token: t, body: { amount: 1 } })).status).toBe(404);
    expect((await api(env, 'DELETE', `/api/payments/${foreign.payment_id}`, { token: t })).status).toBe(404);
    expect((await api(env, 'POST', '/api/payments', { token: t, body: body(other.agent.user_id) })).status).toBe(404);
    expect((await env.db.select().from(payments).where(eq(payments.payment_id, foreign.payment_id)))[0]!.amount_cents).toBe(7700);

    expect((await api(env, 'GET', '/api/payments', { token: roles.school.token })).status).toBe(403);
    expect((await api(env, 'GET', '/api/payments/summary', { token: roles.school.token })).status).toBe(403);
    expect((await api(env, 'GET', '/api/payments')).status).toBe(401);
  });
});

describe('tRPC scopes', () => {
  it("answers 404 for another Agent's payment and for a Broker outside its brokerage", async () => {
    const mine = await seedPayment(roles.agent.user_id);
    expect(await trpcStatus(callerFor(env, other.agent.user_id).payments.get({ id: mine.payment_id }))).toBe(404);
    const broker = callerFor(env, other.broker.user_id).payments;
    expect(await trpcStatus(broker.update({ id: mine.payment_id, amount: 1 }))).toBe(404);
    expect(await trpcStatus(broker.delete({ id: mine.payment_id }))).toBe(404);
    expect((await broker.list()).map((p) => p.payment_id)).not.toContain(mine.payment_id);
    expect(await trpcStatus(callerFor(env, null).payments.summary())).toBe(401);
  });
});

describe('role x action (both paths)', () => {
  type Action = 'list' | 'page' | 'summary' | 'get' | 'create' | 'update' | 'delete';
  const ACTIONS: Action[] = ['list', 'page', 'summary', 'get', 'create', 'update', 'delete'];
  /** On a payment of the Broker's brokerage's Agent: in scope for Admin, Broker and that Agent. */
  const EXPECTED: Record<RoleName, Record<Action, number>> = {
    Admin: { list: 200, page: 200, summary: 200, get: 200, create: 200, update: 200, delete: 200 },
    Broker: { list: 200, page: 200, summary: 200, get: 200, create: 200, update: 200, delete: 200 },
    Agent: { list: 200, page: 200, summary: 200, get: 200, create: 403, update: 403, delete: 403 },
    School: { list: 403, page: 403, summary: 403, get: 403, create: 403, update: 403, delete: 403 },
  };

  function rest(role: RoleName, action: Action, id: number) {
    const token = who(role).token;
    switch (action) {
      case 'list':
        return api(env, 'GET', '/api/payments?status=Completed', { token });
      case 'page':
        return api(env, 'GET', '/api/payments/page?limit=5', { token });
      case 'summary':
        return api(env, 'GET', '/api/payments/summary', { token });
      case 'get':
        return api(env, 'GET', `/api/payments/${id}`, { token });
      case 'create':
        return api(env, 'POST', '/api/payments', { token, body: body(roles.agent.user_id) });
      case 'update':
        return api(env, 'PUT', `/api/payments/${id}`, { token, body: { amount: 1.23 } });
      case 'delete':
        return api(env, 'DELETE', `/api/payments/${id}`, { token });
    }
  }

  function trpc(role: RoleName, action: Action, id: number) {
    const c = callerFor(env, who(role).user_id).payments;
    switch (action) {
      case 'list':
        return c.list({ status: 'Completed' });
      case 'page':
        return c.page({ limit: 5 });
      case 'summary':
        return c.summary();
      case 'get':
        return c.get({ id });
      case 'create':
        return c.create(body(roles.agent.user_id) as never);
      case 'update':
        return c.update({ id, amount: 1.23 });
      case 'delete':
        return c.delete({ id });
    }
  }

  for (const role of ROLES) {
    for (const action of ACTIONS) {
      it(`${role} ${action}: REST ${EXPECTED[role][action]}, tRPC the same`, async () => {
        const a = await seedPayment(roles.agent.user_id);
        const res = await rest(role, action, a.payment_id);
        expect(res.status, JSON.stringify(res.body)).toBe(EXPECTED[role][action]);
        const b = await seedPayment(roles.agent.user_id);
        expect(await trpcStatus(trpc(role, action, b.payment_id))).toBe(EXPECTED[role][action]);
        if (EXPECTED[role][action] !== 200) {
          expect((await env.db.select().from(payments).where(eq(payments.payment_id, a.payment_id)))[0]?.amount_cents).toBe(12550);
        }
      });
    }
  }
});
