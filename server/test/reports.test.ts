import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, neutraliseCsvCell, toCents } from '@lm/shared';
import { completions, courses, licenses, payments, users } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { EXPORT_CHUNK } from '../src/modules/reports/reports.service.ts';
import { api, callerFor, parseCsv, seedBrokerage, seedUser, type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let people: Roles;
let harbor: number;
let T: string;
const EVIL = '=HYPERLINK("http://evil.example","click")';
const daysAgoIso = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

beforeAll(async () => {
  ({ env, roles: people } = t);
  T = today();
  harbor = await seedBrokerage(env, 'Harbor Homes');
  const agent2 = await seedUser(env, 'Agent', { first_name: EVIL, last_name: '+Plus', brokerage_id: harbor });
  const agent3 = await seedUser(env, 'Agent', { first_name: 'Ina', last_name: 'Active', brokerage_id: harbor, is_active: false });
  await env.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ created_at: daysAgoIso(60), login_count: 12 })
      .where(eq(users.user_id, agent3.user_id));
  });
  const gone = await seedUser(env, 'Agent', { first_name: 'Gone', brokerage_id: harbor });
  await env.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ deleted_at: daysAgoIso(1), is_active: false })
      .where(eq(users.user_id, gone.user_id));
  });

  const add = (userId: number, n: string, state: string, status: string, expIn: number, renewedAt: string | null = null) =>
    env.db.transaction((tx) =>
      tx.insert(licenses).values({
        user_id: userId,
        license_number: n,
        state,
        status: status as 'Active',
        issue_date: addDays(T, -1000),
        expiration_date: addDays(T, expIn),
        renewed_at: renewedAt,
      }),
    );
  await add(people.agent.user_id, 'L1', 'CA', 'Active', 10);
  await add(people.agent.user_id, 'L2', 'TX', 'Expired', -30);
  await add(agent2.user_id, 'L3', 'CA', 'Active', 200);
  await add(people.broker.user_id, 'L4', 'FL', 'Pending Renewal', 20);
  await add(agent2.user_id, 'L5', 'NY', 'Suspended', 400, new Date().toISOString());
  await add(agent3.user_id, 'L6', 'CA', 'Active', 300, daysAgoIso(90));
  await add(people.agent.user_id, 'L7', 'CA', 'Active', -5);

  const course = async (values: typeof courses.$inferInsert) =>
    (await env.db.transaction((tx) => tx.insert(courses).values(values).returning()))[0]!.course_id;
  const c1 = await course({ course_name: 'Contract Law', description: 'd', provider: 'P', ce_hours: 3 });
  const c2 = await course({ course_name: 'Ethics', description: 'd', provider: 'P', ce_hours: 2, cost_cents: 4999 });
  const done = (
    userId: number,
    courseId: number,
    date: string,
    status: 'Pending' | 'Approved' | 'Rejected',
    extra: Partial<typeof completions.$inferInsert> = {},
  ) =>
    env.db.transaction((tx) =>
      tx.insert(completions).values({ user_id: userId, course_id: courseId, completion_date: date, hours: 2, status, ...extra }),
    );
  await done(people.agent.user_id, c1, addDays(T, -2), 'Approved', { rating: 4, created_at: daysAgoIso(5), reviewed_at: daysAgoIso(2) });
  await done(agent2.user_id, c1, addDays(T, -1), 'Approved', { rating: 5, created_at: daysAgoIso(3), reviewed_at: daysAgoIso(2) });
  await done(agent3.user_id, c2, T, 'Pending');
  await done(people.agent.user_id, c2, addDays(T, -3), 'Rejected', { rating: 1 });
  await done(people.agent.user_id, c1, addDays(T, -60), 'Approved', { rating: 1 });

  const pay = (dollars: number, status: 'Completed' | 'Pending', date: string) =>
    env.db.transaction((tx) =>
      tx.insert(payments).values({ user_id: people.agent.user_id, amount_cents: toCents(dollars), status, payment_date: date }),
    );
  await pay(100, 'Completed', T);
  await pay(50.5, 'Completed', addDays(T, -60));
  await pay(30, 'Pending', T);
});

describe('GET /api/admin/stats', () => {
  it('answers users {total, by_role}, licenses {total, by_status}, courses {total}, payments {total_amount}', async () => {
    const res = await api(env, 'GET', '/api/admin/stats', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      users: {
        total: 6,
        by_role: [
          { role_id: 1, role_name: 'Admin', count: 1 },
          { role_id: 2, role_name: 'Broker', count: 1 },
          { role_id: 3, role_name: 'Agent', count: 3 },
          { role_id: 4, role_name: 'School', count: 1 },
        ],
      },
      licenses: {
        total: 7,
        by_status: [
          // L7 is Active in the table but its date has passed: it reads Expired (docs/decisions.md "Compliance").
          { status: 'Active', count: 3 },
          { status: 'Inactive', count: 0 },
          { status: 'Suspended', count: 1 },
          { status: 'Expired', count: 2 },
          { status: 'Pending Renewal', count: 1 },
        ],
      },
      courses: { total: 2 },
      payments: { total_amount: 150.5 },
    });
    const period = await callerFor(env, people.admin.user_id).admin.stats.get({ start_date: addDays(T, -30), end_date: T });
    expect(period.payments.total_amount).toBe(100);
  });
});

describe('GET /api/reports/licenses', () => {
  it('answers the docs/product.md shape with expiring (30 days), expired, renewed in the period and states', async () => {
    const res = await api(env, 'GET', '/api/reports/licenses', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      period: { start_date: addDays(T, -30), end_date: T },
      expiring_soon: 2,
      expired: 2,
      renewed_this_period: 1,
      top_states: [
        { state: 'CA', active: 3, expired: 1, total: 4 },
        { state: 'FL', active: 0, expired: 0, total: 1 },
        { state: 'NY', active: 0, expired: 0, total: 1 },
        { state: 'TX', active: 0, expired: 1, total: 1 },
      ],
      by_status: [
        { status: 'Active', count: 3 },
        { status: 'Expired', count: 2 },
        { status: 'Pending Renewal', count: 1 },
        { status: 'Suspended', count: 1 },
      ],
    });
  });

  it('narrows by state, license_status, brokerage_id and user_role', async () => {
    const admin = callerFor(env, people.admin.user_id);
    expect(await admin.reports.licenses({ state: 'ca' })).toMatchObject({ expiring_soon: 1, expired: 1, renewed_this_period: 0 });
    expect(await admin.reports.licenses({ license_status: 'Expired' })).toMatchObject({ expiring_soon: 0, expired: 2 });
    expect(await admin.reports.licenses({ brokerage_id: harbor })).toMatchObject({ expiring_soon: 0, expired: 0, renewed_this_period: 1 });
    expect(await admin.reports.licenses({ user_role: 'Broker' })).toMatchObject({
      expiring_soon: 1,
      top_states: [{ state: 'FL', total: 1 }],
    });
    const wide = await api(env, 'GET', `/api/reports/licenses?start_date=${addDays(T, -120)}&end_date=${T}`, { token: people.admin.token });
    expect(wide.body.renewed_this_period).toBe(2);
  });
});

describe('GET /api/reports/users', () => {
  it('answers new, active and inactive users, logins per week and users by brokerage', async () => {
    const res = await api(env, 'GET', '/api/reports/users', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      period: { start_date: addDays(T, -30), end_date: T },
      new_users_this_period: 5,
      active_users: 5,
      inactive_users: 1,
      avg_login_frequency: Number((12 / (60 / 7) / 6).toFixed(2)),
      brokerage_stats: [
        { brokerage_id: harbor, name: 'Harbor Homes', brokers: 0, agents: 2, total: 2 },
        { brokerage_id: people.brokerageId, name: 'Main Street Realty', brokers: 1, agents: 1, total: 2 },
      ],
    });
    const agents = await callerFor(env, people.admin.user_id).reports.users({ user_role: 'Agent' });
    expect(agents).toMatchObject({ new_users_this_period: 2, active_users: 2, inactive_users: 1 });
    expect(agents.brokerage_stats.find((b) => b.brokerage_id === people.brokerageId)).toMatchObject({ brokers: 0, agents: 1, total: 1 });
  });
});

describe('GET /api/reports/courses', () => {
  it('answers totals, completions in the period, pending approvals, average days to approval and top courses', async () => {
    const res = await api(env, 'GET', '/api/reports/courses', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      total_courses: 2,
      completions_this_period: 3,
      pending_approvals: 1,
      avg_completion_time: 2,
      top_courses: [
        { title: 'Contract Law', completions: 2, avg_rating: 4.5, ce_hours: 3 },
        { title: 'Ethics', completions: 1, avg_rating: null, ce_hours: 2 },
      ],
      completions_by_date: [
        { date: addDays(T, -2), completions: 1 },
        { date: addDays(T, -1), completions: 1 },
        { date: T, completions: 1 },
      ],
    });
    expect(res.body.top_courses[0]).toEqual({
      course_id: expect.any(Number),
      title: 'Contract Law',
      completions: 2,
      avg_rating: 4.5,
      ce_hours: 3,
    });
    const harborOnly = await callerFor(env, people.admin.user_id).reports.courses({ brokerage_id: harbor });
    expect(harborOnly).toMatchObject({ completions_this_period: 2, pending_approvals: 1, avg_completion_time: 1 });
  });

  it('answers 400 for a start after the end, a bad date, an unknown status or role', async () => {
    for (const q of [
      `start_date=${T}&end_date=${addDays(T, -1)}`,
      'start_date=2026-02-30x',
      'license_status=Nope',
      'user_role=Owner',
      'brokerage_id=abc',
    ]) {
      const res = await api(env, 'GET', `/api/reports/courses?${q}`, { token: people.admin.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toEqual(expect.any(String));
    }
  });
});

describe('who may read reports and stats', () => {
  const paths = [
    '/api/admin/stats',
    '/api/reports/licenses',
    '/api/reports/users',
    '/api/reports/courses',
    '/api/reports/users/export?format=csv',
  ];
  const cases = [
    { who: 'admin', status: 200 },
    { who: 'broker', status: 403 },
    { who: 'agent', status: 403 },
    { who: 'school', status: 403 },
    { who: null, status: 401 },
  ] as const;
  for (const c of cases) {
    it(`${c.who ?? 'signed out'}: ${c.status} on REST and tRPC`, async () => {
      for (const p of paths) {
        const res = await api(env, 'GET', p, { token: c.who ? people[c.who].token : undefined });
        expect(res.status, p).toBe(c.status);
        if (c.status !== 200)
          expect(res.body).toEqual({ error: expect.any(String), code: c.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN' });
      }
      const caller = callerFor(env, c.who ? people[c.who].user_id : null);
      const calls = [
        () => caller.admin.stats.get(),
        () => caller.reports.licenses(),
        () => caller.reports.users(),
        () => caller.reports.courses(),
      ];
      for (const call of calls) {
        if (c.status === 200) await expect(call()).resolves.toBeTypeOf('object');
        else await expect(call()).rejects.toMatchObject({ code: c.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN' });
      }
    });
  }
});

describe('GET /api/reports/{name}/export?format=csv', () => {
  const start = '2026-01-01';
  const end = '2026-01-31';

  it('answers the four reports as text/csv attachments with the exact file names, a header and data rows', async () => {
    const expected: Record<string, { header: string[]; minRows: number }> = {
      licenses: { header: ['License ID', 'License Number', 'State'], minRows: 7 },
      users: { header: ['User ID', 'First Name', 'Last Name', 'Email', 'Role'], minRows: 6 },
      courses: { header: ['Course ID', 'Course Name', 'Provider'], minRows: 2 },
      comprehensive: { header: ['Section', 'Metric', 'Value'], minRows: 20 },
    };
    for (const [name, e] of Object.entries(expected)) {
      const res = await api(env, 'GET', `/api/reports/${name}/export?format=csv&start_date=${start}&end_date=${end}`, {
        token: people.admin.token,
      });
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type'], name).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition'], name).toBe(`attachment; filename="${name}_report_${start}_to_${end}.csv"`);
      const rows = parseCsv(String(res.body).replace(/^\uFEFF/, ''));
      expect(rows[0]!.slice(0, e.header.length), name).toEqual(e.header);
      expect(rows.length - 1, name).toBeGreaterThanOrEqual(e.minRows);
      for (const r of rows) expect(r.length, name).toBe(rows[0]!.length);
    }
  });

  it('carries the figures: license rows, users without the deleted one, course completions, report metrics', async () => {
    const get = async (name: string, q = '') =>
      parseCsv(
        String((await api(env, 'GET', `/api/reports/${name}/export?format=csv${q}`, { token: people.admin.token })).body).replace(
          /^\uFEFF/,
          '',
        ),
      );
    const lic = await get('licenses', '&state=CA');
    expect(
      lic
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['L1', 'L3', 'L6', 'L7']);
    const l1 = lic.find((r) => r[1] === 'L1')!;
    expect(l1[lic[0]!.indexOf('Days Left')]).toBe('10');
    expect(l1[lic[0]!.indexOf('Brokerage')]).toBe('Main Street Realty');
    const usr = await get('users');
    expect(usr).toHaveLength(7);
    expect(usr.some((r) => r[1] === 'Gone')).toBe(false);
    const crs = await get('courses');
    const ethics = crs.find((r) => r[1] === 'Ethics')!;
    expect(ethics.slice(4)).toEqual(['2', '49.99', 'Active', '1', '1', '']);
    const all = await get('comprehensive');
    expect(all).toContainEqual(['License Analytics', 'Expiring Soon (30 days)', '2']);
    expect(all).toContainEqual(['Overview', 'Revenue This Period', '100.00']);
    expect(all).toContainEqual(['Course Analytics', 'Average Completion Time (days)', '2']);
  });

  it('defaults to the last 30 days in the file name and refuses another format', async () => {
    const res = await api(env, 'GET', '/api/reports/licenses/export', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="licenses_report_${addDays(T, -30)}_to_${T}.csv"`);
    const bad = await api(env, 'GET', '/api/reports/licenses/export?format=xlsx', { token: people.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'Only format=csv is supported', code: 'BAD_REQUEST' });
    const order = await api(env, 'GET', `/api/reports/users/export?format=csv&start_date=${T}&end_date=${addDays(T, -1)}`, {
      token: people.admin.token,
    });
    expect(order.status).toBe(400);
    expect(order.body.error).toBe('Start date must be on or before end date');
    expect((await api(env, 'GET', '/api/reports/secrets/export?format=csv', { token: people.admin.token })).status).toBe(404);
  });

  it("a user named '=HYPERLINK(...)' does not become a live formula", async () => {
    const res = await api(env, 'GET', '/api/reports/users/export?format=csv', { token: people.admin.token });
    const rows = parseCsv(String(res.body).replace(/^\uFEFF/, ''));
    const evil = rows.find((r) => r[1]?.includes('HYPERLINK'))!;
    expect(evil[1]).toBe(`'${EVIL}`);
    expect(evil[2]).toBe("'+Plus");
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseCsvCell(v)).toBe(`'${v}`);
    for (const v of ['Plain', 'a=b', '', '1-2']) expect(neutraliseCsvCell(v)).toBe(v);
  });

  it('streams an export larger than one chunk completely', async () => {
    const many = 2 * EXPORT_CHUNK + 17;
    await env.db.transaction(async (tx) => {
      const rows = Array.from({ length: many }, (_, i) => ({
        user_id: people.agent.user_id,
        license_number: `BULK-${i}`,
        state: 'WA',
        issue_date: '2024-01-01',
        expiration_date: '2030-01-01',
        created_at: '2024-01-01T00:00:00.000Z',
        updated_at: '2024-01-01T00:00:00.000Z',
      }));
      // In slices: one statement may carry only so many parameters.
      for (let i = 0; i < rows.length; i += 200) await tx.insert(licenses).values(rows.slice(i, i + 200));
    });
    const res = await api(env, 'GET', '/api/reports/licenses/export?format=csv&state=WA', { token: people.admin.token });
    const rows = parseCsv(String(res.body).replace(/^\uFEFF/, ''));
    expect(rows).toHaveLength(many + 1);
    expect(new Set(rows.slice(1).map((r) => r[1])).size).toBe(many);
    await env.db.transaction((tx) => tx.delete(licenses).where(eq(licenses.state, 'WA')));
  });

  it('lists every report path and export in the OpenAPI document', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    for (const p of ['/admin/stats', '/reports/licenses', '/reports/users', '/reports/courses'])
      expect(res.body.paths[p]?.get, p).toBeDefined();
    for (const name of ['licenses', 'users', 'courses', 'comprehensive']) {
      const op = res.body.paths[`/reports/${name}/export`]?.get;
      expect(op, name).toBeDefined();
      expect(Object.keys(op.responses['200'].content)).toEqual(['text/csv']);
    }
  });
});
