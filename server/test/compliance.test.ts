/**
 * One compliance truth (docs/decisions.md "Compliance"): every license judged once, the same by every screen's
 * query. The pure judgement (shared/src/compliance.ts) is the reference; the list's filters and sort, the
 * compliance summary, the dashboards, the reports and the admin stats must give the same answers on one fixture.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  addDays,
  COMPLIANCE_STATES,
  complianceOf,
  isExpiringWithin,
  LICENSE_STATUSES,
  type ComplianceState,
  type License,
} from '@lm/shared';
import { completions, licenses } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { refreshCeCache } from '../src/modules/licenses/ce-ledger.ts';
import { api, seedUser, tokenFor, type Roles, type TestEnv, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
const TODAY = today();
let n = 0;

beforeAll(() => {
  ({ env, roles } = t);
});

const admin = () => roles.admin.token;

async function createLicense(token: string, userId: number, extra: Record<string, unknown> = {}): Promise<License> {
  n++;
  const res = await api<License>(env, 'POST', '/api/licenses', {
    token,
    body: {
      user_id: userId,
      license_number: `CMP-${n}`,
      state: 'TX',
      issue_date: addDays(TODAY, -700),
      expiration_date: addDays(TODAY, 200),
      ce_hours_required: 10,
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function createCourse(hours: number, topic: string | null = null): Promise<number> {
  n++;
  const res = await api(env, 'POST', '/api/courses', {
    token: admin(),
    body: { course_name: `Course ${n}`, description: 'A course', provider: 'State Board', ce_hours: hours, ...(topic ? { topic } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.course_id;
}

/** Records and approves a completion of `courseId` for the license's holder, dated `date`. */
async function approved(license: License, courseId: number, date: string): Promise<number> {
  const rec = await api(env, 'POST', '/api/completions', {
    token: admin(),
    body: { user_id: license.user_id, course_id: courseId, license_id: license.license_id, completion_date: date },
  });
  expect(rec.status, JSON.stringify(rec.body)).toBe(200);
  const review = await api(env, 'POST', `/api/completions/${rec.body.completion_id}/review`, {
    token: admin(),
    body: { status: 'Approved' },
  });
  expect(review.status, JSON.stringify(review.body)).toBe(200);
  return rec.body.completion_id;
}

const getLicense = async (id: number, token = admin()) => (await api<License>(env, 'GET', `/api/licenses/${id}`, { token })).body;
const ids = (list: License[]) => list.map((l) => l.license_id).sort((a, b) => a - b);

describe('must show 1: expired is a fact, the same number everywhere', () => {
  it('an Active license past its date reads Expired, is not under status=Active, and every count agrees', async () => {
    const lic = await createLicense(admin(), roles.agent.user_id, { expiration_date: addDays(TODAY, -3) });
    expect(lic.status).toBe('Expired');
    expect(lic.compliance).toMatchObject({ state: 'expired', days_left: -3 });
    // The table still says Active until the daily pass writes it; every answer reads it Expired already.
    const [row] = await env.db.select().from(licenses).where(eq(licenses.license_id, lic.license_id));
    expect(row!.status).toBe('Active');
    expect(await getLicense(lic.license_id)).toMatchObject({ status: 'Expired', compliance: { state: 'expired' } });

    const active = await api<License[]>(env, 'GET', '/api/licenses?status=Active', { token: admin() });
    expect(ids(active.body)).not.toContain(lic.license_id);
    const expired = await api<License[]>(env, 'GET', '/api/licenses?status=Expired', { token: admin() });
    expect(ids(expired.body)).toContain(lic.license_id);

    const page = await api(env, 'GET', '/api/licenses/page?status=Expired', { token: admin() });
    const stats = await api(env, 'GET', '/api/admin/stats', { token: admin() });
    const analytics = await api(env, 'GET', '/api/reports/licenses', { token: admin() });
    const statsExpired = stats.body.licenses.by_status.find((s: { status: string }) => s.status === 'Expired').count;
    expect(page.body.pagination.total).toBe(expired.body.length);
    expect(statsExpired).toBe(expired.body.length);
    expect(analytics.body.expired).toBe(expired.body.length);
  });
});

describe('must show 2: every license answer carries compliance; the at-risk filter', () => {
  it("a Broker's ?compliance=at_risk lists a 0-of-10 license due in 40 days, not a complete one nor one due in 600 days", async () => {
    const broker = roles.broker.token;
    const atRisk = await createLicense(broker, roles.agent.user_id, { expiration_date: addDays(TODAY, 40) });
    const complete = await createLicense(broker, roles.agent.user_id, { expiration_date: addDays(TODAY, 40), ce_hours_completed: 10 });
    const far = await createLicense(broker, roles.agent.user_id, { expiration_date: addDays(TODAY, 600) });
    expect(atRisk.compliance).toEqual({ state: 'at_risk', hours_remaining: 10, topics_missing: [], days_left: 40 });
    expect(complete.compliance.state).toBe('complete');
    expect(far.compliance.state).toBe('on_track');

    const list = await api<License[]>(env, 'GET', '/api/licenses?compliance=at_risk', { token: broker });
    expect(list.status).toBe(200);
    expect(ids(list.body)).toContain(atRisk.license_id);
    expect(ids(list.body)).not.toContain(complete.license_id);
    expect(ids(list.body)).not.toContain(far.license_id);
    for (const l of list.body) expect(l.compliance.state).toBe('at_risk');

    // Every answer carries it: the list, a page, one license, an update, a renewal, the transcript.
    const page = await api(env, 'GET', '/api/licenses/page?compliance=at_risk', { token: broker });
    expect(page.body.licenses[0].compliance).toMatchObject({ state: 'at_risk' });
    const updated = await api(env, 'PUT', `/api/licenses/${far.license_id}`, { token: broker, body: { state: 'TX' } });
    expect(updated.body.compliance).toMatchObject({ state: 'on_track' });
    const renewed = await api(env, 'POST', `/api/licenses/${complete.license_id}/renew`, { token: broker });
    expect(renewed.body.compliance).toMatchObject({ state: 'on_track', hours_remaining: 10 });
    const transcript = await api(env, 'GET', `/api/licenses/${atRisk.license_id}/transcript`, { token: broker });
    expect(transcript.body.license.compliance).toMatchObject({ state: 'at_risk' });
    // An Agent reads its own; another brokerage's Broker gets 404.
    expect((await api(env, 'GET', `/api/licenses/${atRisk.license_id}`, { token: roles.agent.token })).status).toBe(200);
    const stranger = await seedUser(env, 'Broker');
    expect((await api(env, 'GET', `/api/licenses/${atRisk.license_id}`, { token: await tokenFor(env, stranger.user_id) })).status).toBe(
      404,
    );
  });
});

describe('must show 3: CE belongs to the person who earned it', () => {
  it('a license with approved CE does not move to another holder (409, nothing changed); the new holder is credited nothing', async () => {
    const other = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const lic = await createLicense(admin(), roles.agent.user_id);
    await approved(lic, await createCourse(4), addDays(TODAY, -10));
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(4);

    const moved = await api(env, 'PUT', `/api/licenses/${lic.license_id}`, { token: admin(), body: { user_id: other.user_id } });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatch(/CE belongs to the person who earned it/);
    const after = await getLicense(lic.license_id);
    expect(after).toMatchObject({ user_id: roles.agent.user_id, ce_hours_completed: 4 });
    const theirs = await api<License[]>(env, 'GET', `/api/licenses?user_id=${other.user_id}`, { token: admin() });
    expect(theirs.body).toEqual([]);

    // A license without CE still changes holder.
    const bare = await createLicense(admin(), roles.agent.user_id);
    const ok = await api(env, 'PUT', `/api/licenses/${bare.license_id}`, { token: admin(), body: { user_id: other.user_id } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ user_id: other.user_id, ce_hours_completed: 0 });
  });

  it("the ledger counts only the holder's own completions (a row linked to someone else's license earns it nothing)", async () => {
    const other = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const lic = await createLicense(admin(), roles.agent.user_id);
    const course = await createCourse(3);
    await env.db.transaction(async (tx) => {
      await tx.insert(completions).values({
        user_id: other.user_id,
        course_id: course,
        license_id: lic.license_id,
        completion_date: addDays(TODAY, -5),
        hours: 3,
        status: 'Approved',
      });
      await refreshCeCache(tx, lic.license_id);
    });
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(0);
  });
});

describe('must show 4: rules apply from day one', () => {
  it("a new license without ce_hours_required takes its state rule's hours, and its topics are missing", async () => {
    const rule = await api(env, 'POST', '/api/ce-rules', {
      token: admin(),
      body: {
        state: 'CO',
        license_type: 'Broker',
        hours_required: 24,
        cycle_years: 3,
        topics: [
          { topic: 'Legal Update I', hours: 4 },
          { topic: 'Legal Update II', hours: 4 },
        ],
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const defaults = await api(env, 'GET', '/api/licenses/defaults?state=CO&license_type=Broker', { token: roles.broker.token });
    expect(defaults.body).toMatchObject({ ce_hours_required: 24, source: 'rule', rule: { cycle_years: 3 } });
    const fallback = await api(env, 'GET', '/api/licenses/defaults?state=WY&license_type=Sales', { token: roles.broker.token });
    expect(fallback.body).toMatchObject({ source: 'settings', rule: null });

    const lic = await createLicense(admin(), roles.broker.user_id, { state: 'CO', license_type: 'Broker', ce_hours_required: undefined });
    expect(lic.ce_hours_required).toBe(24);
    expect(lic.compliance.topics_missing).toEqual([
      { topic: 'Legal Update I', hours: 4 },
      { topic: 'Legal Update II', hours: 4 },
    ]);
    expect(lic.compliance.hours_remaining).toBe(24);

    // A topic course approved: that topic is no longer missing; the rule's other topic still is.
    await approved(lic, await createCourse(4, 'Legal Update I'), addDays(TODAY, -2));
    expect((await getLicense(lic.license_id)).compliance.topics_missing).toEqual([{ topic: 'Legal Update II', hours: 4 }]);

    // A rule's change reaches the licenses it covers at once.
    await api(env, 'PUT', `/api/ce-rules/${rule.body.rule_id}`, {
      token: admin(),
      body: { topics: [{ topic: 'Legal Update I', hours: 4 }] },
    });
    expect((await getLicense(lic.license_id)).compliance.topics_missing).toEqual([]);
  });
});

describe('must show 5: a course counts once per cycle', () => {
  it('the same course approved twice in one cycle counts once (listed as a repeat); a rule may allow repeats', async () => {
    const lic = await createLicense(admin(), roles.agent.user_id, { state: 'NV', license_type: 'Sales' });
    const course = await createCourse(4);
    await approved(lic, course, addDays(TODAY, -30));
    await approved(lic, course, addDays(TODAY, -20));
    await approved(lic, course, addDays(TODAY, -10));
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(4);
    const transcript = await api(env, 'GET', `/api/licenses/${lic.license_id}/transcript`, { token: admin() });
    expect(transcript.body.current.completed).toBe(4);
    expect(
      transcript.body.current.completions.map((c: { credited_hours: number; repeat: boolean }) => [c.credited_hours, c.repeat]),
    ).toEqual([
      [4, false],
      [0, true],
      [0, true],
    ]);

    const rule = await api(env, 'POST', '/api/ce-rules', {
      token: admin(),
      body: { state: 'NV', license_type: 'Sales', hours_required: 10, allow_repeat_credit: true },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(12);
  });
});

describe('late completions cure a lapsed license', () => {
  it('CE finished after the deadline counts toward the short cycle it names, then the license renews', async () => {
    const lic = await createLicense(admin(), roles.agent.user_id, { expiration_date: addDays(TODAY, -10), ce_hours_required: 8 });
    const course = await createCourse(8);
    const late = { user_id: lic.user_id, course_id: course, license_id: lic.license_id, completion_date: addDays(TODAY, -2) };
    // Dated after the cycle: without late credit it fits no cycle.
    expect((await api(env, 'POST', '/api/completions', { token: admin(), body: late })).status).toBe(400);
    const wrong = await api(env, 'POST', '/api/completions', { token: admin(), body: { ...late, credit_cycle_start: addDays(TODAY, -3) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/No CE cycle of this license starts on/);
    expect((await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: admin() })).status).toBe(409);

    const rec = await api(env, 'POST', '/api/completions', { token: admin(), body: { ...late, credit_cycle_start: lic.cycle_start_date } });
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    expect(rec.body.credit_cycle_start).toBe(lic.cycle_start_date);
    await api(env, 'POST', `/api/completions/${rec.body.completion_id}/review`, { token: admin(), body: { status: 'Approved' } });
    const cured = await getLicense(lic.license_id);
    expect(cured).toMatchObject({ ce_hours_completed: 8, status: 'Expired', compliance: { state: 'expired', hours_remaining: 0 } });
    const transcript = await api(env, 'GET', `/api/licenses/${lic.license_id}/transcript`, { token: admin() });
    expect(transcript.body.current.completions).toEqual([expect.objectContaining({ late: true, credited_hours: 8 })]);

    // A complete cycle takes no late credit; the cured license renews without allow_incomplete.
    const again = await api(env, 'POST', '/api/completions', {
      token: admin(),
      body: { ...late, course_id: await createCourse(2), credit_cycle_start: lic.cycle_start_date },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/already complete/);
    const renewed = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: admin() });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ status: 'Active', compliance: { state: 'on_track' } });
  });
});

describe('must show 7: a renewal does not lift a suspension', () => {
  it('renewing a Suspended license keeps it Suspended', async () => {
    const lic = await createLicense(admin(), roles.agent.user_id, { status: 'Suspended', ce_hours_required: 0 });
    const res = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: admin() });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Suspended');
    expect(res.body.expiration_date > lic.expiration_date).toBe(true);
    // An Admin who means to lift it says so.
    const lifted = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: admin(), body: { status: 'Active' } });
    expect(lifted.body.status).toBe('Active');
  });
});

describe('one truth: every query answers the same fixture as the pure judgement', () => {
  it('list filters, sort, summary, dashboards, reports and stats agree with complianceOf and isExpiringWithin', async () => {
    // A license in every state and status, beside what the other tests made.
    const agent = roles.agent.user_id;
    const specs: Array<Record<string, unknown>> = [
      { expiration_date: addDays(TODAY, -1) },
      { expiration_date: TODAY },
      { expiration_date: addDays(TODAY, 30) },
      { expiration_date: addDays(TODAY, 31), status: 'Pending Renewal' },
      { expiration_date: addDays(TODAY, 90) },
      { expiration_date: addDays(TODAY, 91) },
      { expiration_date: addDays(TODAY, 20), status: 'Suspended' },
      { expiration_date: addDays(TODAY, 20), status: 'Inactive', ce_hours_required: 0 },
      { expiration_date: addDays(TODAY, 15), ce_hours_completed: 10 },
      { expiration_date: addDays(TODAY, 400), ce_hours_completed: 10 },
      { expiration_date: addDays(TODAY, -200), status: 'Expired', ce_hours_completed: 10 },
    ];
    for (const spec of specs) await createLicense(admin(), agent, spec);

    const all = (await api<License[]>(env, 'GET', '/api/licenses', { token: admin() })).body;
    expect(all.length).toBeGreaterThanOrEqual(specs.length);
    // The pure judgement of each row, from the facts the row carries, is what the row says.
    for (const l of all) {
      const [row] = await env.db.select().from(licenses).where(eq(licenses.license_id, l.license_id));
      expect(l.compliance).toEqual(complianceOf(row!, TODAY));
    }

    const byState = (s: ComplianceState) => ids(all.filter((l) => l.compliance.state === s));
    const summary = (await api(env, 'GET', '/api/licenses/compliance-summary', { token: admin() })).body;
    for (const state of COMPLIANCE_STATES) {
      const filtered = (await api<License[]>(env, 'GET', `/api/licenses?compliance=${state}`, { token: admin() })).body;
      expect(ids(filtered), state).toEqual(byState(state));
      expect(summary[state], state).toBe(byState(state).length);
    }
    const dashboard = (await api(env, 'GET', '/api/dashboard/stats', { token: admin() })).body;
    expect(dashboard.compliance).toEqual(summary);

    for (const status of LICENSE_STATUSES) {
      const filtered = (await api<License[]>(env, 'GET', `/api/licenses?status=${encodeURIComponent(status)}`, { token: admin() })).body;
      expect(ids(filtered), status).toEqual(ids(all.filter((l) => l.status === status)));
    }

    // At risk first, then expired, on track, complete: the sort follows COMPLIANCE_STATES.
    const sorted = (await api<License[]>(env, 'GET', '/api/licenses?sort=compliance', { token: admin() })).body;
    const ranks = sorted.map((l) => COMPLIANCE_STATES.indexOf(l.compliance.state));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const byHours = (await api<License[]>(env, 'GET', '/api/licenses?sort=hours_remaining&order=desc', { token: admin() })).body;
    const hours = byHours.map((l) => l.compliance.hours_remaining);
    expect(hours).toEqual([...hours].sort((a, b) => b - a));

    // "Expiring within 30 days": the list filter, the dashboard's card and list, and the report say the same.
    const expiring = ids(all.filter((l) => isExpiringWithin(l, TODAY, 30)));
    const listed = (await api<License[]>(env, 'GET', '/api/licenses?expiring_within=30', { token: admin() })).body;
    expect(ids(listed)).toEqual(expiring);
    const card = (await api(env, 'GET', '/api/dashboard/expiring-licenses?days=30&limit=100', { token: admin() })).body;
    expect(card.map((l: License) => l.license_id).sort((a: number, b: number) => a - b)).toEqual(expiring);
    expect(dashboard.expiring_licenses).toBe(expiring.length); // the warning window is 30 days by default
    const report = (await api(env, 'GET', '/api/reports/licenses', { token: admin() })).body;
    expect(report.expiring_soon).toBe(expiring.length);
  });
});
