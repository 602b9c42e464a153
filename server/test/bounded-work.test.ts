/**
 * Bounded work per request (docs/security.md "Bounded work per request", issue #25 points 1 and 2): a tRPC batch
 * holds at most MAX_BATCH_CALLS calls and never an auth.* call, refused before any call runs; one user holds at
 * most CALLS_IN_FLIGHT_PER_USER calls at once (the next wait in its own queue, then 429); creating actions have a
 * per-minute quota per user; GET /courses is paged and capped.
 */
import { describe, expect, it } from 'vitest';
import { COURSE_LIST_MAX, CREATES_PER_MINUTE } from '@lm/shared';
import { auditLogs, courses, loginCounters } from '../src/db/schema/index.ts';
import { answerJson, MAX_ANSWER_CHARS, MAX_BATCH_CALLS } from '../src/http/trpc.ts';
import { appRouter } from '../src/router.ts';
import { BUSY_MESSAGE, CALLS_IN_FLIGHT_PER_USER, CALLS_WAITING_PER_USER, takeQuota, withFairShare } from '../src/core/fair-share.ts';
import { api, callerFor, trpcStatus, useTestEnv } from './helpers.ts';

const t = useTestEnv();

const JSON_CT = { 'content-type': 'application/json' };
const batchInput = (n: number, input: unknown) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, input])));
const paths = (n: number, path: string) => Array.from({ length: n }, () => path).join(',');

async function trpc(method: 'GET' | 'POST', url: string, token: string | null, payload?: string) {
  const res = await t.env.app.inject({
    method,
    url,
    headers: { ...(payload !== undefined ? JSON_CT : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as any, headers: res.headers };
}

const courseCount = async () => (await t.env.db.select({ id: courses.course_id }).from(courses)).length;

describe('tRPC batches are bounded', () => {
  it('a POST batch of 11 mutations is refused whole (400) and none of them runs; 10 run', async () => {
    const school = t.roles.school;
    const course = { course_name: 'Batch course', description: 'd', provider: 'p', ce_hours: 1 };
    const before = await courseCount();
    const refused = await trpc(
      'POST',
      `/trpc/${paths(MAX_BATCH_CALLS + 1, 'courses.create')}?batch=1`,
      school.token,
      batchInput(11, course),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('A batch may hold at most 10 calls; this one has 11. Send the others in another request.');
    expect(refused.body.error.data).toMatchObject({ httpStatus: 400, appCode: 'BAD_REQUEST' });
    expect(await courseCount()).toBe(before);

    const ok = await trpc('POST', `/trpc/${paths(MAX_BATCH_CALLS, 'courses.create')}?batch=1`, school.token, batchInput(10, course));
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(10);
    expect(await courseCount()).toBe(before + 10);
  });

  it('a GET batch of 11 queries, and a POST of 11 query calls, are refused (400); a GET batch of 10 answers', async () => {
    const agent = t.roles.agent;
    const get11 = await trpc(
      'GET',
      `/trpc/${paths(11, 'courses.list')}?batch=1&input=${encodeURIComponent(batchInput(11, {}))}`,
      agent.token,
    );
    expect(get11.status).toBe(400);
    expect(get11.body.error.message).toMatch(/at most 10 calls/);
    const post11 = await trpc('POST', `/trpc/${paths(11, 'dashboard.stats')}?batch=1`, agent.token, '{}');
    expect(post11.status).toBe(400);
    expect(post11.body.error.message).toMatch(/at most 10 calls/);
    const get10 = await trpc('GET', `/trpc/${paths(10, 'courses.list')}?batch=1`, agent.token);
    expect(get10.status).toBe(200);
    expect(get10.body).toHaveLength(10);
  });

  it('a batch with any auth.* call is refused before any call runs: no counter, no audit entry, no session', async () => {
    const agent = t.roles.agent;
    const message = 'Sign-in and account calls (auth.*) cannot be batched: send each as a request of its own.';
    const auditBefore = (await t.env.db.select({ id: auditLogs.log_id }).from(auditLogs)).length;
    const logins = await trpc(
      'POST',
      '/trpc/auth.login,auth.login?batch=1',
      null,
      batchInput(2, { email: 'batched@nowhere.test', password: 'Wrong-passw0rd' }),
    );
    expect(logins.status).toBe(400);
    expect(logins.body.error.message).toBe(message);
    // Even one sign-in sent as a batch of 1.
    const one = await trpc('POST', '/trpc/auth.login?batch=1', null, batchInput(1, { email: 'batched@nowhere.test', password: 'x' }));
    expect(one.status).toBe(400);
    const mixed = await trpc('GET', '/trpc/courses.list,auth.me?batch=1', agent.token);
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toBe(message);
    const keys = (await t.env.db.select({ key: loginCounters.key }).from(loginCounters)).map((r) => r.key);
    expect(keys.some((k) => k.includes('batched@nowhere.test'))).toBe(false);
    expect((await t.env.db.select({ id: auditLogs.log_id }).from(auditLogs)).length).toBe(auditBefore);
    // The same calls one by one are served.
    expect((await trpc('GET', '/trpc/auth.me', agent.token)).status).toBe(200);
    expect((await trpc('GET', '/trpc/courses.list?batch=1', agent.token)).status).toBe(200);
  });
});

describe('fair share per user', () => {
  it('with a user at its limit in flight and its queue full, its next call is 429 on both transports; others pass', async () => {
    const { agent, broker } = t.roles;
    const services = t.env.services;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = Array.from({ length: CALLS_IN_FLIGHT_PER_USER + CALLS_WAITING_PER_USER }, () =>
      withFairShare(services, agent.user_id, () => gate),
    );
    try {
      const rest = await api(t.env, 'GET', '/api/auth/me', { token: agent.token });
      expect(rest.status).toBe(429);
      expect(rest.body).toEqual({ error: BUSY_MESSAGE, code: 'TOO_MANY_REQUESTS' });
      expect(rest.headers['retry-after']).toBe('1');
      const viaTrpc = await trpc('GET', '/trpc/dashboard.stats', agent.token);
      expect(viaTrpc.status).toBe(429);
      expect(viaTrpc.body.error.message).toBe(BUSY_MESSAGE);
      expect(viaTrpc.headers['retry-after']).toBe('1');
      // Another user is not affected.
      expect((await api(t.env, 'GET', '/api/auth/me', { token: broker.token })).status).toBe(200);
    } finally {
      release();
      await Promise.all(held);
    }
    // Once the calls are done, the user is served again.
    expect((await api(t.env, 'GET', '/api/auth/me', { token: agent.token })).status).toBe(200);
  });

  it('runs at most CALLS_IN_FLIGHT_PER_USER calls of one user at once; the rest wait their turn and all finish', async () => {
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return 1;
    };
    const services = t.env.services;
    const results = await Promise.all(Array.from({ length: 30 }, () => withFairShare(services, 999_001, work)));
    expect(results).toHaveLength(30);
    expect(most).toBe(CALLS_IN_FLIGHT_PER_USER);
  });

  it('a batch of 10 calls of one user over the real transport all succeed (6 of them waited)', async () => {
    const res = await trpc('GET', `/trpc/${paths(10, 'dashboard.stats')}?batch=1`, t.roles.agent.token);
    expect(res.status).toBe(200);
    expect(res.body.every((r: { result?: unknown }) => r.result)).toBe(true);
  });
});

describe('creation quotas', () => {
  it(`a School may create ${CREATES_PER_MINUTE.School} courses a minute; the next is 429 with a human message`, async () => {
    const school = t.roles.school;
    const caller = callerFor(t.env, school.user_id);
    const course = { course_name: 'Quota course', description: 'd', provider: 'p', ce_hours: 1 };
    // This file's earlier tests used some of the minute's quota already (the batch of 10).
    for (let i = 0; i < CREATES_PER_MINUTE.School; i++) {
      const status = await trpcStatus(caller.courses.create(course));
      if (status === 429) break;
      expect(status).toBe(200);
    }
    const refused = await api(t.env, 'POST', '/api/courses', { token: school.token, body: course });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^You have done this 120 times in the last minute, the most allowed\. Try again in \d+ seconds\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Reading is not limited, nor is another user's creating.
    expect((await api(t.env, 'GET', '/api/courses?limit=1', { token: school.token })).status).toBe(200);
    expect((await api(t.env, 'POST', '/api/courses', { token: t.roles.admin.token, body: course })).status).toBe(200);
  });

  it('the quota counts per minute: a minute after the window opened the user may create again', () => {
    const services = {};
    const user = { user_id: 42, role_id: t.roles.agent.role_id };
    const start = 1_000_000;
    for (let i = 0; i < CREATES_PER_MINUTE.Agent; i++) takeQuota(services, user, 'completions.create', start + i);
    expect(() => takeQuota(services, user, 'completions.create', start + 30_000)).toThrow(/Try again in 30 seconds/);
    // Another action has its own count; an action without a quota is never counted.
    expect(() => takeQuota(services, user, 'licenses.create', start + 30_000)).not.toThrow();
    expect(() => takeQuota(services, user, 'courses.read', start + 30_000)).not.toThrow();
    expect(() => takeQuota(services, user, 'completions.create', start + 60_000)).not.toThrow();
  });
});

describe('GET /courses is paged and capped', () => {
  it(`answers at most ${COURSE_LIST_MAX} courses, newest first; limit and offset read further; a limit over the cap is 400`, async () => {
    const total0 = await courseCount();
    await t.env.db.transaction((tx) =>
      tx.insert(courses).values(
        Array.from({ length: COURSE_LIST_MAX + 10 - Math.min(total0, COURSE_LIST_MAX) }, (_, i) => ({
          course_name: `Bulk ${i}`,
          description: '',
          provider: 'Bulk provider',
          ce_hours: 1,
        })),
      ),
    );
    const total = await courseCount();
    expect(total).toBeGreaterThan(COURSE_LIST_MAX);
    const token = t.roles.agent.token;
    const all = await api(t.env, 'GET', '/api/courses', { token });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(COURSE_LIST_MAX);
    const first = await api(t.env, 'GET', '/api/courses?limit=3', { token });
    expect(first.body.map((c: { course_id: number }) => c.course_id)).toEqual(
      all.body.slice(0, 3).map((c: { course_id: number }) => c.course_id),
    );
    const second = await api(t.env, 'GET', '/api/courses?limit=3&offset=3', { token });
    expect(second.body.map((c: { course_id: number }) => c.course_id)).toEqual(
      all.body.slice(3, 6).map((c: { course_id: number }) => c.course_id),
    );
    const rest = await api(t.env, 'GET', `/api/courses?offset=${COURSE_LIST_MAX}`, { token });
    expect(rest.body).toHaveLength(total - COURSE_LIST_MAX);
    expect((await api(t.env, 'GET', `/api/courses?limit=${COURSE_LIST_MAX + 1}`, { token })).status).toBe(400);
    expect((await api(t.env, 'GET', '/api/courses?offset=-1', { token })).status).toBe(400);
  });
});

describe('no answer is built beyond a size limit', () => {
  it('a /trpc answer over MAX_ANSWER_CHARS becomes a 413 with a message, not a 500', () => {
    const config = appRouter._def._config;
    expect(answerJson(config, 200, { data: 'x' }).status).toBe(200);
    const tooLarge = answerJson(config, 200, { data: 'x'.repeat(MAX_ANSWER_CHARS) });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.json).error).toMatchObject({
      message: 'The answer would be larger than 32 MiB: ask for fewer rows (limit) or fewer calls in one request.',
      data: { httpStatus: 413, appCode: 'PAYLOAD_TOO_LARGE' },
    });
  });
});
