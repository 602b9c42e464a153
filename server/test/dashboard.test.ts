import { beforeAll, describe, expect, it } from 'vitest';
import { activityText, addDays, ACTIVITY_TYPES, startOfMonth, toCents, type ActivityItem } from '@lm/shared';
import { eq } from 'drizzle-orm';
import { completions, courses, licenses, payments } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { writeSettings, invalidateSettings } from '../src/core/settings.ts';
import { api, callerFor, seedBrokerage, seedUser, tokenFor, type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let people: Roles;
let outsider: { user_id: number; token: string };
const lic: Record<string, number> = {};

async function addLicense(userId: number, number: string, expiresInDays: number, extra: Partial<typeof licenses.$inferInsert> = {}) {
  const expiration = addDays(today(), expiresInDays);
  const [row] = await env.db.transaction((tx) =>
    tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number: number,
        state: 'CA',
        issue_date: addDays(expiration, -730),
        expiration_date: expiration,
        ...extra,
      })
      .returning(),
  );
  return row!.license_id;
}

beforeAll(async () => {
  ({ env, roles: people } = t);
  const otherBrokerage = await seedBrokerage(env, 'Elsewhere Realty');
  const o = await seedUser(env, 'Agent', { first_name: 'Olga', last_name: 'Outside', brokerage_id: otherBrokerage });
  outsider = { user_id: o.user_id, token: await tokenFor(env, o.user_id) };

  lic.in10 = await addLicense(people.agent.user_id, 'AG-10', 10, { ce_hours_required: 45, ce_hours_completed: 12.5, state: 'TX' });
  lic.in60 = await addLicense(people.agent.user_id, 'AG-60', 60);
  lic.old = await addLicense(people.agent.user_id, 'AG-OLD', -400, { status: 'Expired' });
  lic.brokerIn20 = await addLicense(people.broker.user_id, 'BR-20', 20, { license_type: 'Broker' });
  lic.outsideIn20 = await addLicense(outsider.user_id, 'OUT-20', 20);
  lic.inactiveIn5 = await addLicense(outsider.user_id, 'OUT-INACTIVE', 5, { status: 'Inactive' });

  const addCourse = async (values: typeof courses.$inferInsert) =>
    (await env.db.transaction((tx) => tx.insert(courses).values(values).returning()))[0]!.course_id;
  const course = await addCourse({
    course_name: 'Fair Housing Basics',
    description: 'd',
    provider: 'Acme School',
    ce_hours: 3,
    school_id: people.school.user_id,
  });
  const adminCourse = await addCourse({ course_name: 'Agency Law', description: 'd', provider: 'State Board', ce_hours: 4 });
  const done = (userId: number, courseId: number, status: 'Pending' | 'Approved' | 'Rejected', date = today()) =>
    env.db.transaction((tx) =>
      tx.insert(completions).values({ user_id: userId, course_id: courseId, completion_date: date, hours: 3, status }),
    );
  await done(people.agent.user_id, course, 'Pending');
  await done(people.agent.user_id, adminCourse, 'Approved');
  await done(outsider.user_id, course, 'Approved');
  // Rejected, and dated the day before this month began: a School's "this month" does not count it.
  await done(outsider.user_id, course, 'Rejected', addDays(startOfMonth(today()), -1));

  const pay = (userId: number, dollars: number, status: 'Completed' | 'Pending' | 'Failed') =>
    env.db.transaction((tx) =>
      tx.insert(payments).values({ user_id: userId, amount_cents: toCents(dollars), status, payment_date: today() }),
    );
  await pay(people.agent.user_id, 100.5, 'Completed');
  await pay(people.agent.user_id, 20.25, 'Completed');
  await pay(people.agent.user_id, 5, 'Pending');
  await pay(outsider.user_id, 999, 'Completed');
});

describe('GET /api/dashboard/stats', () => {
  it("answers each role's fields from docs/product.md section 3, within the caller's scope", async () => {
    const admin = await api(env, 'GET', '/api/dashboard/stats', { token: people.admin.token });
    expect(admin.status).toBe(200);
    // Warning window 30 days (default): AG-10, BR-20, OUT-20; not the Inactive one, not AG-60.
    expect(admin.body).toEqual({
      role: 'Admin',
      total_users: 5,
      total_licenses: 6,
      expiring_licenses: 3,
      expiring_window_days: 30,
      total_courses: 2,
      total_completions: 4,
      pending_completions: 1,
      compliance: { at_risk: 1, complete: 4, expired: 1, on_track: 0 },
    });

    const broker = await api(env, 'GET', '/api/dashboard/stats', { token: people.broker.token });
    expect(broker.status).toBe(200);
    // The brokerage's people: the broker and its agent (4 licenses), not the outsider.
    expect(broker.body).toEqual({
      role: 'Broker',
      total_agents: 1,
      agent_licenses: 4,
      expiring_agent_licenses: 2,
      expiring_window_days: 30,
      agent_completions: 2,
      compliance: expect.objectContaining({ at_risk: 1 }),
    });
    // The cards count what the list they open lists: the same filters answer both.
    const summary = await api(env, 'GET', '/api/licenses/compliance-summary', { token: people.broker.token });
    expect(broker.body.compliance).toEqual(summary.body);
    const atRisk = await api(env, 'GET', '/api/licenses?compliance=at_risk', { token: people.broker.token });
    expect(atRisk.body).toHaveLength(broker.body.compliance.at_risk);

    const agent = await api(env, 'GET', '/api/dashboard/stats', { token: people.agent.token });
    expect(agent.status).toBe(200);
    expect(agent.body).toEqual({
      role: 'Agent',
      my_licenses: 3,
      my_completions: 2,
      my_payments: 120.75,
      ce_progress: { completed: 12.5, required: 45, renewal_date: addDays(today(), 10) },
      // One card per license, the one most in need first (at risk, expired, on track, complete).
      ce_licenses: [
        expect.objectContaining({
          license_number: 'AG-10',
          compliance: expect.objectContaining({ state: 'at_risk', hours_remaining: 32.5 }),
        }),
        expect.objectContaining({ license_number: 'AG-OLD', compliance: expect.objectContaining({ state: 'expired' }) }),
        expect.objectContaining({ license_number: 'AG-60', compliance: expect.objectContaining({ state: 'complete' }) }),
      ],
    });

    const school = await api(env, 'GET', '/api/dashboard/stats', { token: people.school.token });
    expect(school.status).toBe(200);
    expect(school.body).toEqual({
      role: 'School',
      my_courses: 1,
      course_completions: 3,
      pending_completions: 1,
      completions_this_month: 2,
      month_start: startOfMonth(today()),
    });
  });

  it("counts each figure with the list's own count and the filters its card opens the list with", async () => {
    const get = async (token: string, path: string) => {
      const res = await api(env, 'GET', path, { token });
      expect(res.status, path).toBe(200);
      return res.body;
    };
    const total = async (token: string, path: string) => (await get(token, path)).pagination.total as number;

    const a = people.admin.token;
    const admin = await get(a, '/api/dashboard/stats');
    expect(admin.total_users).toBe(await total(a, '/api/users'));
    expect(admin.total_licenses).toBe(await total(a, '/api/licenses/page'));
    expect(admin.expiring_licenses).toBe(await total(a, `/api/licenses/page?expiring_within=${admin.expiring_window_days}`));
    expect(admin.compliance.expired).toBe(await total(a, '/api/licenses/page?compliance=expired'));
    expect(admin.total_courses).toBe(await total(a, '/api/courses/page'));
    expect(admin.total_completions).toBe(await total(a, '/api/completions/page'));
    expect(admin.pending_completions).toBe(await total(a, '/api/completions/page?status=Pending'));

    const b = people.broker.token;
    const broker = await get(b, '/api/dashboard/stats');
    expect(broker.total_agents).toBe(await total(b, '/api/users?role=Agent'));
    expect(broker.agent_licenses).toBe(await total(b, '/api/licenses/page'));
    expect(broker.agent_completions).toBe(await total(b, '/api/completions/page'));

    const g = people.agent.token;
    const agent = await get(g, '/api/dashboard/stats');
    expect(agent.my_licenses).toBe(await total(g, '/api/licenses/page'));
    expect(agent.my_completions).toBe(await total(g, '/api/completions/page'));
    expect(agent.my_payments).toBe((await get(g, '/api/payments/summary?status=Completed')).total_revenue);

    const s = people.school.token;
    const school = await get(s, '/api/dashboard/stats');
    expect(school.my_courses).toBe(await total(s, `/api/courses/page?school_id=${people.school.user_id}`));
    expect(school.course_completions).toBe(await total(s, '/api/completions/page'));
    expect(school.pending_completions).toBe(await total(s, '/api/completions/page?status=Pending'));
    expect(school.completions_this_month).toBe(await total(s, `/api/completions/page?completed_from=${school.month_start}`));
  });

  it("uses settings.license_expiry_warning_days for the Admin's expiring figure", async () => {
    await env.db.transaction((tx) => writeSettings(tx, { license_expiry_warning_days: 90 }, people.admin.user_id));
    invalidateSettings();
    try {
      const res = await api(env, 'GET', '/api/dashboard/stats', { token: people.admin.token });
      expect(res.body).toMatchObject({ expiring_licenses: 4, expiring_window_days: 90 });
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { license_expiry_warning_days: 30 }, people.admin.user_id));
      invalidateSettings();
    }
  });

  it('answers the same on the tRPC path, and 401 when signed out', async () => {
    const stats = await callerFor(env, people.agent.user_id).dashboard.stats();
    expect(stats).toMatchObject({ role: 'Agent', my_payments: 120.75, ce_progress: { completed: 12.5, required: 45 } });
    const noLicense = await seedUser(env, 'Agent');
    expect(await callerFor(env, noLicense.user_id).dashboard.stats()).toEqual({
      role: 'Agent',
      my_licenses: 0,
      my_completions: 0,
      my_payments: 0,
      ce_progress: { completed: 0, required: 0, renewal_date: null },
      ce_licenses: [],
    });
    expect((await api(env, 'GET', '/api/dashboard/stats')).status).toBe(401);
    await expect(callerFor(env, null).dashboard.stats()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('GET /api/dashboard/expiring-licenses', () => {
  const numbers = (body: Array<{ license_number: string }>) => body.map((l) => l.license_number);

  it('days=30 includes a license expiring in 10 days and not one in 60; days=90 includes both', async () => {
    const d30 = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=30', { token: people.agent.token });
    expect(d30.status).toBe(200);
    expect(numbers(d30.body)).toEqual(['AG-10']);
    expect(d30.body[0]).toEqual({
      license_id: lic.in10,
      user_id: people.agent.user_id,
      first_name: 'Agent',
      last_name: expect.any(String),
      license_number: 'AG-10',
      state: 'TX',
      expiration_date: addDays(today(), 10),
      days_left: 10,
      compliance: { state: 'at_risk', hours_remaining: 32.5, topics_missing: [], days_left: 10 },
    });
    const d90 = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=90', { token: people.agent.token });
    expect(numbers(d90.body)).toEqual(['AG-10', 'AG-60']);
    for (const item of d90.body) {
      expect(Object.keys(item)).toEqual(expect.arrayContaining(['first_name', 'last_name', 'license_number', 'state', 'expiration_date']));
    }
  });

  it("is scoped: an Agent sees only its own, a Broker its brokerage's, the Admin all, a School none", async () => {
    const agent = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=30', { token: people.agent.token });
    expect(numbers(agent.body)).not.toContain('OUT-20');
    const other = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=30', { token: outsider.token });
    expect(numbers(other.body)).toEqual(['OUT-20']);
    const broker = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=30', { token: people.broker.token });
    expect(numbers(broker.body)).toEqual(['AG-10', 'BR-20']);
    const admin = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=30', { token: people.admin.token });
    expect(numbers(admin.body)).toEqual(['AG-10', 'BR-20', 'OUT-20']);
    const school = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=90', { token: people.school.token });
    expect(school.body).toEqual([]);
  });

  it('defaults to 90 days and 5 items, takes a limit, and answers 400 for a bad window', async () => {
    const admin = callerFor(env, people.admin.user_id);
    expect(numbers(await admin.dashboard.expiringLicenses())).toEqual(['AG-10', 'BR-20', 'OUT-20', 'AG-60']);
    expect(numbers(await admin.dashboard.expiringLicenses({ days: 90, limit: 2 }))).toEqual(['AG-10', 'BR-20']);
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push(await addLicense(outsider.user_id, `BULK-${i}`, 40 + i));
    try {
      const res = await api(env, 'GET', '/api/dashboard/expiring-licenses?days=90', { token: people.admin.token });
      expect(res.body).toHaveLength(5);
    } finally {
      for (const id of ids) await env.db.transaction((tx) => tx.delete(licenses).where(eq(licenses.license_id, id)));
    }
    for (const bad of ['days=0', 'days=abc', 'days=400', 'limit=0']) {
      const res = await api(env, 'GET', `/api/dashboard/expiring-licenses?${bad}`, { token: people.admin.token });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });
});

describe('GET /api/dashboard/recent-activity', () => {
  it('answers at most 10 typed items, newest first', async () => {
    const res = await api(env, 'GET', '/api/dashboard/recent-activity', { token: people.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(10);
    for (const item of res.body) {
      expect(ACTIVITY_TYPES).toContain(item.type);
      expect(typeof item.timestamp).toBe('string');
      expect(item.data).toBeTypeOf('object');
    }
    const times = res.body.map((i: { timestamp: string }) => i.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('words each event as it went: completions recorded, approved or rejected, with their own date; payments not completed marked', async () => {
    // A person of its own, so its ten newest events are these.
    const p = await seedUser(env, 'Agent', { first_name: 'Wes', last_name: 'Wording' });
    const [course] = await env.db.transaction((tx) =>
      tx.insert(courses).values({ course_name: 'Ethics Refresher', description: 'd', provider: 'Board', ce_hours: 2 }).returning(),
    );
    for (const [status, date] of [
      ['Pending', '2026-11-22'],
      ['Approved', '2026-11-20'],
      ['Rejected', '2026-11-18'],
    ] as const) {
      await env.db.transaction((tx) =>
        tx.insert(completions).values({ user_id: p.user_id, course_id: course!.course_id, completion_date: date, hours: 2, status }),
      );
    }
    for (const [dollars, status] of [
      [7, 'Failed'],
      [5, 'Pending'],
      [100.5, 'Completed'],
    ] as const) {
      await env.db.transaction((tx) =>
        tx.insert(payments).values({ user_id: p.user_id, amount_cents: toCents(dollars), status, payment_date: today() }),
      );
    }
    const items = await callerFor(env, p.user_id).dashboard.recentActivity();
    const texts = items.map((i: ActivityItem) => activityText(i));
    expect(texts).toEqual(
      expect.arrayContaining([
        'Completion of Ethics Refresher by Wes Wording recorded, awaiting approval',
        'Completion of Ethics Refresher by Wes Wording approved',
        'Completion of Ethics Refresher by Wes Wording rejected',
        'Failed payment of $7.00 from Wes Wording',
        'Pending payment of $5.00 from Wes Wording',
        'Payment of $100.50 from Wes Wording',
      ]),
    );
    expect(texts.some((t) => t.includes(' completed '))).toBe(false);
    // Each completion carries its own calendar day (the card shows it, not the time it was entered).
    const pending = items.find((i) => i.type === 'completion_created' && i.data.status === 'Pending');
    expect(pending?.data).toMatchObject({ completion_date: '2026-11-22' });
    const failed = items.find((i) => i.type === 'payment_created' && i.data.status === 'Failed');
    expect(failed?.data).toMatchObject({ amount: 7 });
  });

  it('answers 400, not 500, for a bad completion date filter', async () => {
    for (const bad of ['completed_from=2026-02-30', 'completed_to=yesterday']) {
      const res = await api(env, 'GET', `/api/completions/page?${bad}`, { token: people.admin.token });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });

  it('is scoped to the caller: an Agent sees its own licenses, completions and payments only', async () => {
    const items = await callerFor(env, people.agent.user_id).dashboard.recentActivity();
    expect(items.length).toBeLessThanOrEqual(10);
    const types = new Set(items.map((i) => i.type));
    expect(types).toEqual(new Set(['license_created', 'completion_created', 'payment_created']));
    const text = JSON.stringify(items);
    expect(text).not.toContain('OUT-20');
    expect(text).not.toContain('Olga');
    const payment = items.find((i) => i.type === 'payment_created');
    expect(payment?.data).toMatchObject({ amount: expect.any(Number), first_name: 'Agent' });
  });

  it('gives a Broker agent_created, and a School course_created and the completions of its courses', async () => {
    const broker = await callerFor(env, people.broker.user_id).dashboard.recentActivity();
    expect(broker.some((i) => i.type === 'agent_created' && i.data.user_id === people.agent.user_id)).toBe(true);
    expect(JSON.stringify(broker)).not.toContain('Olga');
    const school = await api(env, 'GET', '/api/dashboard/recent-activity', { token: people.school.token });
    const types = school.body.map((i: { type: string }) => i.type).sort();
    expect(types).toEqual(['completion_created', 'completion_created', 'completion_created', 'course_created']);
    expect(school.body.find((i: { type: string }) => i.type === 'course_created').data).toMatchObject({
      course_name: 'Fair Housing Basics',
    });
  });
});

describe('OpenAPI', () => {
  it('lists the dashboard paths', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    for (const p of ['/dashboard/stats', '/dashboard/recent-activity', '/dashboard/expiring-licenses']) {
      expect(res.body.paths[p]?.get, p).toBeDefined();
    }
  });
});
