import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { DEFAULT_SETTINGS } from '@lm/shared';
import { auditLogs, sessions, settings as settingsTable } from '../src/db/schema/index.ts';
import { getSettings } from '../src/core/settings.ts';
import { officeTimeZone, today } from '../src/core/dates.ts';
import { MAINTENANCE_MESSAGE } from '../src/core/trpc.ts';
import { api, callerFor, login, seedUser, TEST_PASSWORD, type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(() => {
  ({ env, roles } = t);
});
// Every test starts from the defaults.
afterEach(async () => {
  await api(env, 'POST', '/api/admin/settings/reset', { token: roles.admin.token });
});

const put = (settings: Record<string, unknown>, token = roles.admin.token) =>
  api(env, 'PUT', '/api/admin/settings', { token, body: { settings } });

describe('who may read and change settings', () => {
  it('Admin only: 403 for other roles, 401 without a token, on REST and tRPC', async () => {
    const cases: Array<[string, string | null, number]> = [
      ['admin', roles.admin.token, 200],
      ['broker', roles.broker.token, 403],
      ['agent', roles.agent.token, 403],
      ['school', roles.school.token, 403],
      ['none', null, 401],
    ];
    for (const [who, token, status] of cases) {
      expect((await api(env, 'GET', '/api/admin/settings', { token })).status, `${who} get`).toBe(status);
      expect(
        (await api(env, 'PUT', '/api/admin/settings', { token, body: { settings: { support_phone: '555' } } })).status,
        `${who} put`,
      ).toBe(status);
      expect((await api(env, 'POST', '/api/admin/settings/reset', { token })).status, `${who} reset`).toBe(status);
    }
    await expect(callerFor(env, roles.agent.user_id).admin.settings.get()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(env, roles.broker.user_id).admin.settings.update({ settings: { app_name: 'x' } })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await getSettings(env.db)).support_phone).toBe('');
  });

  it('lists the settings paths in /api/openapi.json', async () => {
    const doc = (await api(env, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const p of ['GET /admin/settings', 'PUT /admin/settings', 'POST /admin/settings/reset']) expect(listed).toContain(p);
  });
});

describe('reading and writing (acceptance 4)', () => {
  it('answers the docs/product.md defaults as {settings}, on REST and tRPC', async () => {
    const res = await api(env, 'GET', '/api/admin/settings', { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ settings: DEFAULT_SETTINGS });
    expect(res.body.settings).toMatchObject({
      app_name: 'Real Estate License Manager',
      default_ce_hours: 0,
      license_expiry_warning_days: 30,
      auto_renewal_enabled: false,
      email_notifications_enabled: true,
      sms_notifications_enabled: false,
      notification_frequency: 'daily',
      password_min_length: 8,
      session_timeout_minutes: 60,
      max_login_attempts: 5,
      lockout_duration_minutes: 30,
      max_file_size_mb: 10,
      allowed_file_types: 'pdf,doc,docx,jpg,jpeg,png',
      maintenance_mode: false,
      debug_mode: false,
      log_level: 'info',
    });
    expect(await callerFor(env, roles.admin.user_id).admin.settings.get()).toEqual({ settings: DEFAULT_SETTINGS });
  });

  it('refuses out-of-range values with the docs/product.md messages (400) and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ password_min_length: 5 }, 'Minimum password length must be at least 6'],
      [{ app_name: '   ' }, 'App name is required'],
      [{ support_email: '' }, 'Support email is required'],
      [{ support_email: 'not-an-email' }, 'Invalid email address'],
      [{ default_ce_hours: -1 }, 'CE hours cannot be negative'],
      [{ license_expiry_warning_days: 0 }, 'Warning days must be at least 1'],
      [{ max_file_size_mb: 0 }, 'Max file size must be at least 1MB'],
      [{ max_file_size_mb: 101 }, 'Max file size must be at most 100'],
      [{ password_min_length: 51 }, 'Minimum password length must be at most 50'],
      [{ session_timeout_minutes: 4 }, 'Session timeout must be at least 5 minutes'],
      [{ max_login_attempts: 11 }, 'Max login attempts must be at most 10'],
      [{ lockout_duration_minutes: 1441 }, 'Lockout duration must be at most 1440'],
      [{ log_level: 'verbose' }, expect.any(String) as unknown as string],
      [{ date_format: 'DD.MM.YYYY' }, 'Date format must be MM/DD/YYYY or YYYY-MM-DD'],
      [{ date_format: '' }, 'Date format must be MM/DD/YYYY or YYYY-MM-DD'],
    ];
    for (const [settings, message] of cases) {
      const res = await put({ ...settings, app_description: 'should not be saved' });
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.error, JSON.stringify(settings)).toEqual(message);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    expect(await env.db.select().from(settingsTable)).toEqual([]);
    // tRPC validates with the same schema (the browser shows the same message).
    await expect(callerFor(env, roles.admin.user_id).admin.settings.update({ settings: { password_min_length: 5 } })).rejects.toMatchObject(
      {
        code: 'BAD_REQUEST',
        cause: { issues: [expect.objectContaining({ message: 'Minimum password length must be at least 6' })] },
      },
    );
  });

  it('saves the whole form, answers {settings}, and audits the changed values only', async () => {
    const next = {
      ...DEFAULT_SETTINGS,
      app_name: 'Sunrise Realty License Desk',
      support_email: 'help@sunrise.test',
      password_min_length: 10,
      notification_frequency: 'weekly' as const,
    };
    const res = await put(next);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ settings: next });
    expect((await api(env, 'GET', '/api/admin/settings', { token: roles.admin.token })).body).toEqual({ settings: next });
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'update'), eq(auditLogs.target_table, 'settings')))
        .orderBy(desc(auditLogs.log_id))
    )[0];
    expect(entry!.user_id).toBe(roles.admin.user_id);
    expect(JSON.parse(entry!.old_values!)).toEqual({
      app_name: 'Real Estate License Manager',
      support_email: 'support@example.com',
      password_min_length: 8,
      notification_frequency: 'daily',
    });
    expect(JSON.parse(entry!.new_values!)).toEqual({
      app_name: 'Sunrise Realty License Desk',
      support_email: 'help@sunrise.test',
      password_min_length: 10,
      notification_frequency: 'weekly',
    });
    // A partial body changes only what it names.
    const partial = await put({ support_phone: '+1 555 0100' });
    expect(partial.body.settings).toEqual({ ...next, support_phone: '+1 555 0100' });
  });

  it('reset to defaults removes every stored value and is audited', async () => {
    await put({ app_name: 'Temporary Name', max_login_attempts: 7 });
    const res = await api(env, 'POST', '/api/admin/settings/reset', { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ settings: DEFAULT_SETTINGS });
    expect(await env.db.select().from(settingsTable)).toEqual([]);
    const entry = (await env.db.select().from(auditLogs).where(eq(auditLogs.target_table, 'settings')).orderBy(desc(auditLogs.log_id)))[0];
    expect(entry!.action).toBe('update');
    expect(JSON.parse(entry!.old_values!)).toEqual({ app_name: 'Temporary Name', max_login_attempts: 7 });
    expect(JSON.parse(entry!.new_values!)).toEqual({ app_name: DEFAULT_SETTINGS.app_name, max_login_attempts: 5, reset_to_defaults: true });
  });
});

describe('settings take effect (acceptance 4)', () => {
  it('after password_min_length 14 a shorter password is refused', async () => {
    expect((await put({ password_min_length: 14 })).status).toBe(200);
    const u = await seedUser(env, 'Agent');
    const token = await login(env, u.email);
    const short = await api(env, 'POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'Abcdefgh1234' },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Password must be at least 14 characters');
    const long = await api(env, 'POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'Abcdefgh12345678' },
    });
    expect(long.status).toBe(200);
  });

  it('after max_login_attempts 3, three failures lock the account for strangers (429 with a message)', async () => {
    expect((await put({ max_login_attempts: 3, lockout_duration_minutes: 15 })).status).toBe(200);
    const u = await seedUser(env, 'Broker');
    const attempt = (password: string) => api(env, 'POST', '/api/auth/login', { body: { email: u.email, password }, ip: '10.77.0.1' });
    expect((await attempt('Wrong-pass1')).status).toBe(401);
    expect((await attempt('Wrong-pass2')).status).toBe(401);
    expect((await attempt('Wrong-pass3')).status).toBe(401);
    const fourth = await attempt('Wrong-pass4');
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(fourth.headers['retry-after']).toBe('900');
    // Even the right password waits for the lockout to end, from any address that never signed in.
    const right = await api(env, 'POST', '/api/auth/login', { body: { email: u.email, password: TEST_PASSWORD }, ip: '10.77.0.2' });
    expect(right.status).toBe(429);
  });

  it('maintenance_mode answers 503 to an Agent while an Admin continues', async () => {
    expect((await put({ maintenance_mode: true })).status).toBe(200);
    const agent = await api(env, 'GET', '/api/auth/me', { token: roles.agent.token });
    expect(agent.status).toBe(503);
    expect(agent.body).toEqual({ error: MAINTENANCE_MESSAGE, code: 'SERVICE_UNAVAILABLE' });
    await expect(callerFor(env, roles.broker.user_id).auth.me()).rejects.toMatchObject({ message: MAINTENANCE_MESSAGE });
    expect((await api(env, 'GET', '/api/auth/me', { token: roles.admin.token })).status).toBe(200);
    expect((await api(env, 'GET', '/api/admin/settings', { token: roles.admin.token })).status).toBe(200);
    expect((await put({ maintenance_mode: false })).status).toBe(200);
    expect((await api(env, 'GET', '/api/auth/me', { token: roles.agent.token })).status).toBe(200);
  });

  it('session_timeout_minutes ends sessions idle for longer', async () => {
    const u = await seedUser(env, 'School');
    const token = await login(env, u.email);
    const idle = new Date(Date.now() - 20 * 60_000).toISOString();
    await env.db.transaction((tx) => tx.update(sessions).set({ last_seen_at: idle }).where(eq(sessions.user_id, u.user_id)));
    expect((await api(env, 'GET', '/api/auth/me', { token })).status).toBe(200); // 20 minutes < 60
    await env.db.transaction((tx) => tx.update(sessions).set({ last_seen_at: idle }).where(eq(sessions.user_id, u.user_id)));
    expect((await put({ session_timeout_minutes: 15 })).status).toBe(200);
    expect((await api(env, 'GET', '/api/auth/me', { token })).status).toBe(401);
  });

  it('log_level (and debug_mode) apply to the running server log at once', async () => {
    expect((await put({ log_level: 'debug' })).status).toBe(200);
    expect(env.app.log.level).toBe('debug');
    expect((await put({ log_level: 'error' })).status).toBe(200);
    expect(env.app.log.level).toBe('error');
    // Debug Mode logs everything while it is on, whatever the log level says.
    expect((await put({ debug_mode: true })).status).toBe(200);
    expect(env.app.log.level).toBe('debug');
    expect((await put({ debug_mode: false })).status).toBe(200);
    expect(env.app.log.level).toBe('error');
    await api(env, 'POST', '/api/admin/settings/reset', { token: roles.admin.token });
    expect(env.app.log.level).toBe('info');
  });
});

describe("the office's calendar (issue 27: one date language)", () => {
  it('the public settings tell anyone the date format, the time zone and the date there', async () => {
    const res = await api(env, 'GET', '/api/settings/public');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date_format: 'MM/DD/YYYY', time_zone: officeTimeZone(), today: today() });
    expect(res.body.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    expect((await put({ date_format: 'YYYY-MM-DD' })).status).toBe(200);
    expect((await api(env, 'GET', '/api/settings/public')).body.date_format).toBe('YYYY-MM-DD');
    expect(await callerFor(env, roles.agent.user_id).settings.public()).toMatchObject({ date_format: 'YYYY-MM-DD' });
  });

  it("counts today in the office's zone (TZ), not UTC", async () => {
    const before = process.env.TZ;
    // Node reads TZ again when it changes: the server's zone for this test only.
    process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: its date is ahead of UTC for most of the day
    try {
      const body = (await api(env, 'GET', '/api/settings/public')).body as { time_zone: string; today: string };
      const there = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
      expect(body.time_zone).toBe('Pacific/Kiritimati');
      expect(body.today).toBe(there);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
