import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, completions, courses } from '../src/db/schema/index.ts';
import { api, callerFor, seedUser, tokenFor, type TestEnv, trpcStatus, roleMatrix, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(() => {
  ({ env, roles } = t);
});

let n = 0;
const body = (extra: Record<string, unknown> = {}) => ({
  course_name: `Fair Housing ${++n}`,
  description: 'Federal and state fair housing law',
  provider: 'Pacific Academy',
  ce_hours: 3,
  ...extra,
});

function adminCourse(extra: Record<string, unknown> = {}) {
  return callerFor(env, roles.admin.user_id).courses.create(body(extra));
}

describe('OpenAPI', () => {
  it('publishes the course paths', async () => {
    const res = await api(env, 'GET', '/api/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/courses'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/courses/{id}'] ?? {})).toEqual(expect.arrayContaining(['put', 'delete']));
  });
});

describe('REST validation and defaults (acceptance 3)', () => {
  it('answers 400 with the spec messages', async () => {
    const t = roles.admin.token;
    const zero = await api(env, 'POST', '/api/courses', { token: t, body: body({ ce_hours: 0 }) });
    expect(zero.status).toBe(400);
    expect(zero.body.error).toBe('CE hours must be greater than 0');
    expect(zero.body.issues).toContainEqual({ path: 'ce_hours', message: 'CE hours must be greater than 0' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ course_name: '  ' }, 'Course name is required'],
      [{ description: '' }, 'Description is required'],
      [{ provider: undefined }, 'Provider is required'],
      [{ ce_hours: undefined }, 'CE hours must be greater than 0'],
      [{ ce_hours: -1 }, 'CE hours must be greater than 0'],
      [{ cost: -5 }, 'Cost cannot be negative'],
      [{ cost: 1.005 }, 'Cost must have at most 2 decimals'],
    ];
    for (const [extra, message] of cases) {
      const res = await api(env, 'POST', '/api/courses', { token: t, body: body(extra) });
      expect(res.status, message).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const before = (await env.db.select().from(courses)).length;
    expect(before).toBe(0);
  });

  it('applies the defaults Online, cost 0, active, and keeps cost to 2 decimals', async () => {
    const res = await api(env, 'POST', '/api/courses', { token: roles.admin.token, body: body() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ course_type: 'Online', cost: 0, is_active: true, school_id: null, completion_count: 0 });
    expect(res.body.course_id).toEqual(expect.any(Number));
    const priced = await api(env, 'POST', '/api/courses', {
      token: roles.admin.token,
      body: body({ cost: 49.99, course_type: 'Webinar', ce_hours: 1.5 }),
    });
    expect(priced.status).toBe(200);
    expect(priced.body.cost).toBe(49.99);
    expect(priced.body.ce_hours).toBe(1.5);
    const row = (await env.db.select().from(courses).where(eq(courses.course_id, priced.body.course_id)))[0]!;
    expect(row.cost_cents).toBe(4999);
    const updated = await api(env, 'PUT', `/api/courses/${priced.body.course_id}`, { token: roles.admin.token, body: { cost: 0.1 } });
    expect(updated.status).toBe(200);
    expect(updated.body.cost).toBe(0.1);
    expect(updated.body.course_type).toBe('Webinar');
    const listed = await api(env, 'GET', '/api/courses', { token: roles.agent.token });
    expect(listed.body.find((c: { course_id: number }) => c.course_id === priced.body.course_id).cost).toBe(0.1);
  });
});

describe('role x action', () => {
  roleMatrix(
    t,
    "list, create, update an Admin's course, delete an Admin's course",
    { admin: [200, 200, 200, 200], broker: [200, 403, 403, 403], agent: [200, 403, 403, 403], school: [200, 200, 403, 403] },
    {
      rest: async (token) => {
        const target = await adminCourse();
        const list = await api(env, 'GET', '/api/courses', { token });
        const create = await api(env, 'POST', '/api/courses', { token, body: body() });
        const update = await api(env, 'PUT', `/api/courses/${target.course_id}`, { token, body: { provider: 'Changed' } });
        const del = await api(env, 'DELETE', `/api/courses/${target.course_id}`, { token });
        if (del.status === 200) expect(del.body).toEqual({ success: true });
        if (list.status === 200) expect(Array.isArray(list.body)).toBe(true);
        return [list.status, create.status, update.status, del.status];
      },
      trpc: async (caller) => {
        const target = await adminCourse();
        return [
          await trpcStatus(caller.courses.list()),
          await trpcStatus(caller.courses.create(body())),
          await trpcStatus(caller.courses.update({ id: target.course_id, provider: 'Changed' })),
          await trpcStatus(caller.courses.delete({ id: target.course_id })),
        ];
      },
    },
  );

  it('answers 401 signed out, on REST and tRPC', async () => {
    expect((await api(env, 'GET', '/api/courses')).status).toBe(401);
    expect((await api(env, 'POST', '/api/courses', { body: body() })).status).toBe(401);
    expect(await trpcStatus(callerFor(env, null).courses.list())).toBe(401);
  });
});

describe('School ownership', () => {
  it("a School creates, edits and deletes its own courses, not an Admin's or another School's", async () => {
    const school = roles.school;
    const own = await api(env, 'POST', '/api/courses', { token: school.token, body: body({ school_id: 999_999 }) });
    expect(own.status).toBe(200);
    expect(own.body.school_id).toBe(school.user_id); // a School always owns what it creates
    const edit = await api(env, 'PUT', `/api/courses/${own.body.course_id}`, {
      token: school.token,
      body: { course_name: 'Ethics Renewed', is_active: false },
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ course_name: 'Ethics Renewed', is_active: false, school_id: school.user_id });

    const admins = await adminCourse();
    const denied = await api(env, 'PUT', `/api/courses/${admins.course_id}`, { token: school.token, body: { course_name: 'Mine now' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('You can only manage your own courses');
    expect((await env.db.select().from(courses).where(eq(courses.course_id, admins.course_id)))[0]!.course_name).toBe(admins.course_name);

    const other = await seedUser(env, 'School');
    const othersCourse = await callerFor(env, other.user_id).courses.create(body());
    const t2 = await api(env, 'DELETE', `/api/courses/${othersCourse.course_id}`, { token: school.token });
    expect(t2.status).toBe(403);
    const giveAway = await api(env, 'PUT', `/api/courses/${own.body.course_id}`, {
      token: school.token,
      body: { school_id: other.user_id },
    });
    expect(giveAway.status).toBe(403);

    expect((await api(env, 'PUT', '/api/courses/987654', { token: school.token, body: { provider: 'x' } })).status).toBe(404);
    expect((await api(env, 'DELETE', `/api/courses/${own.body.course_id}`, { token: school.token })).status).toBe(200);
  });

  it('an Admin may assign a course to a School user, and only to a School user', async () => {
    const ok = await api(env, 'POST', '/api/courses', { token: roles.admin.token, body: body({ school_id: roles.school.user_id }) });
    expect(ok.status).toBe(200);
    expect(ok.body.school_id).toBe(roles.school.user_id);
    const bad = await api(env, 'POST', '/api/courses', { token: roles.admin.token, body: body({ school_id: roles.agent.user_id }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('The course owner must be a School user');
  });
});

describe('list filters', () => {
  it('filters by is_active (string booleans), course_type, search and school_id', async () => {
    const school = await seedUser(env, 'School');
    const sc = callerFor(env, school.user_id);
    const a = await sc.courses.create(body({ course_name: 'Zebra Contracts Intensive', course_type: 'In-Person' }));
    const b = await sc.courses.create(body({ course_name: 'Zebra Ethics', is_active: false }));
    const token = await tokenFor(env, roles.broker.user_id);
    const ids = (res: { body: Array<{ course_id: number }> }) => res.body.map((c) => c.course_id);

    const mine = await api(env, 'GET', `/api/courses?school_id=${school.user_id}`, { token });
    expect(ids(mine).sort()).toEqual([a.course_id, b.course_id].sort());
    const inactive = await api(env, 'GET', `/api/courses?school_id=${school.user_id}&is_active=false`, { token });
    expect(ids(inactive)).toEqual([b.course_id]);
    const active = await api(env, 'GET', `/api/courses?school_id=${school.user_id}&is_active=true`, { token });
    expect(ids(active)).toEqual([a.course_id]);
    const inPerson = await api(env, 'GET', `/api/courses?school_id=${school.user_id}&course_type=In-Person`, { token });
    expect(ids(inPerson)).toEqual([a.course_id]);
    const search = await api(env, 'GET', '/api/courses?search=zebra%20con', { token });
    expect(ids(search)).toEqual([a.course_id]);
    const pct = await api(env, 'GET', '/api/courses?search=%25', { token });
    expect(pct.status).toBe(200);
    expect(pct.body).toEqual([]);
    const badType = await api(env, 'GET', '/api/courses?course_type=Podcast', { token });
    expect(badType.status).toBe(400);

    const viaTrpc = await callerFor(env, roles.agent.user_id).courses.list({ school_id: school.user_id, is_active: 'false' });
    expect(viaTrpc.map((c) => c.course_id)).toEqual([b.course_id]);
  });
});

describe('delete', () => {
  it('refuses a course with completions (409, deactivate instead) and audits every change', async () => {
    const course = await adminCourse();
    await env.db.transaction(async (tx) => {
      await tx
        .insert(completions)
        .values({ user_id: roles.agent.user_id, course_id: course.course_id, completion_date: '2025-01-10', hours: 3 });
    });
    const res = await api(env, 'DELETE', `/api/courses/${course.course_id}`, { token: roles.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This course has completions and cannot be deleted. Deactivate it instead.');
    expect(await trpcStatus(callerFor(env, roles.admin.user_id).courses.delete({ id: course.course_id }))).toBe(409);
    const listed = await api(env, 'GET', '/api/courses', { token: roles.admin.token });
    expect(listed.body.find((c: { course_id: number }) => c.course_id === course.course_id).completion_count).toBe(1);
    const deactivated = await api(env, 'PUT', `/api/courses/${course.course_id}`, { token: roles.admin.token, body: { is_active: false } });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.is_active).toBe(false);

    const free = await adminCourse();
    expect((await api(env, 'DELETE', `/api/courses/${free.course_id}`, { token: roles.admin.token })).body).toEqual({ success: true });
    const actions = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'courses'), eq(auditLogs.target_id, free.course_id)))
    ).map((r) => r.action);
    expect(actions).toEqual(['create', 'delete']);
    const upd = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'courses'), eq(auditLogs.target_id, course.course_id), eq(auditLogs.action, 'update')))
    )[0]!;
    expect(JSON.parse(upd.old_values!).is_active).toBe(true);
    expect(JSON.parse(upd.new_values!).is_active).toBe(false);
    expect(upd.user_id).toBe(roles.admin.user_id);
  });
});
