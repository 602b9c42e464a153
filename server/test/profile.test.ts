import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, users } from '../src/db/schema/index.ts';
import { writeSettings } from '../src/core/settings.ts';
import { PROFILE_STRINGS } from '@lm/shared';
import { backgroundSettled } from '../src/core/background.ts';
import { api, callerFor, createTestEnv, login, seedBrokerage, seedUser, TEST_PASSWORD, tokenFor, type TestEnv } from './helpers.ts';
import { outboxEmails } from './outbox.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const profile = (fields: Record<string, unknown> = {}) => ({
  first_name: 'Pat',
  last_name: 'Profile',
  email: `pat.${unique()}@test.example`,
  phone_number: '(555) 010-3000',
  address: '12 Elm St',
  city: 'Austin',
  state: 'TX',
  zip_code: '78701',
  ...fields,
});

describe('PUT /api/users/me/profile', () => {
  for (const role of ['Admin', 'Broker', 'Agent', 'School'] as const) {
    it(`lets a signed-in ${role} update its own details (REST and tRPC)`, async () => {
      const brokerageId = role === 'Broker' || role === 'Agent' ? await seedBrokerage(env, `Profile ${role} ${unique()}`) : null;
      const u = await seedUser(env, role, { brokerage_id: brokerageId });
      const token = await tokenFor(env, u.user_id);
      // The sign-in e-mail stays: changing it is re-authenticated and confirmed (reauth.test.ts).
      const body = profile({ email: u.email });
      const res = await api(env, 'PUT', '/api/users/me/profile', { token, body });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...body, user_id: u.user_id, role_name: role, brokerage_id: brokerageId });
      expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/);
      const me = await api(env, 'GET', '/api/auth/me', { token });
      expect(me.body).toMatchObject(body);
      const viaTrpc = await callerFor(env, u.user_id).users.updateProfile(profile({ first_name: 'Trpc', email: u.email }));
      expect(viaTrpc.first_name).toBe('Trpc');
    });
  }

  it('changes only the caller: a role, brokerage or id in the body is ignored', async () => {
    const u = await seedUser(env, 'Agent');
    const other = await seedUser(env, 'Agent');
    const token = await tokenFor(env, u.user_id);
    const res = await api(env, 'PUT', '/api/users/me/profile', {
      token,
      body: profile({ email: u.email, role_id: 1, brokerage_id: 1, is_active: false, user_id: other.user_id, id: other.user_id }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: u.user_id, role_id: 3, is_active: true, brokerage_id: null });
    expect((await env.db.select().from(users).where(eq(users.user_id, other.user_id)))[0]?.first_name).toBe('Agent');
  });

  it('validates with the docs/product.md messages; a new e-mail without the current password is 400 and changes nothing', async () => {
    const u = await seedUser(env, 'Broker');
    const other = await seedUser(env, 'Agent');
    const token = await tokenFor(env, u.user_id);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ first_name: '' }, 400, 'First name is required'],
      [{ last_name: ' ' }, 400, 'Last name is required'],
      [{ email: '' }, 400, 'Email is required'],
      [{ email: 'nope' }, 400, 'Invalid email address'],
      [{ email: other.email.toUpperCase() }, 400, PROFILE_STRINGS.emailNeedsPassword],
      [{ email: `free.${unique()}@test.example` }, 400, PROFILE_STRINGS.emailNeedsPassword],
    ];
    for (const [fields, status, message] of cases) {
      const res = await api(env, 'PUT', '/api/users/me/profile', { token, body: profile(fields) });
      expect(res.status, message).toBe(status);
      expect(res.body.error).toBe(message);
    }
    expect((await env.db.select().from(users).where(eq(users.user_id, u.user_id)))[0]?.first_name).toBe('Broker');
  });

  it('keeps optional fields that are not sent, clears those sent empty, and audits the change', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await tokenFor(env, u.user_id);
    const email = u.email;
    await api(env, 'PUT', '/api/users/me/profile', { token, body: profile({ email }) });
    const res = await api(env, 'PUT', '/api/users/me/profile', {
      token,
      body: { first_name: 'Pat', last_name: 'Profile', email, city: '', phone_number: undefined },
    });
    expect(res.body).toMatchObject({ city: null, phone_number: '(555) 010-3000', zip_code: '78701' });
    const entries = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'update_profile'), eq(auditLogs.target_id, u.user_id)));
    expect(entries).toHaveLength(2);
    expect(entries[1]!.user_id).toBe(u.user_id);
    expect(JSON.parse(entries[1]!.new_values!)).toEqual({ city: null });
  });

  it('lets the user sign in with the new email once it is confirmed from the new address', async () => {
    const u = await seedUser(env, 'School');
    const email = `moved.${unique()}@test.example`;
    const res = await api(env, 'PUT', '/api/users/me/profile', {
      token: await tokenFor(env, u.user_id),
      body: profile({ email, currentPassword: TEST_PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(u.email);
    await backgroundSettled();
    const link = /\/email-change\/confirm\?token=([A-Za-z0-9_%-]+)/.exec((await outboxEmails(env.dir, email)).at(-1)?.body ?? '');
    expect(link).not.toBeNull();
    expect((await api(env, 'POST', '/api/users/email-change/confirm', { body: { token: decodeURIComponent(link![1]!) } })).status).toBe(
      200,
    );
    await login(env, email, TEST_PASSWORD);
  });
});

describe('change password (POST /api/auth/change-password), as the Profile screen uses it', () => {
  it('enforces the minimum length and the uppercase/lowercase/number rule with the server text', async () => {
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    const cases: Array<[string, string]> = [
      ['Sh0rt', 'Password must be at least 8 characters'],
      ['alllowercase1', 'Password must contain uppercase, lowercase and numbers'],
      ['ALLUPPERCASE1', 'Password must contain uppercase, lowercase and numbers'],
      ['NoNumbersHere', 'Password must contain uppercase, lowercase and numbers'],
    ];
    for (const [newPassword, message] of cases) {
      const res = await api(env, 'POST', '/api/auth/change-password', { token, body: { currentPassword: TEST_PASSWORD, newPassword } });
      expect(res.status, newPassword).toBe(400);
      expect(res.body.error).toBe(message);
    }
    await env.db.transaction((tx) => writeSettings(tx, { password_min_length: 12 }, null));
    try {
      const res = await api(env, 'POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: TEST_PASSWORD, newPassword: 'Abcdefgh123' },
      });
      expect(res.body.error).toBe('Password must be at least 12 characters');
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { password_min_length: 8 }, null));
    }
    const ok = await api(env, 'POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'Abcdefgh123' },
    });
    expect(ok.body).toEqual({ success: true, other_sessions_ended: 0, calendar_feed_active: false });
    await login(env, u.email, 'Abcdefgh123');
  });
});
