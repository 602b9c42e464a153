/**
 * State CE rules (docs/decisions.md "CE ledger and cycles"): CRUD with Admin writes and signed-in reads,
 * validation, and their effect on cycles: required hours and length at renewal, topics counted live.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, ceRules } from '../src/db/schema/index.ts';
import { api, callerFor, trpcStatus, type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

const TX_RULE = {
  state: 'tx',
  license_type: 'Sales' as const,
  hours_required: 18,
  cycle_years: 2,
  topics: [
    { topic: 'Legal Update I' as const, hours: 4 },
    { topic: 'Legal Update II' as const, hours: 4 },
    { topic: 'Contracts' as const, hours: 3 },
  ],
  notes: 'TREC: 18 hours every 2 years',
};

describe('CRUD, roles and validation', () => {
  it('Admin creates, updates and deletes (audited); every signed-in role reads; others 403/401', async () => {
    const created = await api(env, 'POST', '/api/ce-rules', { token: roles.admin.token, body: { ...TX_RULE, state: 'NV' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ state: 'NV', license_type: 'Sales', hours_required: 18, cycle_years: 2, topics: TX_RULE.topics });
    const id = created.body.rule_id as number;

    for (const r of [roles.admin, roles.broker, roles.agent, roles.school]) {
      const list = await api(env, 'GET', '/api/ce-rules', { token: r.token });
      expect(list.status).toBe(200);
      expect(list.body.map((x: { rule_id: number }) => x.rule_id)).toContain(id);
      expect(await trpcStatus(callerFor(env, r.user_id).ceRules.list())).toBe(200);
    }
    expect((await api(env, 'GET', '/api/ce-rules')).status).toBe(401);

    for (const r of [roles.broker, roles.agent, roles.school]) {
      expect((await api(env, 'POST', '/api/ce-rules', { token: r.token, body: { ...TX_RULE, state: 'NM' } })).status).toBe(403);
      expect((await api(env, 'PUT', `/api/ce-rules/${id}`, { token: r.token, body: { hours_required: 20 } })).status).toBe(403);
      expect((await api(env, 'DELETE', `/api/ce-rules/${id}`, { token: r.token })).status).toBe(403);
      const caller = callerFor(env, r.user_id);
      expect(await trpcStatus(caller.ceRules.create({ ...TX_RULE, state: 'NM' }))).toBe(403);
      expect(await trpcStatus(caller.ceRules.update({ id, hours_required: 20 }))).toBe(403);
      expect(await trpcStatus(caller.ceRules.delete({ id }))).toBe(403);
    }

    const updated = await api(env, 'PUT', `/api/ce-rules/${id}`, {
      token: roles.admin.token,
      body: { hours_required: 24, cycle_years: 4 },
    });
    expect(updated.body).toMatchObject({ hours_required: 24, cycle_years: 4 });
    const dup = await api(env, 'POST', '/api/ce-rules', { token: roles.admin.token, body: { ...TX_RULE, state: 'NV' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('A CE rule for NV Sales licenses already exists');

    expect((await api(env, 'DELETE', `/api/ce-rules/${id}`, { token: roles.admin.token })).body).toEqual({ success: true });
    expect((await api(env, 'DELETE', `/api/ce-rules/${id}`, { token: roles.admin.token })).status).toBe(404);
    const trail = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'ce_rules'), eq(auditLogs.target_id, id)))
    ).map((a) => a.action);
    expect(trail).toEqual(['create', 'update', 'delete']);
  });

  it('refuses bad rules with a clear 400 and changes nothing', async () => {
    const before = (await env.db.select().from(ceRules)).length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...TX_RULE, state: 'Texas' }, 'State must be a two-letter code'],
      [{ ...TX_RULE, topics: [{ topic: 'Knitting', hours: 2 }] }, 'Topic must be one of'],
      [{ ...TX_RULE, hours_required: 10 }, "The topics' hours cannot exceed the hours required per cycle"],
      [{ ...TX_RULE, cycle_years: 0 }, 'Cycle length must be a whole number of years from 1 to 10'],
      [{ ...TX_RULE, topics: [...TX_RULE.topics, { topic: 'Contracts', hours: 1 }] }, 'Each topic may appear only once in a rule'],
      [{ ...TX_RULE, hours_required: -1 }, 'Hours required must be a number from 0 to 1000'],
    ];
    for (const [body, message] of cases) {
      const res = await api(env, 'POST', '/api/ce-rules', { token: roles.admin.token, body });
      expect(res.status, message).toBe(400);
      expect(res.body.error).toContain(message);
    }
    const ok = await api(env, 'POST', '/api/ce-rules', { token: roles.admin.token, body: { ...TX_RULE, state: 'OR' } });
    const shrink = await api(env, 'PUT', `/api/ce-rules/${ok.body.rule_id}`, { token: roles.admin.token, body: { hours_required: 5 } });
    expect(shrink.status).toBe(400);
    expect(shrink.body.error).toBe("The topics' hours cannot exceed the hours required per cycle");
    expect((await env.db.select().from(ceRules)).length).toBe(before + 1);
    // A course topic must be one of the CE topics too.
    const course = await api(env, 'POST', '/api/courses', {
      token: roles.admin.token,
      body: { course_name: 'Bad topic', description: 'x', provider: 'y', ce_hours: 2, topic: 'Knitting' },
    });
    expect(course.status).toBe(400);
  });
});

describe('must show 3: a rule sets the next cycle; a course topic counts toward the rule topic', () => {
  it('the transcript shows remaining hours per topic; after renewal the rule sets required hours and cycle length', async () => {
    const rule = await api(env, 'POST', '/api/ce-rules', { token: roles.admin.token, body: TX_RULE });
    expect(rule.status).toBe(200);
    const lic = await api(env, 'POST', '/api/licenses', {
      token: roles.admin.token,
      body: {
        user_id: roles.agent.user_id,
        license_number: 'TX-RULE-1',
        state: 'TX',
        license_type: 'Sales',
        issue_date: '2024-05-01',
        expiration_date: '2026-05-01',
        ce_hours_required: 12,
      },
    });
    const id = lic.body.license_id as number;
    const course = await api(env, 'POST', '/api/courses', {
      token: roles.admin.token,
      body: {
        course_name: 'Texas Legal Update I',
        description: 'TREC',
        provider: 'Lone Star School',
        ce_hours: 4,
        topic: 'Legal Update I',
      },
    });
    expect(course.body.topic).toBe('Legal Update I');
    const rec = await api(env, 'POST', '/api/completions', {
      token: roles.agent.token,
      body: { course_id: course.body.course_id, license_id: id, completion_date: '2025-09-01' },
    });
    await api(env, 'POST', `/api/completions/${rec.body.completion_id}/review`, { token: roles.admin.token, body: { status: 'Approved' } });

    const t = await api(env, 'GET', `/api/licenses/${id}/transcript`, { token: roles.agent.token });
    expect(t.status).toBe(200);
    expect(t.body.current).toMatchObject({
      required: 12,
      completed: 4,
      remaining: 8,
      complete: false,
      rule: { rule_id: rule.body.rule_id, state: 'TX', license_type: 'Sales' },
    });
    expect(t.body.current.topics).toEqual([
      { topic: 'Legal Update I', required: 4, completed: 4, remaining: 0 },
      { topic: 'Legal Update II', required: 4, completed: 0, remaining: 4 },
      { topic: 'Contracts', required: 3, completed: 0, remaining: 3 },
    ]);
    expect(t.body.current.completions[0]).toMatchObject({ topic: 'Legal Update I', hours: 4, provider: 'Lone Star School' });

    // Hours alone do not complete a cycle with topics outstanding.
    await api(env, 'POST', `/api/licenses/${id}/adjustments`, {
      token: roles.admin.token,
      body: { hours: 8, reason: 'Electives on file' },
    });
    const preview = await api(env, 'GET', `/api/licenses/${id}/renewal-preview`, { token: roles.admin.token });
    expect(preview.body).toMatchObject({
      completed: 12,
      remaining: 0,
      complete: false,
      outstanding_topics: [
        { topic: 'Legal Update II', remaining: 4 },
        { topic: 'Contracts', remaining: 3 },
      ],
      next_required: 18,
      cycle_years: 2,
      new_expiration_date: '2028-05-01',
    });
    expect((await api(env, 'POST', `/api/licenses/${id}/renew`, { token: roles.admin.token })).status).toBe(409);

    // A 4-year rule: the renewal takes its length and hours.
    await api(env, 'PUT', `/api/ce-rules/${rule.body.rule_id}`, { token: roles.admin.token, body: { cycle_years: 4 } });
    const renewed = await api(env, 'POST', `/api/licenses/${id}/renew`, { token: roles.admin.token, body: { allow_incomplete: true } });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ expiration_date: '2030-05-01', ce_hours_required: 18, ce_hours_completed: 0 });
    const after = (await api(env, 'GET', `/api/licenses/${id}/transcript`, { token: roles.admin.token })).body;
    expect(after.current).toMatchObject({ required: 18, completed: 0, remaining: 18 });
    expect(after.current.topics.map((x: { remaining: number }) => x.remaining)).toEqual([4, 4, 3]);
    expect(after.closed[0]).toMatchObject({ required: 12, completed: 12, complete: false, renewed_with_ce_outstanding: true });
    expect(after.closed[0].topics[0]).toEqual({ topic: 'Legal Update I', required: 4, completed: 4, remaining: 0 });
  });
});
