/**
 * Concurrent writes that must count once (docs/decisions.md "CE ledger and cycles"): the reads that decide
 * a write happen inside its transaction, so parallel approvals of one completion credit its hours once and
 * parallel creates of one license number make one license. Runs on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL (serializable transactions retried on conflict).
 */
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditLogs, licenses } from '../src/db/schema/index.ts';
import { api, callerFor, trpcStatus, useTestEnv } from './helpers.ts';

const t = useTestEnv();
const N = 50;

/** Every answer is a success or a clear 4xx with a message, never a 5xx. */
function expectNo5xx(answers: Array<{ status: number; body: unknown }>) {
  for (const a of answers) {
    expect(a.status, JSON.stringify(a.body)).toBeLessThan(500);
    if (a.status !== 200) expect((a.body as { error?: string }).error, JSON.stringify(a.body)).toEqual(expect.any(String));
  }
}

describe('parallel approvals of one pending completion', () => {
  it(`${N} approvals at once (REST and tRPC) credit the hours exactly once, with one approval audit entry`, async () => {
    const { env, roles } = t;
    const admin = { token: roles.admin.token };
    const license = await api(env, 'POST', '/api/licenses', {
      ...admin,
      body: {
        user_id: roles.agent.user_id,
        license_number: 'RACE-APPROVE-1',
        state: 'CA',
        issue_date: '2024-01-01',
        expiration_date: '2027-01-01',
        ce_hours_required: 10,
        ce_hours_completed: 1.5,
      },
    });
    expect(license.status, JSON.stringify(license.body)).toBe(200);
    const licenseId = license.body.license_id as number;
    const course = await api(env, 'POST', '/api/courses', {
      ...admin,
      body: { course_name: 'Race conditions in escrow', description: 'CE', provider: 'Concurrency School', ce_hours: 3.5 },
    });
    expect(course.status, JSON.stringify(course.body)).toBe(200);
    const recorded = await api(env, 'POST', '/api/completions', {
      ...admin,
      body: { course_id: course.body.course_id, user_id: roles.agent.user_id, license_id: licenseId, completion_date: '2025-02-03' },
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    const completionId = recorded.body.completion_id as number;

    const adminCaller = callerFor(env, roles.admin.user_id);
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        if (i % 2 === 0) {
          const res = await api(env, 'POST', `/api/completions/${completionId}/review`, { ...admin, body: { status: 'Approved' } });
          return { status: res.status, body: res.body as unknown };
        }
        const p = adminCaller.completions.review({ id: completionId, status: 'Approved' });
        const status = await trpcStatus(p);
        return { status, body: status === 200 ? await p : await p.catch((e: Error) => ({ error: e.message })) };
      }),
    );
    expectNo5xx(answers);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);

    // The license's cache, the transcript and the ledger all show the 3.5 hours once.
    const transcript = await api(env, 'GET', `/api/licenses/${licenseId}/transcript`, admin);
    expect(transcript.status).toBe(200);
    expect(transcript.body.license.ce_hours_completed).toBe(5);
    expect(transcript.body.current.completed).toBe(5);
    expect(transcript.body.current.completions.map((c: { completion_id: number }) => c.completion_id)).toEqual([completionId]);
    const [stored] = await env.db.select({ h: licenses.ce_hours_completed }).from(licenses).where(eq(licenses.license_id, licenseId));
    expect(stored!.h).toBe(5);

    const approvals = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'completions'), eq(auditLogs.target_id, completionId), eq(auditLogs.action, 'update_approve')));
    expect(approvals).toHaveLength(1);
    const credits = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, licenseId), eq(auditLogs.action, 'update_ce_hours')));
    expect(credits).toHaveLength(1);
    expect(JSON.parse(credits[0]!.new_values!)).toMatchObject({ completion_id: completionId, hours: 3.5, ce_hours_completed: 5 });

    // A later approval is still a no-op; a rejection takes exactly the hours back.
    expect((await api(env, 'POST', `/api/completions/${completionId}/review`, { ...admin, body: { status: 'Approved' } })).status).toBe(
      200,
    );
    const rejected = await api(env, 'POST', `/api/completions/${completionId}/review`, { ...admin, body: { status: 'Rejected' } });
    expect(rejected.status).toBe(200);
    expect((await api(env, 'GET', `/api/licenses/${licenseId}/transcript`, admin)).body.license.ce_hours_completed).toBe(1.5);
  });
});

describe('parallel creates of one license number', () => {
  it(`${N} creates of the same number (any letter case) in one state make one license; the rest answer 409`, async () => {
    const { env, roles } = t;
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const res = await api(env, 'POST', '/api/licenses', {
          token: i % 2 === 0 ? roles.admin.token : roles.broker.token,
          body: {
            user_id: roles.agent.user_id,
            license_number: i % 3 === 0 ? 'race-create-7' : 'RACE-CREATE-7',
            state: 'NV',
            issue_date: '2025-01-01',
            expiration_date: '2027-01-01',
            ce_hours_required: 12,
          },
        });
        return { status: res.status, body: res.body as unknown };
      }),
    );
    expectNo5xx(answers);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(N - 1);
    const rows = await env.db
      .select({ id: licenses.license_id })
      .from(licenses)
      .where(and(eq(licenses.state, 'NV'), sql`upper(${licenses.license_number}) = 'RACE-CREATE-7'`));
    expect(rows).toHaveLength(1);
    const created = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, rows[0]!.id), eq(auditLogs.action, 'create')));
    expect(created).toHaveLength(1);
  });
});
