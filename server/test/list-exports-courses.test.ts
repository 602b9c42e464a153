/**
 * The Courses, Completions and State CE Rules lists: their paged procedures' server sort (every sort key, the id
 * as tie-break) and their CSV exports (server/src/http/list-export.ts): the current filtered, sorted view, in
 * the caller's scope, past one chunk, formula-safe, bad filters 400, no session 401. One describe per list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPLETION_SORT_COLUMNS, COURSE_SORT_COLUMNS, CE_RULE_SORT_COLUMNS } from '@lm/shared';
import { ceRules, completions, courses } from '../src/db/schema/index.ts';
import { EXPORT_CHUNK } from '../src/http/list-export.ts';
import { api, callerFor, parseCsv, seedBrokerage, seedUser, tokenFor, useTestEnv } from './helpers.ts';

const t = useTestEnv();

async function csv(path: string, token: string) {
  const res = await api(t.env, 'GET', path, { token });
  return { status: res.status, headers: res.headers, rows: res.status === 200 ? parseCsv(String(res.body)) : [], body: res.body };
}

const pad = (i: number) => String(i).padStart(4, '0');

/** True when `rows` are ordered by `key` in `order`, ties broken by the id in the same direction. */
function ordered<R>(rows: R[], key: (r: R) => string | number, id: (r: R) => number, order: 'asc' | 'desc'): boolean {
  const sign = order === 'asc' ? 1 : -1;
  return rows.every((r, i) => {
    if (i === 0) return true;
    const p = rows[i - 1]!;
    const a = key(p);
    const b = key(r);
    if (a !== b) return (a < b ? -1 : 1) * sign < 0;
    return (id(p) - id(r)) * sign < 0;
  });
}

describe('GET /api/courses/export and courses.page', () => {
  const many = EXPORT_CHUNK + 3;
  beforeAll(async () => {
    await t.env.db.transaction(async (tx) => {
      await tx.insert(courses).values(
        Array.from({ length: many }, (_, i) => ({
          course_name: `EXPC-${pad(i)}`,
          description: 'Exported',
          provider: `Provider ${i % 7}`,
          ce_hours: (i % 5) + 1,
          course_type: i % 2 ? ('Webinar' as const) : ('Online' as const),
          cost_cents: (i % 3) * 1000,
          topic: i % 4 === 0 ? ('Ethics' as const) : null,
          is_active: i % 6 !== 0,
        })),
      );
      await tx.insert(courses).values({
        course_name: '=HYPERLINK("http://x")',
        description: 'Formula',
        provider: 'Formula Academy',
        ce_hours: 1,
        course_type: 'In-Person',
        school_id: t.roles.school.user_id,
      });
    });
  });

  it('holds every row of the filtered view, past one chunk, in the list sort, with a header and a dated name', async () => {
    const res = await csv('/api/courses/export?course_type=Webinar&sort=course_name&order=desc', t.roles.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="courses_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual([
      'Course ID',
      'Course Name',
      'Description',
      'Provider',
      'Type',
      'CE Hours',
      'CE Topic',
      'Cost',
      'Status',
      'School',
      'Completions',
      'Created',
    ]);
    const webinars = Array.from({ length: many }, (_, i) => i).filter((i) => i % 2);
    expect(rows.map((r) => r[1])).toEqual(webinars.reverse().map((i) => `EXPC-${pad(i)}`));
    expect(new Set(rows.map((r) => r[4]))).toEqual(new Set(['Webinar']));
    const page = await api(t.env, 'GET', '/api/courses/page?course_type=Webinar&limit=1', { token: t.roles.admin.token });
    expect(page.body.pagination.total).toBe(rows.length);
  });

  it('every signed-in role reads every course; formula-like cells are neutralised; a School course names its School', async () => {
    for (const who of ['agent', 'broker', 'school'] as const) {
      const res = await csv('/api/courses/export?search=HYPERLINK', t.roles[who].token);
      expect(res.status).toBe(200);
      expect(res.rows.slice(1).map((r) => r[1])).toEqual([`'=HYPERLINK("http://x")`]);
      expect(res.rows[1]![9]).toMatch(/^School /);
    }
    const all = await csv('/api/courses/export?search=EXPC', t.roles.agent.token);
    expect(all.rows).toHaveLength(many + 1);
  });

  it('refuses a missing session and a bad filter, with a message', async () => {
    expect((await api(t.env, 'GET', '/api/courses/export')).status).toBe(401);
    const bad = await csv('/api/courses/export?course_type=Hologram', t.roles.admin.token);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
    expect(bad.body.error).not.toBe('');
    expect((await csv('/api/courses/export?sort=description', t.roles.admin.token)).status).toBe(400);
  });

  it('courses.page sorts by every key on the server, the id breaking ties, and pages with a total', async () => {
    const caller = callerFor(t.env, t.roles.agent.user_id);
    const keys: Record<(typeof COURSE_SORT_COLUMNS)[number], (c: { [k: string]: unknown }) => string | number> = {
      course_name: (c) => String(c.course_name).toLowerCase(),
      provider: (c) => String(c.provider).toLowerCase(),
      course_type: (c) => String(c.course_type),
      ce_hours: (c) => Number(c.ce_hours),
      topic: (c) => String(c.topic ?? ''),
      cost: (c) => Number(c.cost),
      is_active: (c) => (c.is_active ? 1 : 0),
      completion_count: (c) => Number(c.completion_count),
      created_at: (c) => String(c.created_at),
    };
    for (const sort of COURSE_SORT_COLUMNS) {
      for (const order of ['asc', 'desc'] as const) {
        const { courses: rows, pagination } = await caller.courses.page({ search: 'EXPC', sort, order, limit: 100, page: 2 });
        expect(pagination).toMatchObject({ page: 2, limit: 100, total: many, pages: Math.ceil(many / 100), total_capped: false });
        expect(rows).toHaveLength(100);
        expect(
          ordered(rows, keys[sort], (c) => c.course_id, order),
          `${sort} ${order}`,
        ).toBe(true);
      }
    }
    // The default is newest first; GET /api/courses still answers an array, of at most COURSE_LIST_MAX (500) courses,
    // and offset reads the rest (docs/api.md).
    const listed = await api(t.env, 'GET', '/api/courses?search=EXPC', { token: t.roles.agent.token });
    expect(Array.isArray(listed.body)).toBe(true);
    expect(listed.body).toHaveLength(Math.min(many, 500));
    const rest = await api(t.env, 'GET', '/api/courses?search=EXPC&offset=500', { token: t.roles.agent.token });
    expect(rest.body).toHaveLength(Math.min(many - 500, 500));
  });
});

describe('GET /api/completions/export and completions.page', () => {
  const many = EXPORT_CHUNK + 3;
  let course: number;
  let otherCourse: number;
  let outsider: { user_id: number; token: string };
  beforeAll(async () => {
    const { env, roles } = t;
    const brokerageId = await seedBrokerage(env, 'Completions Elsewhere');
    const other = await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'Olga', last_name: 'Outside' });
    outsider = { user_id: other.user_id, token: await tokenFor(env, other.user_id) };
    await env.db.transaction(async (tx) => {
      const [c1, c2] = await tx
        .insert(courses)
        .values([
          { course_name: 'Completions School Course', description: 'd', provider: 'p', ce_hours: 8, school_id: roles.school.user_id },
          { course_name: 'Completions Admin Course', description: 'd', provider: 'p', ce_hours: 8 },
        ])
        .returning({ id: courses.course_id });
      course = c1!.id;
      otherCourse = c2!.id;
      await tx.insert(completions).values(
        Array.from({ length: many }, (_, i) => ({
          user_id: roles.agent.user_id,
          course_id: course,
          completion_date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
          hours: (i % 8) + 1,
          status: i % 3 === 0 ? ('Approved' as const) : ('Pending' as const),
          rating: i % 5 === 0 ? null : (i % 5) + 0,
          note: i % 4 === 0 ? null : `Note ${pad(i)}`,
        })),
      );
      await tx.insert(completions).values([
        { user_id: other.user_id, course_id: otherCourse, completion_date: '2025-02-02', hours: 2, note: '=cmd|"/c calc"!A1' },
        { user_id: roles.broker.user_id, course_id: otherCourse, completion_date: '2025-02-03', hours: 3 },
      ]);
    });
  });

  it('holds every row of the filtered view, past one chunk, in the list sort, with a header and a dated name', async () => {
    const res = await csv(
      `/api/completions/export?course_id=${course}&status=Pending&sort=completion_date&order=desc`,
      t.roles.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="completions_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual([
      'Completion ID',
      'Name',
      'Course',
      'License',
      'License State',
      'Completion Date',
      'Hours',
      'Rating',
      'Status',
      'Reviewed At',
      'Note',
    ]);
    const pending = Array.from({ length: many }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(rows).toHaveLength(pending.length);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r[8]))).toEqual(new Set(['Pending']));
    expect(
      ordered(
        rows,
        (r) => r[5]!,
        (r) => Number(r[0]),
        'desc',
      ),
    ).toBe(true);
    const page = await api(t.env, 'GET', `/api/completions/page?course_id=${course}&status=Pending&limit=1`, {
      token: t.roles.admin.token,
    });
    expect(page.body.pagination.total).toBe(rows.length);
  });

  it("keeps to the caller's scope and neutralises formula-like cells", async () => {
    const own = await csv('/api/completions/export', outsider.token);
    expect(own.rows.slice(1).map((r) => r[10])).toEqual([`'=cmd|"/c calc"!A1`]);
    // The School sees its course's completions only; the Broker its own and its brokerage's; the Agent its own.
    const school = await csv('/api/completions/export', t.roles.school.token);
    expect(school.rows).toHaveLength(many + 1);
    expect(new Set(school.rows.slice(1).map((r) => r[2]))).toEqual(new Set(['Completions School Course']));
    const broker = await csv('/api/completions/export', t.roles.broker.token);
    expect(broker.rows).toHaveLength(many + 2);
    const agent = await csv('/api/completions/export', t.roles.agent.token);
    expect(agent.rows).toHaveLength(many + 1);
    const admin = await csv('/api/completions/export', t.roles.admin.token);
    expect(admin.rows).toHaveLength(many + 3);
  });

  it('refuses a missing session and a bad filter, with a message', async () => {
    expect((await api(t.env, 'GET', '/api/completions/export')).status).toBe(401);
    const bad = await csv('/api/completions/export?status=Sideways', t.roles.admin.token);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
    expect(bad.body.error).not.toBe('');
    expect((await csv('/api/completions/export?course_id=abc', t.roles.admin.token)).status).toBe(400);
  });

  it('completions.page sorts by every key on the server, the id breaking ties, searches, and pages with a total', async () => {
    const caller = callerFor(t.env, t.roles.admin.user_id);
    const keys: Record<(typeof COMPLETION_SORT_COLUMNS)[number], (c: { [k: string]: unknown }) => string | number> = {
      name: (c) => `${String(c.last_name).toLowerCase()}\u0000${String(c.first_name).toLowerCase()}`,
      course_name: (c) => String(c.course_name).toLowerCase(),
      license_number: (c) => String(c.license_number ?? ''),
      completion_date: (c) => String(c.completion_date),
      hours: (c) => Number(c.hours),
      rating: (c) => Number(c.rating ?? 0),
      status: (c) => String(c.status),
      note: (c) => String(c.note ?? ''),
      created_at: (c) => String(c.created_at),
    };
    for (const sort of COMPLETION_SORT_COLUMNS) {
      for (const order of ['asc', 'desc'] as const) {
        const { completions: rows, pagination } = await caller.completions.page({ sort, order, limit: 200 });
        expect(pagination.total).toBe(many + 2);
        expect(rows).toHaveLength(200);
        expect(
          ordered(rows, keys[sort], (c) => c.completion_id, order),
          `${sort} ${order}`,
        ).toBe(true);
      }
    }
    // Each course counts its own completions.
    const counted = await caller.courses.page({ search: 'Completions ', sort: 'completion_count', order: 'desc' });
    expect(counted.courses.map((c) => [c.course_name, c.completion_count])).toEqual([
      ['Completions School Course', many],
      ['Completions Admin Course', 2],
    ]);
    const byName = await caller.completions.page({ search: 'olga out' });
    expect(byName.completions.map((c) => c.last_name)).toEqual(['Outside']);
    const byCourse = await caller.completions.page({ search: 'admin course', sort: 'name' });
    expect(byCourse.pagination.total).toBe(2);
    const listed = await api(t.env, 'GET', '/api/completions', { token: t.roles.admin.token });
    expect(Array.isArray(listed.body)).toBe(true);
  });
});

describe('GET /api/ce-rules/export and ceRules.page', () => {
  beforeAll(async () => {
    await t.env.db.transaction(async (tx) => {
      await tx.insert(ceRules).values([
        {
          state: 'AK',
          license_type: 'Sales',
          hours_required: 20,
          cycle_years: 2,
          topics: [{ topic: 'Ethics', hours: 3 }],
          notes: '@SUM(1+1)',
        },
        { state: 'AK', license_type: 'Broker', hours_required: 24, cycle_years: 2, topics: [] },
        {
          state: 'ME',
          license_type: 'Sales',
          hours_required: 21,
          cycle_years: 3,
          topics: [
            { topic: 'Core Law', hours: 3 },
            { topic: 'Fair Housing', hours: 2 },
          ],
          notes: 'Maine',
        },
        { state: 'VT', license_type: 'Sales', hours_required: 16, cycle_years: 4, topics: [] },
      ]);
    });
  });

  it('holds the filtered view in the list sort; topics as "topic: hours"; formula-like cells neutralised', async () => {
    const res = await csv('/api/ce-rules/export?license_type=Sales&sort=hours_required&order=desc', t.roles.agent.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ce-rules_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual(['Rule ID', 'State', 'License Type', 'Hours per Cycle', 'Cycle Years', 'Required Topics', 'Notes']);
    // The migrations seed some states' rules too: look at the ones this test wrote.
    expect(new Set(rows.map((r) => r[2]))).toEqual(new Set(['Sales']));
    expect(
      ordered(
        rows,
        (r) => Number(r[3]),
        (r) => Number(r[0]),
        'desc',
      ),
    ).toBe(true);
    const mine = rows.filter((r) => ['AK', 'ME', 'VT'].includes(r[1]!));
    expect(mine.map((r) => [r[1], r[3]])).toEqual([
      ['ME', '21'],
      ['AK', '20'],
      ['VT', '16'],
    ]);
    expect(mine[0]![5]).toBe('Core Law: 3; Fair Housing: 2');
    expect(mine[1]![6]).toBe(`'@SUM(1+1)`);
    const ak = await csv('/api/ce-rules/export?state=ak', t.roles.school.token);
    expect(ak.rows.slice(1).map((r) => r[2])).toEqual(['Broker', 'Sales']);
  });

  it('refuses a missing session and a bad filter, with a message', async () => {
    expect((await api(t.env, 'GET', '/api/ce-rules/export')).status).toBe(401);
    const bad = await csv('/api/ce-rules/export?license_type=Wizard', t.roles.admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).not.toBe('');
  });

  it('ceRules.page sorts by every key on the server, the id breaking ties, and pages with a total', async () => {
    const caller = callerFor(t.env, t.roles.broker.user_id);
    const keys: Record<(typeof CE_RULE_SORT_COLUMNS)[number], (r: { [k: string]: unknown }) => string | number> = {
      state: (r) => `${String(r.state)}\u0000${String(r.license_type)}`,
      license_type: (r) => `${String(r.license_type)}\u0000${String(r.state)}`,
      hours_required: (r) => Number(r.hours_required),
      cycle_years: (r) => Number(r.cycle_years),
      topic_count: (r) => (r.topics as unknown[]).length,
      notes: (r) => String(r.notes ?? ''),
    };
    for (const sort of CE_RULE_SORT_COLUMNS) {
      for (const order of ['asc', 'desc'] as const) {
        const { rules, pagination } = await caller.ceRules.page({ sort, order, limit: 100 });
        expect(pagination.total).toBe(rules.length);
        expect(
          ordered(rules, keys[sort], (r) => r.rule_id, order),
          `${sort} ${order}`,
        ).toBe(true);
      }
    }
    const second = await caller.ceRules.page({ limit: 1, page: 2 });
    expect(second.rules).toHaveLength(1);
    expect(second.pagination.total).toBeGreaterThanOrEqual(4);
  });

  it('the three exports are described in the OpenAPI document', async () => {
    const doc = await api(t.env, 'GET', '/api/openapi.json');
    for (const path of [
      '/courses/export',
      '/completions/export',
      '/ce-rules/export',
      '/courses/page',
      '/completions/page',
      '/ce-rules/page',
    ]) {
      expect(Object.keys(doc.body.paths[path] ?? {}), path).toEqual(['get']);
    }
  });
});
