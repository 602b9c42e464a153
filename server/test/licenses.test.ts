import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { addDays, addYears, type RoleName } from '@lm/shared';
import { auditLogs, licenses, payments } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { api, callerFor, seedBrokerage, seedUser, tokenFor, type TestEnv, trpcStatus, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
/** A second brokerage with its own Broker and Agent: outside the first Broker's scope. */
let other: { brokerageId: number; broker: { user_id: number; token: string }; agent: { user_id: number; token: string } };
const ROLES: RoleName[] = ['Admin', 'Broker', 'Agent', 'School'];
const who = (r: RoleName) => roles[r.toLowerCase() as 'admin' | 'broker' | 'agent' | 'school'];
const TODAY = today();

beforeAll(async () => {
  ({ env, roles } = t);
  const brokerageId = await seedBrokerage(env, 'Other Realty');
  const broker = await seedUser(env, 'Broker', { brokerage_id: brokerageId, first_name: 'Otto', last_name: 'Otherbroker' });
  const agent = await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'Olga', last_name: 'Otheragent' });
  other = {
    brokerageId,
    broker: { user_id: broker.user_id, token: await tokenFor(env, broker.user_id) },
    agent: { user_id: agent.user_id, token: await tokenFor(env, agent.user_id) },
  };
});

let n = 0;
function body(userId: number, extra: Record<string, unknown> = {}) {
  n++;
  return {
    user_id: userId,
    license_number: `LIC-${n}-${Date.now()}`,
    state: 'CA',
    issue_date: '2025-01-15',
    expiration_date: addDays(TODAY, 200),
    ...extra,
  };
}

/** A license created by the Admin through the tRPC path. */
function seedLicense(userId: number, extra: Record<string, unknown> = {}) {
  return callerFor(env, roles.admin.user_id).licenses.create(body(userId, extra));
}

describe('OpenAPI', () => {
  it('publishes the license paths', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/licenses'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/licenses/page'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/licenses/holders'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/licenses/{id}'] ?? {})).toEqual(expect.arrayContaining(['put', 'delete']));
    expect(Object.keys(paths['/licenses/{id}/renew'] ?? {})).toEqual(['post']);
  });
});

describe('REST rules (acceptance 1)', () => {
  it('creates with the defaults Sales, Active, CE hours 0 and lists rows with the holder names', async () => {
    const t = roles.admin.token;
    const created = await api(env, 'POST', '/api/licenses', { token: t, body: body(roles.agent.user_id, { state: 'tx' }) });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      license_id: expect.any(Number),
      user_id: roles.agent.user_id,
      state: 'TX',
      license_type: 'Sales',
      status: 'Active',
      ce_hours_required: 0,
      ce_hours_completed: 0,
      renewed_at: null,
    });
    const list = await api(env, 'GET', '/api/licenses', { token: t });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    const row = list.body.find((l: { license_id: number }) => l.license_id === created.body.license_id);
    expect(row).toMatchObject({ first_name: 'Agent', last_name: expect.stringMatching(/^User/) });
  });

  it('answers 400 for a School or Admin holder, and 404 for an unknown holder', async () => {
    for (const holder of [roles.school.user_id, roles.admin.user_id]) {
      const res = await api(env, 'POST', '/api/licenses', { token: roles.admin.token, body: body(holder) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'License holder must be an Agent or Broker', code: 'BAD_REQUEST' });
    }
    const unknown = await api(env, 'POST', '/api/licenses', { token: roles.admin.token, body: body(999_999) });
    expect(unknown.status).toBe(404);
  });

  it('answers 400 with each of the five required-field messages', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ user_id: undefined }, 'User is required', 'user_id'],
      [{ license_number: '  ' }, 'License number is required', 'license_number'],
      [{ license_number: undefined }, 'License number is required', 'license_number'],
      [{ state: '' }, 'State is required', 'state'],
      [{ issue_date: '' }, 'Issue date is required', 'issue_date'],
      [{ expiration_date: undefined }, 'Expiration date is required', 'expiration_date'],
    ];
    for (const [extra, message, path] of cases) {
      const res = await api(env, 'POST', '/api/licenses', { token: roles.admin.token, body: body(roles.agent.user_id, extra) });
      expect(res.status, message).toBe(400);
      expect(res.body.error).toBe(message);
      expect(res.body.issues).toContainEqual({ path, message });
    }
  });

  it('answers 400 for an issue date after the expiration date, bad dates, bad state, negative CE hours', async () => {
    const t = roles.admin.token;
    const order = await api(env, 'POST', '/api/licenses', {
      token: t,
      body: body(roles.agent.user_id, { issue_date: '2027-01-02', expiration_date: '2027-01-01' }),
    });
    expect(order.status).toBe(400);
    expect(order.body.error).toBe('Issue date cannot be after the expiration date');
    for (const extra of [{ issue_date: '2027-02-30' }, { expiration_date: '01/02/2027' }, { state: 'CAL' }, { ce_hours_required: -1 }]) {
      const res = await api(env, 'POST', '/api/licenses', { token: t, body: body(roles.agent.user_id, extra) });
      expect(res.status, JSON.stringify(extra)).toBe(400);
    }
    // Same-day issue and expiration is allowed.
    const same = await api(env, 'POST', '/api/licenses', {
      token: t,
      body: body(roles.agent.user_id, { issue_date: '2027-01-01', expiration_date: '2027-01-01' }),
    });
    expect(same.status).toBe(200);
  });

  it('answers 409 for a duplicate number in the same state, whatever the case; another state is fine', async () => {
    const t = roles.admin.token;
    const number = `DUP-${Date.now()}-abc`;
    expect(
      (await api(env, 'POST', '/api/licenses', { token: t, body: body(roles.agent.user_id, { license_number: number }) })).status,
    ).toBe(200);
    const dup = await api(env, 'POST', '/api/licenses', {
      token: t,
      body: body(roles.broker.user_id, { license_number: number.toUpperCase(), state: 'ca' }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('already exists in CA') });
    const otherState = await api(env, 'POST', '/api/licenses', {
      token: t,
      body: body(roles.agent.user_id, { license_number: number, state: 'NY' }),
    });
    expect(otherState.status).toBe(200);
    // Editing another license into the same number and state is refused too.
    const moved = await api(env, 'PUT', `/api/licenses/${otherState.body.license_id}`, { token: t, body: { state: 'CA' } });
    expect(moved.status).toBe(409);
    // Saving a license with its own number is not a clash.
    const self = await api(env, 'PUT', `/api/licenses/${otherState.body.license_id}`, { token: t, body: { license_number: number } });
    expect(self.status).toBe(200);
  });

  it('renews with no body: expiration two years after the current one, status Active', async () => {
    const lic = await seedLicense(roles.agent.user_id, { expiration_date: '2026-03-31', status: 'Expired' });
    const res = await env.app.inject({
      method: 'POST',
      url: `/api/licenses/${lic.license_id}/renew`,
      headers: { authorization: `Bearer ${roles.broker.token}` },
    });
    expect(res.statusCode).toBe(200);
    const renewed = JSON.parse(res.body);
    expect(renewed).toMatchObject({ license_id: lic.license_id, expiration_date: '2028-03-31', status: 'Active', first_name: 'Agent' });
    expect(renewed.renewed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('renews with the body {expiration_date, status} the screen sends, and refuses a date before the issue date', async () => {
    const lic = await seedLicense(roles.agent.user_id, { expiration_date: '2026-06-30', status: 'Suspended' });
    const next = addYears('2026-06-30', 2);
    const res = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, {
      token: roles.admin.token,
      body: { expiration_date: next, status: 'Active' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ expiration_date: '2028-06-30', status: 'Active' });
    const stored = (await env.db.select().from(licenses).where(eq(licenses.license_id, lic.license_id)))[0]!;
    expect(stored.expiration_date).toBe('2028-06-30');
    const bad = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, {
      token: roles.admin.token,
      body: { expiration_date: '2000-01-01' },
    });
    expect(bad.status).toBe(400);
  });

  it('updates a subset of fields and keeps the rest; delete answers {success: true} and unlinks payments', async () => {
    const t = roles.admin.token;
    const lic = await seedLicense(roles.agent.user_id, { license_type: 'Broker', ce_hours_required: 12 });
    const upd = await api(env, 'PUT', `/api/licenses/${lic.license_id}`, {
      token: t,
      body: { status: 'Suspended', ce_hours_completed: 4.5 },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      license_id: lic.license_id,
      status: 'Suspended',
      ce_hours_completed: 4.5,
      license_type: 'Broker',
      ce_hours_required: 12,
    });
    const pay = await callerFor(env, roles.admin.user_id).payments.create({
      user_id: roles.agent.user_id,
      amount: 50,
      license_id: lic.license_id,
    });
    const del = await api(env, 'DELETE', `/api/licenses/${lic.license_id}`, { token: t });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await api(env, 'DELETE', `/api/licenses/${lic.license_id}`, { token: t })).status).toBe(404);
    const kept = (await env.db.select().from(payments).where(eq(payments.payment_id, pay.payment_id)))[0]!;
    expect(kept.license_id).toBeNull();
  });

  it('each edit sets exactly its columns and its own updated_at, whichever columns it sets and in whichever order', async () => {
    // The UPDATE is prepared once per set of columns: a second edit of the same set, another set, the same set
    // named in another order, and a set with a duplicate number (409, nothing changed) each answer their own row.
    const caller = callerFor(env, roles.admin.user_id).licenses;
    const lic = await caller.create(body(roles.agent.user_id));
    const taken = await caller.create(body(roles.agent.user_id));
    const storedRow = async () => (await env.db.select().from(licenses).where(eq(licenses.license_id, lic.license_id)))[0]!;
    const edits: Array<Record<string, unknown>> = [
      { status: 'Inactive' },
      { status: 'Active' },
      { license_type: 'Broker', ce_hours_required: 9 },
      { ce_hours_required: 11, license_type: 'Sales' },
      { expiration_date: addDays(TODAY, 400), status: 'Pending Renewal' },
    ];
    let before = await storedRow();
    for (const edit of edits) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      const answer = await caller.update({ id: lic.license_id, ...edit });
      const after = await storedRow();
      expect(after).toMatchObject(edit);
      expect(answer).toMatchObject(edit);
      // Only the edit's columns (and the time) moved.
      for (const key of Object.keys(before) as Array<keyof typeof before>) {
        if (key in edit || key === 'updated_at') continue;
        expect(after[key], key).toEqual(before[key]);
      }
      expect(after.updated_at > before.updated_at).toBe(true);
      before = after;
    }
    await expect(caller.update({ id: lic.license_id, license_number: taken.license_number, status: 'Inactive' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await storedRow()).toEqual(before);
  });

  it('writes an audit row for create, update, renew and delete, in the same transaction', async () => {
    const caller = callerFor(env, roles.broker.user_id).licenses;
    const lic = await caller.create(body(roles.agent.user_id));
    await caller.update({ id: lic.license_id, status: 'Inactive' });
    await caller.renew({ id: lic.license_id });
    await caller.delete({ id: lic.license_id });
    const rows = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, lic.license_id)));
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'update', 'delete']);
    expect(rows.every((r) => r.user_id === roles.broker.user_id)).toBe(true);
    expect(JSON.parse(rows[2]!.new_values!)).toMatchObject({ reason: 'renew', status: 'Active' });
    expect(JSON.parse(rows[3]!.old_values!)).toMatchObject({ license_id: lic.license_id });
  });
});

describe('REST scopes (acceptance 2)', () => {
  it('an Agent sees only its own licenses; a Broker its brokerage and not another; School 403', async () => {
    const mine = await seedLicense(roles.agent.user_id);
    const brokers = await seedLicense(roles.broker.user_id, { license_type: 'Broker' });
    const foreign = await seedLicense(other.agent.user_id);
    const ids = (rows: Array<{ license_id: number; user_id: number }>) => rows.map((r) => r.license_id);

    const agentList = await api(env, 'GET', '/api/licenses', { token: roles.agent.token });
    expect(agentList.status).toBe(200);
    expect(agentList.body.every((r: { user_id: number }) => r.user_id === roles.agent.user_id)).toBe(true);
    expect(ids(agentList.body)).toContain(mine.license_id);

    const brokerList = await api(env, 'GET', '/api/licenses', { token: roles.broker.token });
    expect(ids(brokerList.body)).toEqual(expect.arrayContaining([mine.license_id, brokers.license_id]));
    expect(ids(brokerList.body)).not.toContain(foreign.license_id);

    const otherList = await api(env, 'GET', '/api/licenses', { token: other.broker.token });
    expect(ids(otherList.body)).toContain(foreign.license_id);
    expect(ids(otherList.body)).not.toContain(mine.license_id);

    const adminList = await api(env, 'GET', '/api/licenses', { token: roles.admin.token });
    expect(ids(adminList.body)).toEqual(expect.arrayContaining([mine.license_id, brokers.license_id, foreign.license_id]));

    const school = await api(env, 'GET', '/api/licenses', { token: roles.school.token });
    expect(school.status).toBe(403);
    expect(school.body.code).toBe('FORBIDDEN');
    expect((await api(env, 'GET', '/api/licenses')).status).toBe(401);
  });

  it("an Agent editing someone else's license gets 403; a Broker touching another brokerage's gets 404", async () => {
    const foreign = await seedLicense(other.agent.user_id);
    const mine = await seedLicense(roles.agent.user_id);
    for (const id of [foreign.license_id, mine.license_id]) {
      const res = await api(env, 'PUT', `/api/licenses/${id}`, { token: roles.agent.token, body: { status: 'Inactive' } });
      expect(res.status).toBe(403);
    }
    const t = roles.broker.token;
    expect((await api(env, 'PUT', `/api/licenses/${foreign.license_id}`, { token: t, body: { status: 'Inactive' } })).status).toBe(404);
    expect((await api(env, 'DELETE', `/api/licenses/${foreign.license_id}`, { token: t })).status).toBe(404);
    expect((await api(env, 'POST', `/api/licenses/${foreign.license_id}/renew`, { token: t })).status).toBe(404);
    // Nor may it create a license for, or move one to, someone outside its brokerage.
    expect((await api(env, 'POST', '/api/licenses', { token: t, body: body(other.agent.user_id) })).status).toBe(404);
    expect((await api(env, 'PUT', `/api/licenses/${mine.license_id}`, { token: t, body: { user_id: other.agent.user_id } })).status).toBe(
      404,
    );
    const untouched = (await env.db.select().from(licenses).where(eq(licenses.license_id, foreign.license_id)))[0]!;
    expect(untouched.status).toBe('Active');
  });
});

describe('tRPC scopes', () => {
  it('answers the same scopes as REST: own for an Agent, brokerage for a Broker, 404 outside it', async () => {
    const mine = await seedLicense(roles.agent.user_id);
    const foreign = await seedLicense(other.agent.user_id);
    const agentRows = await callerFor(env, roles.agent.user_id).licenses.list();
    expect(agentRows.every((r) => r.user_id === roles.agent.user_id)).toBe(true);
    expect(agentRows.map((r) => r.license_id)).toContain(mine.license_id);
    const broker = callerFor(env, roles.broker.user_id).licenses;
    const page = await broker.page({ limit: 100 });
    expect(page.licenses.map((r) => r.license_id)).not.toContain(foreign.license_id);
    expect(await trpcStatus(broker.update({ id: foreign.license_id, status: 'Inactive' }))).toBe(404);
    expect(await trpcStatus(broker.renew({ id: foreign.license_id }))).toBe(404);
    expect(await trpcStatus(broker.delete({ id: foreign.license_id }))).toBe(404);
    expect(await trpcStatus(broker.create(body(other.agent.user_id)))).toBe(404);
    expect(await trpcStatus(callerFor(env, null).licenses.list())).toBe(401);
  });
});

describe('role x action (both paths)', () => {
  type Action = 'list' | 'page' | 'holders' | 'create' | 'update' | 'renew' | 'delete';
  const ACTIONS: Action[] = ['list', 'page', 'holders', 'create', 'update', 'renew', 'delete'];
  /** Expected status per role on a license of the Broker's brokerage (in scope for Admin and Broker). */
  const EXPECTED: Record<RoleName, Record<Action, number>> = {
    Admin: { list: 200, page: 200, holders: 200, create: 200, update: 200, renew: 200, delete: 200 },
    Broker: { list: 200, page: 200, holders: 200, create: 200, update: 200, renew: 200, delete: 200 },
    Agent: { list: 200, page: 200, holders: 200, create: 403, update: 403, renew: 403, delete: 403 },
    School: { list: 403, page: 403, holders: 403, create: 403, update: 403, renew: 403, delete: 403 },
  };

  async function rest(role: RoleName, action: Action, id: number) {
    const token = who(role).token;
    switch (action) {
      case 'list':
        return api(env, 'GET', '/api/licenses?status=Active&state=CA', { token });
      case 'page':
        return api(env, 'GET', '/api/licenses/page?page=1&limit=5', { token });
      case 'holders':
        return api(env, 'GET', '/api/licenses/holders', { token });
      case 'create':
        return api(env, 'POST', '/api/licenses', { token, body: body(roles.agent.user_id) });
      case 'update':
        return api(env, 'PUT', `/api/licenses/${id}`, { token, body: { ce_hours_required: 10 } });
      case 'renew':
        return api(env, 'POST', `/api/licenses/${id}/renew`, { token, body: {} });
      case 'delete':
        return api(env, 'DELETE', `/api/licenses/${id}`, { token });
    }
  }

  function trpc(role: RoleName, action: Action, id: number) {
    const c = callerFor(env, who(role).user_id).licenses;
    switch (action) {
      case 'list':
        return c.list({ status: 'Active' });
      case 'page':
        return c.page({ page: 1, limit: 5 });
      case 'holders':
        return c.holders();
      case 'create':
        return c.create(body(roles.agent.user_id));
      case 'update':
        return c.update({ id, ce_hours_required: 10 });
      case 'renew':
        return c.renew({ id });
      case 'delete':
        return c.delete({ id });
    }
  }

  for (const role of ROLES) {
    for (const action of ACTIONS) {
      it(`${role} ${action}: REST ${EXPECTED[role][action]}, tRPC the same`, async () => {
        const a = await seedLicense(roles.agent.user_id);
        const res = await rest(role, action, a.license_id);
        expect(res.status, JSON.stringify(res.body)).toBe(EXPECTED[role][action]);
        const b = await seedLicense(roles.agent.user_id);
        expect(await trpcStatus(trpc(role, action, b.license_id))).toBe(EXPECTED[role][action]);
        if (EXPECTED[role][action] !== 200 && action !== 'list' && action !== 'page' && action !== 'holders') {
          // A refused mutation changes nothing.
          const still = (await env.db.select().from(licenses).where(eq(licenses.license_id, a.license_id)))[0];
          expect(still).toMatchObject({ ce_hours_required: 0, expiration_date: a.expiration_date });
        }
      });
    }
  }
});

describe('filters, sorting and pages', () => {
  let holder: { user_id: number };
  beforeAll(async () => {
    holder = await seedUser(env, 'Agent', { brokerage_id: other.brokerageId, first_name: 'Zelda', last_name: 'Quixote' });
    const make = (extra: Record<string, unknown>) => seedLicense(holder.user_id, extra);
    await make({ license_number: 'Q-EXPIRED', state: 'FL', expiration_date: addDays(TODAY, -5), status: 'Expired' });
    await make({ license_number: 'Q-SOON', state: 'FL', expiration_date: addDays(TODAY, 10) });
    await make({ license_number: 'Q-MID', state: 'NY', expiration_date: addDays(TODAY, 60), license_type: 'Associate Broker' });
    await make({ license_number: 'Q-LATE', state: 'NY', expiration_date: addDays(TODAY, 400), status: 'Suspended' });
  });
  const numbers = (rows: Array<{ license_number: string }>) => rows.map((r) => r.license_number);
  const q = (query: string) => api(env, 'GET', `/api/licenses?user_id=${holder.user_id}&${query}`, { token: roles.admin.token });

  it('filters by status, state, type and expiring within N days', async () => {
    expect(numbers((await q('status=Suspended')).body)).toEqual(['Q-LATE']);
    expect(numbers((await q('state=fl')).body)).toEqual(['Q-EXPIRED', 'Q-SOON']);
    expect(numbers((await q('license_type=Associate%20Broker')).body)).toEqual(['Q-MID']);
    expect(numbers((await q('expiring_within=30')).body)).toEqual(['Q-SOON']);
    expect(numbers((await q('expiring_within=90')).body)).toEqual(['Q-SOON', 'Q-MID']);
    expect((await q('status=Nonsense')).status).toBe(400);
  });

  it('searches holder names and license numbers, case-insensitively, with % taken literally', async () => {
    const s = (text: string) => api(env, 'GET', `/api/licenses?search=${encodeURIComponent(text)}`, { token: roles.admin.token });
    expect(numbers((await s('quixote')).body)).toHaveLength(4);
    expect(numbers((await s('zelda qui')).body)).toHaveLength(4);
    expect(numbers((await s('q-mid')).body)).toEqual(['Q-MID']);
    expect((await s('%')).body).toEqual([]);
  });

  it('sorts and pages; /licenses/page carries the total', async () => {
    expect(numbers((await q('sort=license_number&order=asc')).body)).toEqual(['Q-EXPIRED', 'Q-LATE', 'Q-MID', 'Q-SOON']);
    expect(numbers((await q('sort=expiration_date&order=desc&limit=2&page=2')).body)).toEqual(['Q-SOON', 'Q-EXPIRED']);
    const page = await api(env, 'GET', `/api/licenses/page?user_id=${holder.user_id}&limit=3&page=2`, { token: roles.admin.token });
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 2, limit: 3, total: 4, pages: 2, next_cursor: null, total_capped: false });
    expect(numbers(page.body.licenses)).toEqual(['Q-LATE']);
    // Out-of-scope rows are not counted: the first Broker sees none of them.
    const broker = await api(env, 'GET', `/api/licenses/page?user_id=${holder.user_id}`, { token: roles.broker.token });
    expect(broker.body.pagination.total).toBe(0);
  });

  it('lists holders: Agents and Brokers in scope only, never Admins, Schools or deleted users', async () => {
    const admin = await callerFor(env, roles.admin.user_id).licenses.holders();
    const roleNames = new Set(admin.map((h) => h.role_name));
    expect([...roleNames].sort()).toEqual(['Agent', 'Broker']);
    expect(admin.map((h) => h.user_id)).toEqual(expect.arrayContaining([roles.agent.user_id, roles.broker.user_id, other.agent.user_id]));
    const broker = await callerFor(env, roles.broker.user_id).licenses.holders();
    expect(broker.map((h) => h.user_id).sort()).toEqual([roles.broker.user_id, roles.agent.user_id].sort());
    const agent = await callerFor(env, roles.agent.user_id).licenses.holders();
    expect(agent.map((h) => h.user_id)).toEqual([roles.agent.user_id]);
  });
});
