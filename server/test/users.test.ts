import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, licenses, sessions, users } from '../src/db/schema/index.ts';
import { writeSettings } from '../src/core/settings.ts';
import {
  api,
  callerFor,
  login,
  seedBrokerage,
  seedUser,
  TEST_PASSWORD,
  tokenFor,
  type TestEnv,
  trpcStatus,
  type Roles,
  roleMatrix,
  useTestEnv,
} from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

function expectNoSecrets(value: unknown) {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(/"[a-z_]*(password|hash)[a-z_]*"\s*:/i);
  expect(text).not.toMatch(/\$argon2/);
}

function newUserBody(fields: Record<string, unknown> = {}) {
  return {
    email: `new.${unique()}@test.example`,
    password: 'Str0ngPassword',
    first_name: 'Nina',
    last_name: 'Newton',
    role_id: 3,
    ...fields,
  };
}

describe('role x action table', () => {
  // Each role acts on a fresh Agent of the Broker's brokerage (in scope for Admin and Broker).
  roleMatrix(
    t,
    'list, get, create, update, bulk, delete',
    { admin: 200, broker: 200, agent: 403, school: 403 },
    {
      rest: async (token) => {
        const target = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
        return [
          (await api(env, 'GET', '/api/users', { token })).status,
          (await api(env, 'GET', `/api/users/${target.user_id}`, { token })).status,
          (await api(env, 'POST', '/api/users', { token, body: newUserBody({ brokerage_id: roles.brokerageId }) })).status,
          (await api(env, 'PUT', `/api/users/${target.user_id}`, { token, body: { first_name: 'Renamed' } })).status,
          (await api(env, 'POST', '/api/users/bulk', { token, body: { action: 'activate', user_ids: [target.user_id] } })).status,
          (await api(env, 'DELETE', `/api/users/${target.user_id}`, { token })).status,
        ];
      },
      trpc: async (caller) => {
        const target = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
        return [
          await trpcStatus(caller.users.list({})),
          await trpcStatus(caller.users.get({ id: target.user_id })),
          await trpcStatus(caller.users.create(newUserBody({ brokerage_id: roles.brokerageId }))),
          await trpcStatus(caller.users.update({ id: target.user_id, first_name: 'Renamed' })),
          await trpcStatus(caller.users.bulk({ action: 'activate', user_ids: [target.user_id] })),
          await trpcStatus(caller.users.delete({ id: target.user_id })),
        ];
      },
    },
  );

  it('answers 401 to a signed-out caller on every users path', async () => {
    const statuses = [
      (await api(env, 'GET', '/api/users')).status,
      (await api(env, 'POST', '/api/users', { body: newUserBody() })).status,
      (await api(env, 'PUT', `/api/users/${roles.agent.user_id}`, { body: {} })).status,
      (await api(env, 'DELETE', `/api/users/${roles.agent.user_id}`)).status,
      (await api(env, 'POST', '/api/users/bulk', { body: { action: 'activate', user_ids: [1] } })).status,
      (await api(env, 'PUT', '/api/users/me/profile', { body: {} })).status,
    ];
    expect(statuses).toEqual(Array(6).fill(401));
    await expect(callerFor(env, null).users.list({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('create', () => {
  it('refuses missing fields with the docs/product.md messages', async () => {
    const token = roles.admin.token;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ first_name: undefined }, 'First name is required'],
      [{ first_name: '   ' }, 'First name is required'],
      [{ last_name: '' }, 'Last name is required'],
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Invalid email address'],
      [{ password: '' }, 'Password is required'],
      [{ password: undefined }, 'Password is required'],
    ];
    for (const [fields, message] of cases) {
      const res = await api(env, 'POST', '/api/users', { token, body: newUserBody(fields) });
      expect(res.status, message).toBe(400);
      expect(res.body.error).toBe(message);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    // The tRPC path carries the zod issues; the HTTP layers turn them into the same error text.
    await expect(callerFor(env, roles.admin.user_id).users.create(newUserBody({ first_name: '' }))).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('First name is required'),
    });
  });

  it('creates a user with default role 2, never returns a password or hash, and audits it without secrets', async () => {
    const body = newUserBody({ role_id: undefined, phone_number: '555-0100', city: 'Austin' });
    const res = await api(env, 'POST', '/api/users', { token: roles.admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: body.email,
      first_name: 'Nina',
      role_id: 2,
      role_name: 'Broker',
      is_active: true,
      phone_number: '555-0100',
      city: 'Austin',
      brokerage_id: null,
    });
    expect(res.body.user_id).toEqual(expect.any(Number));
    expectNoSecrets(res.body);
    await login(env, body.email as string, 'Str0ngPassword');
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'create'), eq(auditLogs.target_table, 'users'), eq(auditLogs.target_id, res.body.user_id)))
    )[0];
    expect(entry?.user_id).toBe(roles.admin.user_id);
    expectNoSecrets([entry?.new_values]);
    const list = await api(env, 'GET', `/api/users?search=${encodeURIComponent(body.email as string)}`, { token: roles.admin.token });
    expectNoSecrets(list.body);
  });

  it('answers 409 for an email already taken, whatever its case', async () => {
    const existing = await seedUser(env, 'Agent');
    const res = await api(env, 'POST', '/api/users', {
      token: roles.admin.token,
      body: newUserBody({ email: existing.email.toUpperCase() }),
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'A user with this email already exists', code: 'CONFLICT' });
    const count = (await env.db.select().from(users)).filter((u) => u.email.toLowerCase() === existing.email.toLowerCase()).length;
    expect(count).toBe(1);
  });

  it('checks the password against settings.password_min_length and the strength rule', async () => {
    const token = roles.admin.token;
    const weak = await api(env, 'POST', '/api/users', { token, body: newUserBody({ password: 'alllowercase1' }) });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('Password must contain uppercase, lowercase and numbers');
    const short = await api(env, 'POST', '/api/users', { token, body: newUserBody({ password: 'Sh0rt' }) });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Password must be at least 8 characters');
    await env.db.transaction((tx) => writeSettings(tx, { password_min_length: 14 }, null));
    try {
      const res = await api(env, 'POST', '/api/users', { token, body: newUserBody({ password: 'Str0ngPassword'.slice(0, 13) }) });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Password must be at least 14 characters');
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { password_min_length: 8 }, null));
    }
  });

  it('answers 400 for an unknown role id and 404 for a missing brokerage', async () => {
    const token = roles.admin.token;
    expect((await api(env, 'POST', '/api/users', { token, body: newUserBody({ role_id: 7 }) })).status).toBe(400);
    const res = await api(env, 'POST', '/api/users', { token, body: newUserBody({ brokerage_id: 999_999 }) });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Brokerage not found');
  });
});

describe('list', () => {
  it('filters ?role=Broker (name or id) to Brokers only, and refuses an unknown role', async () => {
    await seedUser(env, 'Broker');
    for (const role of ['Broker', 'broker', '2']) {
      const res = await api(env, 'GET', `/api/users?role=${role}&limit=100`, { token: roles.admin.token });
      expect(res.status).toBe(200);
      expect(res.body.users.length).toBeGreaterThan(0);
      expect(res.body.users.every((u: { role_name: string; role_id: number }) => u.role_name === 'Broker' && u.role_id === 2)).toBe(true);
    }
    const bad = await api(env, 'GET', '/api/users?role=Wizard', { token: roles.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Unknown role/);
  });

  it('paginates exactly and searches by name, email and full name', async () => {
    const tag = `Pagetest${unique()}`;
    for (let i = 0; i < 7; i++) await seedUser(env, 'Agent', { last_name: `${tag}${i}`, first_name: 'Paula' });
    const token = roles.admin.token;
    const first = await api(env, 'GET', `/api/users?search=${tag}&limit=3&page=1`, { token });
    expect(first.body.pagination).toEqual({ page: 1, limit: 3, total: 7, pages: 3, next_cursor: expect.any(String), total_capped: false });
    expect(first.body.users.map((u: { last_name: string }) => u.last_name)).toEqual([`${tag}0`, `${tag}1`, `${tag}2`]);
    const last = await api(env, 'GET', `/api/users?search=${tag}&limit=3&page=3`, { token });
    expect(last.body.users.map((u: { last_name: string }) => u.last_name)).toEqual([`${tag}6`]);
    const desc = await api(env, 'GET', `/api/users?search=${tag}&limit=2&sort=name&order=desc`, { token });
    expect(desc.body.users.map((u: { last_name: string }) => u.last_name)).toEqual([`${tag}6`, `${tag}5`]);
    const full = await api(env, 'GET', `/api/users?search=${encodeURIComponent(`Paula ${tag}3`)}`, { token });
    expect(full.body.pagination.total).toBe(1);
  });

  it('treats a search shaped like SQL injection, or wildcards, as plain text', async () => {
    const token = roles.admin.token;
    for (const search of ["' OR '1'='1", "x'); DROP TABLE users; --", '%', '_', '\\']) {
      const res = await api(env, 'GET', `/api/users?search=${encodeURIComponent(search)}`, { token });
      expect(res.status, search).toBe(200);
      expect(res.body.users, search).toEqual([]);
      expect(res.body.pagination.total).toBe(0);
    }
    expect((await api(env, 'GET', '/api/users?limit=1', { token })).body.pagination.total).toBeGreaterThan(3);
  });

  it('filters by brokerage_id and is_active', async () => {
    const b = await seedBrokerage(env, `Filter Realty ${unique()}`);
    await seedUser(env, 'Agent', { brokerage_id: b });
    await seedUser(env, 'Agent', { brokerage_id: b, is_active: false });
    const token = roles.admin.token;
    const all = await api(env, 'GET', `/api/users?brokerage_id=${b}`, { token });
    expect(all.body.pagination.total).toBe(2);
    const inactive = await api(env, 'GET', `/api/users?brokerage_id=${b}&is_active=false`, { token });
    expect(inactive.body.users).toHaveLength(1);
    expect(inactive.body.users[0].is_active).toBe(false);
    const active = await api(env, 'GET', `/api/users?brokerage_id=${b}&is_active=true`, { token });
    expect(active.body.users).toHaveLength(1);
    expect(active.body.users[0].is_active).toBe(true);
  });
});

describe('edit', () => {
  it('keeps the current password when the password is blank, and changes it when given', async () => {
    const u = await seedUser(env, 'Agent');
    const token = roles.admin.token;
    for (const password of ['', null, undefined]) {
      const res = await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { first_name: 'Kept', password } });
      expect(res.status).toBe(200);
      expect(res.body.first_name).toBe('Kept');
      expectNoSecrets(res.body);
    }
    await login(env, u.email, TEST_PASSWORD);
    const before = await login(env, u.email, TEST_PASSWORD);
    const changed = await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { password: 'Brand-New-Passw0rd' } });
    expect(changed.status).toBe(200);
    await login(env, u.email, 'Brand-New-Passw0rd');
    expect((await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: TEST_PASSWORD }, ip: '10.1.1.1' })).status).toBe(
      401,
    );
    // A reset password signs the user out of the sessions it had.
    expect((await api(env, 'GET', '/api/auth/me', { token: before })).status).toBe(401);
    const weak = await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { password: 'weakpassword' } });
    expect(weak.status).toBe(400);
  });

  it('updates the fields given, leaves the others, and answers 409 for a taken email', async () => {
    const u = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const other = await seedUser(env, 'Agent');
    const token = roles.admin.token;
    await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { city: 'Dallas', state: 'TX' } });
    const res = await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { role_id: 2, brokerage_id: null } });
    expect(res.body).toMatchObject({ role_id: 2, role_name: 'Broker', brokerage_id: null, city: 'Dallas', state: 'TX' });
    const dup = await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { email: other.email.toUpperCase() } });
    expect(dup.status).toBe(409);
    const same = await api(env, 'PUT', `/api/users/${u.user_id}`, { token, body: { email: u.email.toUpperCase() } });
    expect(same.status).toBe(200);
    const audit = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'update'), eq(auditLogs.target_id, u.user_id)));
    expect(audit.length).toBe(3);
    expect(JSON.parse(audit[1]!.new_values!)).toEqual({ role_id: 2, brokerage_id: null });
  });

  it('deactivation through edit signs the user out and stops sign-in; reactivation restores it', async () => {
    const u = await seedUser(env, 'Agent');
    const session = await login(env, u.email);
    const res = await api(env, 'PUT', `/api/users/${u.user_id}`, { token: roles.admin.token, body: { is_active: false } });
    expect(res.body.is_active).toBe(false);
    expect((await api(env, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    const live = (await env.db.select().from(sessions).where(eq(sessions.user_id, u.user_id))).filter((s) => !s.revoked_at);
    expect(live).toEqual([]);
    await api(env, 'PUT', `/api/users/${u.user_id}`, { token: roles.admin.token, body: { is_active: true } });
    await login(env, u.email);
  });

  it('an Admin cannot deactivate, delete or demote itself', async () => {
    const admin = await seedUser(env, 'Admin');
    const token = await tokenFor(env, admin.user_id);
    const self = `/api/users/${admin.user_id}`;
    expect((await api(env, 'PUT', self, { token, body: { is_active: false } })).body.error).toBe('You cannot deactivate your own account');
    expect((await api(env, 'PUT', self, { token, body: { role_id: 3 } })).body.error).toBe('You cannot change your own role');
    expect((await api(env, 'DELETE', self, { token })).status).toBe(400);
    const bulk = await api(env, 'POST', '/api/users/bulk', { token, body: { action: 'deactivate', user_ids: [admin.user_id] } });
    expect(bulk.status).toBe(400);
    expect((await api(env, 'PUT', self, { token, body: { first_name: 'Still' } })).status).toBe(200);
  });
});

describe('delete', () => {
  it('deactivates, hides from lists, signs out and keeps licenses and audit history', async () => {
    const u = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId, last_name: `Gone${unique()}` });
    const session = await login(env, u.email);
    await env.db.transaction((tx) =>
      tx.insert(licenses).values({
        user_id: u.user_id,
        license_number: `DEL-${unique()}`,
        state: 'TX',
        issue_date: '2024-01-01',
        expiration_date: '2026-01-01',
      }),
    );
    const res = await api(env, 'DELETE', `/api/users/${u.user_id}`, { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const row = (await env.db.select().from(users).where(eq(users.user_id, u.user_id)))[0];
    expect(row?.is_active).toBe(false);
    expect(row?.deleted_at).toBeTruthy();
    expect(await env.db.select().from(licenses).where(eq(licenses.user_id, u.user_id))).toHaveLength(1);
    expect((await api(env, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    expect((await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: TEST_PASSWORD } })).status).toBe(401);
    const list = await api(env, 'GET', `/api/users?search=${u.email}`, { token: roles.admin.token });
    expect(list.body.users).toEqual([]);
    expect((await api(env, 'GET', `/api/users/${u.user_id}`, { token: roles.admin.token })).status).toBe(404);
    expect((await api(env, 'DELETE', `/api/users/${u.user_id}`, { token: roles.admin.token })).status).toBe(404);
    const again = await api(env, 'POST', '/api/users', { token: roles.admin.token, body: newUserBody({ email: u.email }) });
    expect(again.status).toBe(409);
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'delete'), eq(auditLogs.target_id, u.user_id)))
    )[0];
    expect(entry).toBeTruthy();
    expectNoSecrets([entry?.old_values]);
  });

  it('answers 404 for a user that does not exist', async () => {
    expect((await api(env, 'DELETE', '/api/users/987654', { token: roles.admin.token })).status).toBe(404);
    expect((await api(env, 'PUT', '/api/users/987654', { token: roles.admin.token, body: {} })).status).toBe(404);
  });
});

describe('Broker scope', () => {
  it('lists only its own brokerage users', async () => {
    const otherBrokerage = await seedBrokerage(env, `Other Realty ${unique()}`);
    const outsider = await seedUser(env, 'Agent', { brokerage_id: otherBrokerage });
    const res = await api(env, 'GET', '/api/users?limit=100', { token: roles.broker.token });
    expect(res.status).toBe(200);
    expect(res.body.users.length).toBeGreaterThan(0);
    expect(res.body.users.every((u: { brokerage_id: number }) => u.brokerage_id === roles.brokerageId)).toBe(true);
    expect(res.body.users.some((u: { user_id: number }) => u.user_id === outsider.user_id)).toBe(false);
    const asked = await api(env, 'GET', `/api/users?brokerage_id=${otherBrokerage}`, { token: roles.broker.token });
    expect(asked.body.users).toEqual([]);
    const trpc = await callerFor(env, roles.broker.user_id).users.list({ limit: 100 });
    expect(trpc.users.every((u) => u.brokerage_id === roles.brokerageId)).toBe(true);
  });

  it('answers 404 for users of another brokerage and for non-Agents of its own', async () => {
    const otherBrokerage = await seedBrokerage(env, `Far Realty ${unique()}`);
    const outsider = await seedUser(env, 'Agent', { brokerage_id: otherBrokerage });
    const colleague = await seedUser(env, 'Broker', { brokerage_id: roles.brokerageId });
    const token = roles.broker.token;
    for (const id of [outsider.user_id, colleague.user_id, roles.admin.user_id]) {
      expect((await api(env, 'PUT', `/api/users/${id}`, { token, body: { first_name: 'X' } })).status).toBe(404);
      expect((await api(env, 'DELETE', `/api/users/${id}`, { token })).status).toBe(404);
    }
    expect((await api(env, 'GET', `/api/users/${outsider.user_id}`, { token })).status).toBe(404);
    await expect(callerFor(env, roles.broker.user_id).users.update({ id: outsider.user_id, first_name: 'X' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await env.db.select().from(users).where(eq(users.user_id, outsider.user_id)))[0]?.first_name).toBe('Agent');
  });

  it('answers 403 creating an Admin, Broker or School, and creates Agents in its own brokerage', async () => {
    const token = roles.broker.token;
    for (const role_id of [1, 2, 4]) {
      const res = await api(env, 'POST', '/api/users', { token, body: newUserBody({ role_id }) });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    const other = await seedBrokerage(env, `Elsewhere ${unique()}`);
    expect((await api(env, 'POST', '/api/users', { token, body: newUserBody({ brokerage_id: other }) })).status).toBe(403);
    const ok = await api(env, 'POST', '/api/users', { token, body: newUserBody() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ role_id: 3, brokerage_id: roles.brokerageId });
  });

  it('cannot promote its Agents or move them out of its brokerage (403)', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const token = roles.broker.token;
    expect((await api(env, 'PUT', `/api/users/${agent.user_id}`, { token, body: { role_id: 1 } })).status).toBe(403);
    expect((await api(env, 'PUT', `/api/users/${agent.user_id}`, { token, body: { brokerage_id: null } })).status).toBe(403);
    const other = await seedBrokerage(env, `Away ${unique()}`);
    expect((await api(env, 'PUT', `/api/users/${agent.user_id}`, { token, body: { brokerage_id: other } })).status).toBe(403);
    const bulkRole = await api(env, 'POST', '/api/users/bulk', {
      token,
      body: { action: 'change_role', user_ids: [agent.user_id], data: { role_id: 2 } },
    });
    expect(bulkRole.status).toBe(403);
    const bulkMove = await api(env, 'POST', '/api/users/bulk', {
      token,
      body: { action: 'change_brokerage', user_ids: [agent.user_id], data: { brokerage_id: null } },
    });
    expect(bulkMove.status).toBe(403);
    const row = (await env.db.select().from(users).where(eq(users.user_id, agent.user_id)))[0];
    expect(row).toMatchObject({ role_id: 3, brokerage_id: roles.brokerageId });
    const edit = await api(env, 'PUT', `/api/users/${agent.user_id}`, { token, body: { last_name: 'Edited', is_active: false } });
    expect(edit.status).toBe(200);
  });

  it('bulk covers only its own brokerage Agents; anything else answers 404 and changes nothing', async () => {
    const mine = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const outsider = await seedUser(env, 'Agent', { brokerage_id: await seedBrokerage(env, `Bulk Far ${unique()}`) });
    const token = roles.broker.token;
    const res = await api(env, 'POST', '/api/users/bulk', {
      token,
      body: { action: 'deactivate', user_ids: [mine.user_id, outsider.user_id] },
    });
    expect(res.status).toBe(404);
    expect((await env.db.select().from(users).where(eq(users.user_id, mine.user_id)))[0]?.is_active).toBe(true);
    const ok = await api(env, 'POST', '/api/users/bulk', { token, body: { action: 'deactivate', user_ids: [mine.user_id] } });
    expect(ok.body).toEqual({ success: true, affected: 1 });
  });

  it('gets 403 on /api/brokerages', async () => {
    expect((await api(env, 'GET', '/api/brokerages', { token: roles.broker.token })).status).toBe(403);
  });
});

describe('Agent and School', () => {
  it('cannot list or read other users (403) but read themselves through /auth/me', async () => {
    for (const who of ['agent', 'school'] as const) {
      const token = roles[who].token;
      expect((await api(env, 'GET', '/api/users', { token })).status).toBe(403);
      expect((await api(env, 'GET', `/api/users/${roles.admin.user_id}`, { token })).status).toBe(403);
      expect((await api(env, 'GET', '/api/auth/me', { token })).body.user_id).toBe(roles[who].user_id);
    }
  });
});

describe('bulk', () => {
  async function three(brokerageId: number | null = null) {
    const tag = `Bulk${unique()}`;
    const list = [];
    for (let i = 0; i < 3; i++) list.push(await seedUser(env, 'Agent', { last_name: `${tag}${i}`, brokerage_id: brokerageId }));
    return { tag, list, ids: list.map((u) => u.user_id) };
  }
  const bulk = (body: unknown, token = roles.admin.token) => api(env, 'POST', '/api/users/bulk', { token, body });

  it('deactivate stops sign-in and ends sessions; activate restores it', async () => {
    const { list, ids } = await three();
    const session = await login(env, list[0]!.email);
    const res = await bulk({ action: 'deactivate', user_ids: ids });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, affected: 3 });
    expect((await api(env, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    for (const u of list) {
      expect((await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: TEST_PASSWORD } })).status).toBe(401);
    }
    expect((await bulk({ action: 'activate', user_ids: ids })).body).toEqual({ success: true, affected: 3 });
    for (const u of list) await login(env, u.email);
  });

  it('change_role and change_brokerage apply to every selected user, with one audit entry per user', async () => {
    const { tag, ids } = await three();
    const auditBefore = (await env.db.select().from(auditLogs).orderBy(auditLogs.log_id)).length;
    expect((await bulk({ action: 'change_role', user_ids: ids, data: { role_id: 2 } })).body.affected).toBe(3);
    const b = await seedBrokerage(env, `Bulk Realty ${unique()}`);
    expect((await bulk({ action: 'change_brokerage', user_ids: ids, data: { brokerage_id: b } })).body.affected).toBe(3);
    let listed = (await api(env, 'GET', `/api/users?search=${tag}`, { token: roles.admin.token })).body.users;
    expect(listed.map((u: { role_id: number; brokerage_id: number }) => [u.role_id, u.brokerage_id])).toEqual([
      [2, b],
      [2, b],
      [2, b],
    ]);
    expect((await bulk({ action: 'change_brokerage', user_ids: ids, data: { brokerage_id: null } })).status).toBe(200);
    listed = (await api(env, 'GET', `/api/users?search=${tag}`, { token: roles.admin.token })).body.users;
    expect(listed.every((u: { brokerage_id: number | null }) => u.brokerage_id === null)).toBe(true);
    const entries = (await env.db.select().from(auditLogs).orderBy(auditLogs.log_id)).slice(auditBefore);
    expect(entries).toHaveLength(9);
    expect(entries.every((e) => e.action === 'bulk_update' && e.target_table === 'users')).toBe(true);
    expect(new Set(entries.map((e) => e.target_id))).toEqual(new Set(ids));
  });

  it('delete removes every selected user from the list and signs them out', async () => {
    const { tag, list, ids } = await three();
    const session = await login(env, list[1]!.email);
    const res = await callerFor(env, roles.admin.user_id).users.bulk({ action: 'delete', user_ids: ids });
    expect(res).toEqual({ success: true, affected: 3 });
    expect((await api(env, 'GET', `/api/users?search=${tag}`, { token: roles.admin.token })).body.users).toEqual([]);
    expect((await api(env, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    const entries = await env.db.select().from(auditLogs).where(eq(auditLogs.action, 'bulk_delete'));
    expect(entries.filter((e) => ids.includes(e.target_id!))).toHaveLength(3);
  });

  it('answers 400 for an unknown action, an empty or missing id list, or missing data', async () => {
    const { ids } = await three();
    const cases: Array<[unknown, RegExp]> = [
      [{ action: 'explode', user_ids: ids }, /Unknown bulk action/],
      [{ action: 'activate', user_ids: [] }, /Please select users first/],
      [{ action: 'activate' }, /Please select users first/],
      [{ action: 'change_role', user_ids: ids }, /role/],
      [{ action: 'change_role', user_ids: ids, data: { role_id: 9 } }, /Role must be/],
      [{ action: 'change_brokerage', user_ids: ids, data: {} }, /brokerage/],
    ];
    for (const [body, message] of cases) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    await expect(callerFor(env, roles.admin.user_id).users.bulk({ action: 'explode' as never, user_ids: ids })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('is one transaction: an unknown id answers 404 and changes nobody', async () => {
    const { ids } = await three();
    const res = await bulk({ action: 'deactivate', user_ids: [...ids, 999_999] });
    expect(res.status).toBe(404);
    const rows = (await env.db.select().from(users)).filter((u) => ids.includes(u.user_id));
    expect(rows.every((u) => u.is_active)).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('publishes the users paths', async () => {
    const doc = (await api(env, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const p of [
      'GET /users',
      'POST /users',
      'GET /users/{id}',
      'PUT /users/{id}',
      'DELETE /users/{id}',
      'POST /users/bulk',
      'PUT /users/me/profile',
    ]) {
      expect(listed).toContain(p);
    }
  });
});
