/**
 * A School records completions of its own courses (docs/decisions.md "Who may do what", "Courses and
 * completions"): for any live Agent or Broker, approved at once by the School in the same transaction (the
 * license's CE hours move as on approval), audited as the School; another School's course or an Admin's answers
 * 404. GET /api/completions/people lists the people it may name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { addDays, COMPLETION_MESSAGES, COMPLETION_PEOPLE_LIMIT } from '@lm/shared';
import { auditLogs, completions, notifications, licenses, users } from '../src/db/schema/index.ts';
import { refreshCeCache } from '../src/modules/licenses/ce-ledger.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { api, callerFor, seedBrokerage, seedUser, trpcStatus, useTestEnv, type Roles, type TestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(() => {
  ({ env, roles } = t);
});

let seq = 0;
/** A license inserted directly (the licenses domain is tested through its own API). */
async function seedLicense(userId: number, number = `SCH-${++seq}-${Date.now()}`): Promise<number> {
  return env.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number: number,
        state: 'CA',
        issue_date: '2024-01-01',
        expiration_date: '2027-01-01',
        ce_hours_required: 24,
      })
      .returning();
    await refreshCeCache(tx, row!.license_id);
    return row!.license_id;
  });
}
const ceOf = async (licenseId: number) =>
  (await env.db.select({ h: licenses.ce_hours_completed }).from(licenses).where(eq(licenses.license_id, licenseId)))[0]!.h;

/** A course owned by the given School (or by the Admin when null). */
async function seedCourse(schoolUserId: number | null, ceHours = 4.5) {
  return callerFor(env, schoolUserId ?? roles.admin.user_id).courses.create({
    course_name: `School Course ${++seq}`,
    description: 'Taught by the School',
    provider: 'Coast Academy',
    ce_hours: ceHours,
  });
}

let dateSeq = 0;
const nextDate = () => addDays('2025-02-01', ++dateSeq);
const countCompletions = async () => (await env.db.select({ id: completions.completion_id }).from(completions)).length;
const auditOf = (table: string, id: number) =>
  env.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.target_table, table), eq(auditLogs.target_id, id)))
    .orderBy(asc(auditLogs.log_id));

describe('a School records a completion of its own course (REST)', () => {
  it('is approved at once by the School, credits the linked license and is audited as the School', async () => {
    const course = await seedCourse(roles.school.user_id, 6);
    const licenseId = await seedLicense(roles.agent.user_id);
    expect(await ceOf(licenseId)).toBe(0);

    const res = await api(env, 'POST', '/api/completions', {
      token: roles.school.token,
      body: { course_id: course.course_id, user_id: roles.agent.user_id, license_id: licenseId, completion_date: nextDate() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: roles.agent.user_id,
      course_id: course.course_id,
      course_school_id: roles.school.user_id,
      license_id: licenseId,
      hours: 6,
      status: 'Approved',
      reviewed_by: roles.school.user_id,
      rating: null,
    });
    expect(Date.now() - Date.parse(res.body.reviewed_at as string)).toBeLessThan(60_000);
    const id = res.body.completion_id as number;
    expect(await ceOf(licenseId)).toBe(6);

    // The create entry and approval's own entries, all with the School as the actor.
    const trail = await auditOf('completions', id);
    expect(trail.map((r) => [r.action, r.user_id])).toEqual([
      ['create', roles.school.user_id],
      ['update_approve', roles.school.user_id],
    ]);
    expect(JSON.parse(trail[1]!.new_values!)).toMatchObject({ status: 'Approved', reviewed_by: roles.school.user_id });
    const licenseTrail = await auditOf('licenses', licenseId);
    expect(licenseTrail.map((r) => [r.action, r.user_id])).toEqual([['update_ce_hours', roles.school.user_id]]);
    expect(JSON.parse(licenseTrail[0]!.new_values!)).toMatchObject({ ce_hours_completed: 6, completion_id: id, hours: 6 });

    // The holder is told, as on an approval; the School lists it as Approved, and so does the Agent.
    const notices = await env.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, roles.agent.user_id), eq(notifications.object_id, id)));
    expect(notices.map((n) => n.event)).toEqual(['completion_approved']);
    const listed = await api(env, 'GET', `/api/completions?course_id=${course.course_id}`, { token: roles.school.token });
    expect(listed.body.map((c: { completion_id: number; status: string }) => [c.completion_id, c.status])).toEqual([[id, 'Approved']]);
    const mine = await api(env, 'GET', `/api/completions?course_id=${course.course_id}`, { token: roles.agent.token });
    expect(mine.body[0]).toMatchObject({ completion_id: id, status: 'Approved' });

    // Moving it back to Pending takes the hours back: the School reviews its own courses' completions as before.
    const reopened = await api(env, 'POST', `/api/completions/${id}/review`, { token: roles.school.token, body: { status: 'Pending' } });
    expect(reopened.status).toBe(200);
    expect(await ceOf(licenseId)).toBe(0);
    await backgroundSettled();
  });

  it('records for an Agent or Broker of any brokerage, without a license, hours defaulting to the course', async () => {
    const course = await seedCourse(roles.school.user_id, 3);
    const elsewhere = await seedUser(env, 'Broker', { brokerage_id: await seedBrokerage(env) });
    const res = await api(env, 'POST', '/api/completions', {
      token: roles.school.token,
      body: { course_id: course.course_id, user_id: elsewhere.user_id, completion_date: nextDate() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: elsewhere.user_id, license_id: null, hours: 3, status: 'Approved' });
    const partial = await api(env, 'POST', '/api/completions', {
      token: roles.school.token,
      body: { course_id: course.course_id, user_id: elsewhere.user_id, completion_date: nextDate(), hours: 1.5 },
    });
    expect(partial.body).toMatchObject({ hours: 1.5, status: 'Approved' });
    // The tRPC path the browser takes answers the same.
    const viaTrpc = await callerFor(env, roles.school.user_id).completions.create({
      course_id: course.course_id,
      user_id: roles.broker.user_id,
      completion_date: nextDate(),
    });
    expect(viaTrpc).toMatchObject({ user_id: roles.broker.user_id, status: 'Approved', reviewed_by: roles.school.user_id });
    await backgroundSettled();
  });

  it("answers 404 for another School's course and for an Admin course, and writes nothing", async () => {
    const otherSchool = await seedUser(env, 'School');
    const theirs = await seedCourse(otherSchool.user_id);
    const adminCourse = await seedCourse(null);
    const licenseId = await seedLicense(roles.agent.user_id);
    const before = await countCompletions();
    for (const course of [theirs, adminCourse]) {
      const res = await api(env, 'POST', '/api/completions', {
        token: roles.school.token,
        body: { course_id: course.course_id, user_id: roles.agent.user_id, license_id: licenseId, completion_date: nextDate() },
      });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Course not found');
    }
    expect(
      await trpcStatus(
        callerFor(env, roles.school.user_id).completions.create({
          course_id: theirs.course_id,
          user_id: roles.agent.user_id,
          completion_date: nextDate(),
        }),
      ),
    ).toBe(404);
    expect(await countCompletions()).toBe(before);
    expect(await ceOf(licenseId)).toBe(0);
  });

  it('names a live Agent or Broker: none 400, unknown, deleted or another role 404, a license of someone else 400', async () => {
    const course = await seedCourse(roles.school.user_id);
    const post = (body: Record<string, unknown>) =>
      api(env, 'POST', '/api/completions', {
        token: roles.school.token,
        body: { course_id: course.course_id, completion_date: nextDate(), ...body },
      });
    const before = await countCompletions();

    const noPerson = await post({});
    expect(noPerson.status).toBe(400);
    expect(noPerson.body.error).toBe(COMPLETION_MESSAGES.personRequired);

    const gone = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    await env.db.transaction((tx) => tx.update(users).set({ deleted_at: new Date().toISOString() }).where(eq(users.user_id, gone.user_id)));
    for (const user_id of [987_654, gone.user_id, roles.admin.user_id, roles.school.user_id]) {
      const res = await post({ user_id });
      expect(res.status, `user ${user_id}`).toBe(404);
      expect(res.body.error).toBe('User not found');
    }

    const brokersLicense = await seedLicense(roles.broker.user_id);
    const wrongLicense = await post({ user_id: roles.agent.user_id, license_id: brokersLicense });
    expect(wrongLicense.status).toBe(400);
    expect(wrongLicense.body.error).toBe(COMPLETION_MESSAGES.licenseNotOwned);
    expect(await countCompletions()).toBe(before);

    // The same person, course and date twice is a 409, as for everyone.
    const date = nextDate();
    expect((await post({ user_id: roles.agent.user_id, completion_date: date })).status).toBe(200);
    expect((await post({ user_id: roles.agent.user_id, completion_date: date })).status).toBe(409);
    await backgroundSettled();
  });

  it('an Agent still records only its own completions (403 for someone else)', async () => {
    const course = await seedCourse(roles.school.user_id);
    const colleague = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const res = await api(env, 'POST', '/api/completions', {
      token: roles.agent.token,
      body: { course_id: course.course_id, user_id: colleague.user_id, completion_date: nextDate() },
    });
    expect(res.status).toBe(403);
    const own = await api(env, 'POST', '/api/completions', {
      token: roles.agent.token,
      body: { course_id: course.course_id, completion_date: nextDate() },
    });
    expect(own.status).toBe(200);
    expect(own.body.status).toBe('Pending');
  });
});

describe('GET /api/completions/people', () => {
  it('lists live Agents and Brokers by name or license number, with their licenses, at most 20', async () => {
    const stamp = `Zq${Date.now()}`;
    const brokerage = await seedBrokerage(env);
    const agent = await seedUser(env, 'Agent', { brokerage_id: brokerage, first_name: 'Paula', last_name: `${stamp}a` });
    const broker = await seedUser(env, 'Broker', { brokerage_id: brokerage, first_name: 'Pete', last_name: `${stamp}b` });
    await seedUser(env, 'Agent', { brokerage_id: brokerage, first_name: 'Ina', last_name: `${stamp}c`, is_active: false });
    await seedUser(env, 'School', { first_name: 'Sky', last_name: `${stamp}d` });
    await seedUser(env, 'Admin', { first_name: 'Ade', last_name: `${stamp}e` });
    const licenseNumber = `PPL-${stamp}`;
    const licenseId = await seedLicense(agent.user_id, licenseNumber);

    const byName = await api(env, 'GET', `/api/completions/people?search=${stamp.toLowerCase()}`, { token: roles.school.token });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual([
      {
        user_id: agent.user_id,
        first_name: 'Paula',
        last_name: `${stamp}a`,
        licenses: [{ license_id: licenseId, license_number: licenseNumber, state: 'CA', status: 'Active' }],
      },
      { user_id: broker.user_id, first_name: 'Pete', last_name: `${stamp}b`, licenses: [] },
    ]);
    const byLicense = await api(env, 'GET', `/api/completions/people?search=${licenseNumber}`, { token: roles.admin.token });
    expect(byLicense.body.map((p: { user_id: number }) => p.user_id)).toEqual([agent.user_id]);
    const fullName = await callerFor(env, roles.school.user_id).completions.people({ search: `Pete ${stamp}` });
    expect(fullName.map((p) => p.user_id)).toEqual([broker.user_id]);

    for (let i = 0; i < COMPLETION_PEOPLE_LIMIT + 2; i++)
      await seedUser(env, 'Agent', { brokerage_id: brokerage, last_name: `Many${stamp}${i}` });
    const bounded = await api(env, 'GET', `/api/completions/people?search=Many${stamp}`, { token: roles.school.token });
    expect(bounded.body).toHaveLength(COMPLETION_PEOPLE_LIMIT);
    const all = await api(env, 'GET', '/api/completions/people', { token: roles.school.token });
    expect(all.body).toHaveLength(COMPLETION_PEOPLE_LIMIT);
    expect((await api(env, 'GET', '/api/completions/people?limit=21', { token: roles.school.token })).status).toBe(400);
    expect((await api(env, 'GET', '/api/completions/people?limit=3', { token: roles.school.token })).body).toHaveLength(3);
  });

  it('answers 403 to Brokers and Agents and 401 signed out', async () => {
    expect((await api(env, 'GET', '/api/completions/people', { token: roles.broker.token })).status).toBe(403);
    expect((await api(env, 'GET', '/api/completions/people', { token: roles.agent.token })).status).toBe(403);
    expect((await api(env, 'GET', '/api/completions/people')).status).toBe(401);
    expect(await trpcStatus(callerFor(env, roles.agent.user_id).completions.people())).toBe(403);
  });
});
