import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { addDays } from '@lm/shared';
import { auditLogs, ceAdjustments, completions, licenses } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { refreshCeCache } from '../src/modules/licenses/ce-ledger.ts';
import {
  api,
  callerFor,
  seedBrokerage,
  seedUser,
  tokenFor,
  type TestEnv,
  trpcStatus,
  roleMatrix,
  type Roles,
  useTestEnv,
} from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

let licenseSeq = 0;
/**
 * Inserts a license directly (the licenses domain is tested through its own API); starting hours are
 * an adjustment of its cycle, so the ledger explains them.
 */
async function seedLicense(userId: number, ceCompleted = 0): Promise<number> {
  return env.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number: `CE-${++licenseSeq}-${Date.now()}`,
        state: 'CA',
        issue_date: '2024-01-01',
        expiration_date: '2027-01-01',
        ce_hours_required: 24,
      })
      .returning();
    const id = row!.license_id;
    if (ceCompleted !== 0) {
      await tx
        .insert(ceAdjustments)
        .values({ license_id: id, cycle_start_date: '2024-01-01', hours: ceCompleted, reason: 'starting hours' });
    }
    await refreshCeCache(tx, id);
    return id;
  });
}
const ceOf = async (licenseId: number) =>
  (await env.db.select({ h: licenses.ce_hours_completed }).from(licenses).where(eq(licenses.license_id, licenseId)))[0]!.h;

let courseSeq = 0;
/** A course owned by the given School (or by an Admin when schoolUserId is null). */
async function seedCourse(schoolUserId: number | null, extra: Record<string, unknown> = {}) {
  const owner = schoolUserId ?? roles.admin.user_id;
  return callerFor(env, owner).courses.create({
    course_name: `Agency Law ${++courseSeq}`,
    description: 'Duties to clients',
    provider: 'Pacific Academy',
    ce_hours: 4.5,
    ...extra,
  });
}

const DAY = '2025-03-01';
let dateSeq = 0;
/** A distinct past date per call, so the duplicate rule never trips by accident. */
const nextDate = () => addDays(DAY, ++dateSeq);

beforeAll(() => {
  ({ env, roles } = t);
});

describe('OpenAPI', () => {
  it('publishes the completion paths', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/completions'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/completions/{id}/review'] ?? {})).toEqual(['post']);
  });
});

describe('acceptance 4: an Agent completion, approved by the School', () => {
  it('starts Pending, approval adds exactly the course hours, another Agent cannot see it, and the course cannot be deleted', async () => {
    const course = await seedCourse(roles.school.user_id, { ce_hours: 7.5 });
    const licenseId = await seedLicense(roles.agent.user_id, 2);

    const created = await api(env, 'POST', '/api/completions', {
      token: roles.agent.token,
      body: { course_id: course.course_id, license_id: licenseId, completion_date: nextDate(), rating: 5 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'Pending',
      hours: 7.5,
      user_id: roles.agent.user_id,
      course_name: course.course_name,
      license_number: expect.any(String),
      first_name: 'Agent',
      rating: 5,
      reviewed_by: null,
    });
    const id = created.body.completion_id as number;
    expect(await ceOf(licenseId)).toBe(2);

    const other = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const otherToken = await tokenFor(env, other.user_id);
    const otherList = await api(env, 'GET', '/api/completions', { token: otherToken });
    expect(otherList.status).toBe(200);
    expect(otherList.body.map((c: { completion_id: number }) => c.completion_id)).not.toContain(id);

    const approved = await api(env, 'POST', `/api/completions/${id}/review`, {
      token: roles.school.token,
      body: { status: 'Approved', note: 'Certificate checked' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'Approved', note: 'Certificate checked', reviewed_by: roles.school.user_id });
    expect(approved.body.reviewed_at).toEqual(expect.any(String));
    expect(await ceOf(licenseId)).toBe(9.5);

    const mine = await api(env, 'GET', '/api/completions', { token: roles.agent.token });
    expect(mine.body.find((c: { completion_id: number }) => c.completion_id === id).status).toBe('Approved');

    const del = await api(env, 'DELETE', `/api/courses/${course.course_id}`, { token: roles.school.token });
    expect(del.status).toBe(409);
    expect(del.body.error).toMatch(/deactivate/i);
  });
});

describe('review moves the hours exactly once', () => {
  it('approve credits, re-approve does not double, reject and reopen take them back; below 0 is a 409, never a clamp', async () => {
    const course = await seedCourse(roles.school.user_id, { ce_hours: 3 });
    const licenseId = await seedLicense(roles.agent.user_id, 10);
    const school = callerFor(env, roles.school.user_id);
    const c = await callerFor(env, roles.agent.user_id).completions.create({
      course_id: course.course_id,
      license_id: licenseId,
      completion_date: nextDate(),
      hours: 2.5,
    });
    expect(c.hours).toBe(2.5);
    await school.completions.review({ id: c.completion_id, status: 'Approved' });
    expect(await ceOf(licenseId)).toBe(12.5);
    await school.completions.review({ id: c.completion_id, status: 'Approved', note: 'again' });
    expect(await ceOf(licenseId)).toBe(12.5);
    const rejected = await school.completions.review({ id: c.completion_id, status: 'Rejected', note: 'Wrong certificate' });
    expect(rejected).toMatchObject({ status: 'Rejected', note: 'Wrong certificate' });
    expect(await ceOf(licenseId)).toBe(10);
    await school.completions.review({ id: c.completion_id, status: 'Pending' });
    expect(await ceOf(licenseId)).toBe(10);
    const admin = callerFor(env, roles.admin.user_id);
    await admin.completions.review({ id: c.completion_id, status: 'Approved' });
    expect(await ceOf(licenseId)).toBe(12.5);
    const reopened = await admin.completions.review({ id: c.completion_id, status: 'Pending' });
    expect(reopened).toMatchObject({ status: 'Pending', reviewed_by: null, reviewed_at: null, note: 'Wrong certificate' });
    expect(await ceOf(licenseId)).toBe(10);

    // Someone adjusted the hours down meanwhile: taking the completion back would leave the cycle below
    // 0, so the review answers 409 with what is in the cycle and changes nothing.
    await admin.completions.review({ id: c.completion_id, status: 'Approved' });
    await admin.licenses.adjust({ id: licenseId, hours: -11.5, reason: 'Certificates withdrawn' });
    expect(await ceOf(licenseId)).toBe(1);
    const refused = await api(env, 'POST', `/api/completions/${c.completion_id}/review`, {
      token: roles.admin.token,
      body: { status: 'Rejected' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('This cycle has 1 CE hour; taking 2.5 away would leave it below 0.');
    expect(await ceOf(licenseId)).toBe(1);
    expect((await env.db.select().from(completions).where(eq(completions.completion_id, c.completion_id)))[0]!.status).toBe('Approved');

    const trail = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'completions'), eq(auditLogs.target_id, c.completion_id)))
    ).map((r) => r.action);
    expect(trail).toEqual([
      'create',
      'update_approve',
      'update_approve',
      'update_reject',
      'update_reopen',
      'update_approve',
      'update_reopen',
      'update_approve',
    ]);
    const licenseTrail = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, licenseId)));
    expect(licenseTrail.map((r) => r.action)).toEqual(Array(6).fill('update_ce_hours'));
    expect(JSON.parse(licenseTrail[0]!.new_values!).ce_hours_completed).toBe(12.5);
  });

  it('a completion without a license changes no license', async () => {
    const course = await seedCourse(null);
    const licenseId = await seedLicense(roles.agent.user_id, 4);
    const c = await callerFor(env, roles.agent.user_id).completions.create({ course_id: course.course_id, completion_date: nextDate() });
    expect(c.license_id).toBeNull();
    expect(c.hours).toBe(4.5);
    await callerFor(env, roles.admin.user_id).completions.review({ id: c.completion_id, status: 'Approved' });
    expect(await ceOf(licenseId)).toBe(4);
  });

  it('the ledger sums tenths without drift and knows no missing license', async () => {
    const licenseId = await seedLicense(roles.agent.user_id, 1.5);
    const admin = callerFor(env, roles.admin.user_id);
    expect((await admin.licenses.adjust({ id: licenseId, hours: 0.1, reason: 'a' })).ce_hours_completed).toBe(1.6);
    expect((await admin.licenses.adjust({ id: licenseId, hours: 0.2, reason: 'b' })).ce_hours_completed).toBe(1.8);
    expect(await trpcStatus(admin.licenses.adjust({ id: licenseId, hours: -5, reason: 'c' }))).toBe(409);
    expect(await ceOf(licenseId)).toBe(1.8);
    expect(await env.db.transaction((tx) => refreshCeCache(tx, 987_654))).toBeNull();
  });

  it('a completion dated outside every cycle of its license is refused (400)', async () => {
    const course = await seedCourse(null);
    const licenseId = await seedLicense(roles.agent.user_id);
    const res = await api(env, 'POST', '/api/completions', {
      token: roles.agent.token,
      body: { course_id: course.course_id, license_id: licenseId, completion_date: '2023-12-31' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Completion date must fall within a CE cycle of the license (from 2024-01-01 to 2027-01-01)');
  });
});

describe('recording rules', () => {
  it('answers 400 with a human message for bad input and changes nothing', async () => {
    const course = await seedCourse(roles.school.user_id, { ce_hours: 3 });
    const inactive = await seedCourse(roles.school.user_id, { is_active: false });
    const othersLicense = await seedLicense(roles.broker.user_id);
    const t = roles.agent.token;
    const count = async () => (await env.db.select().from(completions)).length;
    const before = await count();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ course_id: undefined }, 400, 'Course is required'],
      [{ completion_date: '' }, 400, 'Completion date is required'],
      [{ completion_date: '2025-02-30x' }, 400, 'Use the date format YYYY-MM-DD'],
      [{ completion_date: addDays(today(), 2) }, 400, 'Completion date cannot be in the future'],
      [{ hours: 0 }, 400, 'Hours must be greater than 0'],
      [{ hours: 3.5 }, 400, "Hours cannot exceed the course's CE hours"],
      [{ rating: 6 }, 400, 'Rating must be a whole number from 1 to 5'],
      [{ license_id: othersLicense }, 400, 'The license must belong to the person who completed the course'],
      [{ license_id: 987_654 }, 400, 'The license must belong to the person who completed the course'],
      [{ course_id: inactive.course_id }, 400, 'This course is not active'],
      [{ course_id: 987_654 }, 404, 'Course not found'],
      [{ user_id: roles.broker.user_id }, 403, 'You can only record your own completions'],
    ];
    for (const [extra, status, message] of cases) {
      const res = await api(env, 'POST', '/api/completions', {
        token: t,
        body: { course_id: course.course_id, completion_date: nextDate(), ...extra },
      });
      expect(res.status, message).toBe(status);
      expect(res.body.error).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it('refuses the same course on the same day twice (409) unless the first was rejected', async () => {
    const course = await seedCourse(roles.school.user_id);
    const date = nextDate();
    const agent = callerFor(env, roles.agent.user_id);
    const first = await agent.completions.create({ course_id: course.course_id, completion_date: date });
    const again = await api(env, 'POST', '/api/completions', {
      token: roles.agent.token,
      body: { course_id: course.course_id, completion_date: date },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('This completion has already been recorded');
    await callerFor(env, roles.school.user_id).completions.review({ id: first.completion_id, status: 'Rejected', note: 'Blurry' });
    expect(await trpcStatus(agent.completions.create({ course_id: course.course_id, completion_date: date }))).toBe(200);
  });

  it('a Broker records for its agents and itself, not for another brokerage; an Admin for any Agent or Broker only', async () => {
    const course = await seedCourse(null);
    const agentLicense = await seedLicense(roles.agent.user_id);
    const broker = callerFor(env, roles.broker.user_id);
    const forAgent = await broker.completions.create({
      course_id: course.course_id,
      user_id: roles.agent.user_id,
      license_id: agentLicense,
      completion_date: nextDate(),
    });
    expect(forAgent).toMatchObject({ user_id: roles.agent.user_id, license_id: agentLicense, status: 'Pending' });
    expect(await trpcStatus(broker.completions.create({ course_id: course.course_id, completion_date: nextDate() }))).toBe(200);

    const elsewhere = await seedUser(env, 'Agent', { brokerage_id: await seedBrokerage(env) });
    const res = await api(env, 'POST', '/api/completions', {
      token: roles.broker.token,
      body: { course_id: course.course_id, user_id: elsewhere.user_id, completion_date: nextDate() },
    });
    expect(res.status).toBe(404);

    const admin = callerFor(env, roles.admin.user_id);
    expect(
      await trpcStatus(admin.completions.create({ course_id: course.course_id, user_id: elsewhere.user_id, completion_date: nextDate() })),
    ).toBe(200);
    const forSchool = await api(env, 'POST', '/api/completions', {
      token: roles.admin.token,
      body: { course_id: course.course_id, user_id: roles.school.user_id, completion_date: nextDate() },
    });
    expect(forSchool.status).toBe(400);
    expect(forSchool.body.error).toBe('Completions can only be recorded for Agents and Brokers');
    // An Admin has no licenses: recording for itself is refused the same way.
    expect(await trpcStatus(admin.completions.create({ course_id: course.course_id, completion_date: nextDate() }))).toBe(400);
  });
});

describe('scopes', () => {
  it('Admin sees all; Broker its brokerage; Agent its own; School its own courses', async () => {
    const otherBrokerage = await seedBrokerage(env);
    const outsider = await seedUser(env, 'Agent', { brokerage_id: otherBrokerage });
    const otherSchool = await seedUser(env, 'School');
    const mineCourse = await seedCourse(roles.school.user_id);
    const theirCourse = await seedCourse(otherSchool.user_id);
    const admin = callerFor(env, roles.admin.user_id);
    const inAgent = await admin.completions.create({
      course_id: mineCourse.course_id,
      user_id: roles.agent.user_id,
      completion_date: nextDate(),
    });
    const inOutsider = await admin.completions.create({
      course_id: theirCourse.course_id,
      user_id: outsider.user_id,
      completion_date: nextDate(),
    });

    const ids = async (role: { user_id: number }) => (await callerFor(env, role.user_id).completions.list()).map((c) => c.completion_id);
    expect(await ids(roles.admin)).toEqual(expect.arrayContaining([inAgent.completion_id, inOutsider.completion_id]));
    expect(await ids(roles.broker)).toContain(inAgent.completion_id);
    expect(await ids(roles.broker)).not.toContain(inOutsider.completion_id);
    expect(await ids(roles.agent)).toContain(inAgent.completion_id);
    expect(await ids(roles.agent)).not.toContain(inOutsider.completion_id);
    expect(await ids(outsider)).toEqual([inOutsider.completion_id]);
    expect(await ids(roles.school)).toContain(inAgent.completion_id);
    expect(await ids(roles.school)).not.toContain(inOutsider.completion_id);
    expect(await ids(otherSchool)).toEqual([inOutsider.completion_id]);

    // The REST list honours the same scope and the filters.
    const rest = await api(env, 'GET', `/api/completions?status=Pending&course_id=${theirCourse.course_id}`, { token: roles.broker.token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual([]);
    const restAdmin = await api(env, 'GET', `/api/completions?course_id=${theirCourse.course_id}`, { token: roles.admin.token });
    expect(restAdmin.body.map((c: { completion_id: number }) => c.completion_id)).toEqual([inOutsider.completion_id]);
    expect(restAdmin.body[0]).toMatchObject({ first_name: 'Agent', course_name: theirCourse.course_name, license_number: null });

    // A School cannot review another School's completions (404, out of scope).
    const cross = await api(env, 'POST', `/api/completions/${inOutsider.completion_id}/review`, {
      token: roles.school.token,
      body: { status: 'Approved' },
    });
    expect(cross.status).toBe(404);
    expect(
      (await api(env, 'POST', '/api/completions/987654/review', { token: roles.admin.token, body: { status: 'Approved' } })).status,
    ).toBe(404);
    const badStatus = await api(env, 'POST', `/api/completions/${inAgent.completion_id}/review`, {
      token: roles.admin.token,
      body: { status: 'Done' },
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error).toBe('Status must be Approved, Rejected or Pending');
  });

  it('myLicenses lists only the licenses in the caller scope', async () => {
    const mine = await seedLicense(roles.agent.user_id);
    const outsider = await seedUser(env, 'Agent', { brokerage_id: await seedBrokerage(env) });
    const theirs = await seedLicense(outsider.user_id);
    const list = async (id: number, input?: { user_id?: number }) =>
      (await callerFor(env, id).completions.myLicenses(input)).map((l) => l.license_id);
    expect(await list(roles.agent.user_id)).toContain(mine);
    expect(await list(roles.agent.user_id)).not.toContain(theirs);
    expect(await list(roles.broker.user_id)).toContain(mine);
    expect(await list(roles.broker.user_id)).not.toContain(theirs);
    expect(await list(roles.admin.user_id, { user_id: outsider.user_id })).toEqual([theirs]);
    expect(await trpcStatus(callerFor(env, roles.school.user_id).completions.myLicenses())).toBe(403);
  });
});

describe('role x action', () => {
  async function fixture() {
    const course = await seedCourse(roles.school.user_id);
    const pending = await callerFor(env, roles.agent.user_id).completions.create({
      course_id: course.course_id,
      completion_date: nextDate(),
    });
    return { course, pending };
  }

  roleMatrix(
    t,
    'list, record, review',
    { admin: [200, 200, 200], broker: [200, 200, 403], agent: [200, 200, 403], school: [200, 200, 200] },
    {
      rest: async (token) => {
        const { course, pending } = await fixture();
        const list = await api(env, 'GET', '/api/completions', { token });
        const record = await api(env, 'POST', '/api/completions', {
          token,
          body: { course_id: course.course_id, user_id: roles.agent.user_id, completion_date: nextDate() },
        });
        const review = await api(env, 'POST', `/api/completions/${pending.completion_id}/review`, { token, body: { status: 'Rejected' } });
        return [list.status, record.status, review.status];
      },
      trpc: async (caller) => {
        const { course, pending } = await fixture();
        return [
          await trpcStatus(caller.completions.list()),
          await trpcStatus(
            caller.completions.create({ course_id: course.course_id, user_id: roles.agent.user_id, completion_date: nextDate() }),
          ),
          await trpcStatus(caller.completions.review({ id: pending.completion_id, status: 'Approved' })),
        ];
      },
    },
  );

  it('answers 401 signed out, on REST and tRPC', async () => {
    expect((await api(env, 'GET', '/api/completions')).status).toBe(401);
    expect(await trpcStatus(callerFor(env, null).completions.list())).toBe(401);
  });
});
