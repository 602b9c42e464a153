/**
 * The CE ledger over REST (docs/decisions.md "CE ledger and cycles"): derived figures per cycle,
 * adjustments, renewal closing a cycle, the transcript and its CSV, auto-renewal, the cache, and the
 * role/scope table of the new procedures on /trpc and /api.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { CARRIED_OVER_REASON, FORM_ADJUSTMENT_REASON } from '@lm/shared';
import { runSqliteMigrations, SQLITE_MIGRATIONS } from '../src/db/sqlite/driver.ts';
import { auditLogs, ceAdjustments, licenses, notificationDeliveries } from '../src/db/schema/index.ts';
import { derivedCurrentSums, refreshAllCeCaches } from '../src/modules/licenses/ce-ledger.ts';
import { autoRenewDueLicenses } from '../src/modules/licenses/licenses.auto-renew.ts';
import { ensureDefaultTemplates } from '../src/modules/notification-management/default-templates.ts';
import { runReminders } from '../src/modules/notification-management/reminders.ts';
import { api, callerFor, seedBrokerage, seedUser, tokenFor, trpcStatus, type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
let outsider: { user_id: number; token: string };
let otherBroker: { user_id: number; token: string };

beforeAll(async () => {
  ({ env, roles } = t);
  const elsewhere = await seedBrokerage(env, 'Across Town Realty');
  const o = await seedUser(env, 'Agent', { brokerage_id: elsewhere });
  outsider = { user_id: o.user_id, token: await tokenFor(env, o.user_id) };
  const b = await seedUser(env, 'Broker', { brokerage_id: elsewhere });
  otherBroker = { user_id: b.user_id, token: await tokenFor(env, b.user_id) };
});

let seq = 0;
async function createLicense(body: Record<string, unknown> = {}) {
  const res = await api(env, 'POST', '/api/licenses', {
    token: roles.admin.token,
    body: {
      user_id: roles.agent.user_id,
      license_number: `LEDGER-${++seq}`,
      state: 'CA',
      issue_date: '2024-01-01',
      expiration_date: '2026-12-31',
      ce_hours_required: 10,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { license_id: number; ce_hours_completed: number; expiration_date: string; license_number: string };
}

async function createCourse(hours: number, topic?: string) {
  const res = await api(env, 'POST', '/api/courses', {
    token: roles.admin.token,
    body: {
      course_name: `Ledger course ${++seq}`,
      description: 'CE',
      provider: 'Coastal School',
      ce_hours: hours,
      ...(topic ? { topic } : {}),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { course_id: number };
}

/** Records a completion for the license's holder (the Agent) and approves it; returns its id. */
async function approvedCompletion(licenseId: number, hours: number, date: string, topic?: string) {
  const course = await createCourse(hours, topic);
  const rec = await api(env, 'POST', '/api/completions', {
    token: roles.admin.token,
    body: { course_id: course.course_id, user_id: roles.agent.user_id, license_id: licenseId, completion_date: date },
  });
  expect(rec.status, JSON.stringify(rec.body)).toBe(200);
  const review = await api(env, 'POST', `/api/completions/${rec.body.completion_id}/review`, {
    token: roles.admin.token,
    body: { status: 'Approved' },
  });
  expect(review.status).toBe(200);
  return rec.body.completion_id as number;
}

const getLicense = async (id: number) =>
  (await api(env, 'GET', `/api/licenses/${id}/transcript`, { token: roles.admin.token })).body.license;
const transcript = async (id: number, token = roles.admin.token) => api(env, 'GET', `/api/licenses/${id}/transcript`, { token });

/** Every license's cache equals the ledger's derived sum. */
async function expectCacheExact() {
  const derived = await derivedCurrentSums(env.db);
  const cached = new Map(
    (await env.db.select({ id: licenses.license_id, c: licenses.ce_hours_completed }).from(licenses)).map((r) => [r.id, r.c]),
  );
  expect(cached).toEqual(derived);
}

describe('must show 1: two approved completions fill the cycle; renew closes it', () => {
  it('6 + 4 of 10 hours, renew → new expiration, 0 in the new cycle, the closed cycle at 10 of 10', async () => {
    const lic = await createLicense();
    expect(lic.ce_hours_completed).toBe(0);
    await approvedCompletion(lic.license_id, 6, '2025-03-01');
    await approvedCompletion(lic.license_id, 4, '2025-06-15');
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(10);

    const preview = await api(env, 'GET', `/api/licenses/${lic.license_id}/renewal-preview`, { token: roles.admin.token });
    expect(preview.body).toEqual({
      license_id: lic.license_id,
      current_expiration_date: '2026-12-31',
      new_expiration_date: '2028-12-31',
      cycle_years: 2,
      required: 10,
      completed: 10,
      remaining: 0,
      complete: true,
      outstanding_topics: [],
      next_required: 10,
    });

    const renewed = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: roles.admin.token });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body).toMatchObject({
      expiration_date: '2028-12-31',
      cycle_start_date: '2026-12-31',
      ce_hours_completed: 0,
      ce_hours_required: 10,
      status: 'Active',
    });

    const t = await transcript(lic.license_id);
    expect(t.status).toBe(200);
    expect(t.body.current).toMatchObject({ start_date: '2026-12-31', end_date: '2028-12-31', required: 10, completed: 0, remaining: 10 });
    expect(t.body.current.completions).toEqual([]);
    expect(t.body.closed).toHaveLength(1);
    expect(t.body.closed[0]).toMatchObject({
      start_date: '2024-01-01',
      end_date: '2026-12-31',
      required: 10,
      completed: 10,
      remaining: 0,
      complete: true,
      closed_by: roles.admin.user_id,
      closed_by_name: expect.any(String),
      renewed_with_ce_outstanding: false,
    });
    expect(t.body.closed[0].completions.map((c: { hours: number }) => c.hours)).toEqual([6, 4]);

    // Audited: the cycle closed, and the license updated with reason renew.
    const closeEntry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'close_cycle'), eq(auditLogs.target_id, t.body.closed[0].cycle_id)))
    )[0];
    expect(JSON.parse(closeEntry!.new_values!)).toMatchObject({ license_id: lic.license_id, completed: 10, required: 10 });
    const renewEntry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, lic.license_id), eq(auditLogs.action, 'update')))
        .orderBy(auditLogs.log_id)
    ).at(-1)!;
    expect(JSON.parse(renewEntry.new_values!)).toMatchObject({ reason: 'renew', expiration_date: '2028-12-31' });
    await expectCacheExact();
  });

  it('the boundary day counts in the cycle that ends on it, the next day in the new cycle; late entries update a closed cycle', async () => {
    const lic = await createLicense({ issue_date: '2023-01-01', expiration_date: '2025-01-01', ce_hours_required: 0 });
    await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: roles.admin.token });
    await approvedCompletion(lic.license_id, 2, '2025-01-01');
    await approvedCompletion(lic.license_id, 3, '2025-01-02');
    const t = (await transcript(lic.license_id)).body;
    expect(t.closed[0]).toMatchObject({ start_date: '2023-01-01', end_date: '2025-01-01', completed: 2 });
    expect(t.current).toMatchObject({ start_date: '2025-01-01', end_date: '2027-01-01', completed: 3 });
    expect(t.license.ce_hours_completed).toBe(3);
    // Before the issue date lies in no cycle.
    const course = await createCourse(1);
    const early = await api(env, 'POST', '/api/completions', {
      token: roles.admin.token,
      body: { course_id: course.course_id, user_id: roles.agent.user_id, license_id: lic.license_id, completion_date: '2022-12-31' },
    });
    expect(early.status).toBe(400);
    await expectCacheExact();
  });
});

describe('must show 2: the form field records adjustments; reviews move exactly their hours', () => {
  it('editing ce_hours_completed records an adjustment (transcript and audit); approvals add to it; reopening takes exactly back', async () => {
    const lic = await createLicense();
    const edited = await api(env, 'PUT', `/api/licenses/${lic.license_id}`, { token: roles.admin.token, body: { ce_hours_completed: 5 } });
    expect(edited.status).toBe(200);
    expect(edited.body.ce_hours_completed).toBe(5);

    const t = (await transcript(lic.license_id)).body;
    expect(t.current.adjustments).toEqual([
      {
        adjustment_id: expect.any(Number),
        license_id: lic.license_id,
        hours: 5,
        reason: FORM_ADJUSTMENT_REASON,
        created_by: roles.admin.user_id,
        created_by_name: expect.any(String),
        created_at: expect.any(String),
      },
    ]);
    const adjAudit = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'ce_adjustments'), eq(auditLogs.target_id, t.current.adjustments[0].adjustment_id)))
    )[0];
    expect(adjAudit?.action).toBe('create');
    expect(JSON.parse(adjAudit!.new_values!)).toMatchObject({ hours: 5, reason: FORM_ADJUSTMENT_REASON });

    const completionId = await approvedCompletion(lic.license_id, 3, '2025-02-01');
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(8);

    // Saving the form with the same number records nothing more.
    await api(env, 'PUT', `/api/licenses/${lic.license_id}`, {
      token: roles.admin.token,
      body: { ce_hours_completed: 8, status: 'Active' },
    });
    expect(await env.db.select().from(ceAdjustments).where(eq(ceAdjustments.license_id, lic.license_id))).toHaveLength(1);

    const reopen = await api(env, 'POST', `/api/completions/${completionId}/review`, {
      token: roles.admin.token,
      body: { status: 'Pending' },
    });
    expect(reopen.status, JSON.stringify(reopen.body)).toBe(200);
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(5);

    // Lowering on the form records a negative adjustment.
    const lowered = await api(env, 'PUT', `/api/licenses/${lic.license_id}`, {
      token: roles.admin.token,
      body: { ce_hours_completed: 1.5 },
    });
    expect(lowered.body.ce_hours_completed).toBe(1.5);
    expect((await transcript(lic.license_id)).body.current.adjustments.map((a: { hours: number }) => a.hours)).toEqual([5, -3.5]);
    await expectCacheExact();
  });

  it('POST /licenses/{id}/adjustments: signed hours with a reason; below 0 answers 409 with the cycle hours and changes nothing', async () => {
    const lic = await createLicense();
    const up = await api(env, 'POST', `/api/licenses/${lic.license_id}/adjustments`, {
      token: roles.broker.token,
      body: { hours: 4, reason: 'Out-of-state certificate' },
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.ce_hours_completed).toBe(4);

    const tooMuch = await api(env, 'POST', `/api/licenses/${lic.license_id}/adjustments`, {
      token: roles.admin.token,
      body: { hours: -6, reason: 'Withdrawn' },
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toBe('This cycle has 4 CE hours; taking 6 away would leave it below 0.');
    expect((await getLicense(lic.license_id)).ce_hours_completed).toBe(4);

    for (const [body, message] of [
      [{ hours: 0, reason: 'x' }, 'Hours must be a number other than 0'],
      [{ hours: 1, reason: '  ' }, 'Reason is required'],
      [{ hours: 1 }, 'Reason is required'],
      [{ hours: 1, reason: 'x'.repeat(501) }, 'Reason must be 500 characters or less'],
    ] as const) {
      const res = await api(env, 'POST', `/api/licenses/${lic.license_id}/adjustments`, { token: roles.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
    }
    const down = await api(env, 'POST', `/api/licenses/${lic.license_id}/adjustments`, {
      token: roles.admin.token,
      body: { hours: -4, reason: 'Duplicate' },
    });
    expect(down.body.ce_hours_completed).toBe(0);
    await expectCacheExact();
  });

  it('a date edit that drops completions out of the cycle and would leave it below 0 answers 409 and changes nothing', async () => {
    const lic = await createLicense();
    await approvedCompletion(lic.license_id, 5, '2024-02-01');
    await api(env, 'POST', `/api/licenses/${lic.license_id}/adjustments`, { token: roles.admin.token, body: { hours: -2, reason: 'x' } });
    const res = await api(env, 'PUT', `/api/licenses/${lic.license_id}`, { token: roles.admin.token, body: { issue_date: '2024-06-01' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/below 0/);
    const after = await getLicense(lic.license_id);
    expect(after).toMatchObject({ issue_date: '2024-01-01', cycle_start_date: '2024-01-01', ce_hours_completed: 3 });
    // A harmless issue date edit moves the first cycle's start and its adjustments with it.
    const ok = await api(env, 'PUT', `/api/licenses/${lic.license_id}`, { token: roles.admin.token, body: { issue_date: '2023-06-01' } });
    expect(ok.body).toMatchObject({ cycle_start_date: '2023-06-01', ce_hours_completed: 3 });
    await expectCacheExact();
  });
});

describe('renewing with CE outstanding', () => {
  it('answers 409 with a message and changes nothing; allow_incomplete renews and is audited as such', async () => {
    const lic = await createLicense();
    await approvedCompletion(lic.license_id, 6, '2025-03-01');
    const refused = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: roles.admin.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('CE for this cycle is incomplete: 6 of 10 hours completed. Renew anyway to continue.');
    expect(await getLicense(lic.license_id)).toMatchObject({ expiration_date: '2026-12-31', ce_hours_completed: 6 });
    expect((await transcript(lic.license_id)).body.closed).toEqual([]);

    const anyway = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, {
      token: roles.broker.token,
      body: { allow_incomplete: true },
    });
    expect(anyway.status).toBe(200);
    expect(anyway.body).toMatchObject({ expiration_date: '2028-12-31', ce_hours_completed: 0 });
    const closed = (await transcript(lic.license_id)).body.closed[0];
    expect(closed).toMatchObject({
      completed: 6,
      required: 10,
      complete: false,
      renewed_with_ce_outstanding: true,
      closed_by: roles.broker.user_id,
    });
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, lic.license_id), eq(auditLogs.action, 'update')))
        .orderBy(auditLogs.log_id)
    ).at(-1)!;
    expect(JSON.parse(entry.new_values!).reason).toBe('renew_ce_outstanding');
    // An explicit expiration must move forward.
    const back = await api(env, 'POST', `/api/licenses/${lic.license_id}/renew`, {
      token: roles.admin.token,
      body: { expiration_date: '2028-01-01', allow_incomplete: true },
    });
    expect(back.status).toBe(400);
  });
});

describe('must show 4: the daily pass with a fixed today', () => {
  it('a complete cycle renews once; an incomplete one is left to expire and gets the expired notice; a second pass changes nothing', async () => {
    await ensureDefaultTemplates(env.db);
    const complete = await createLicense({ issue_date: '2024-03-10', expiration_date: '2026-03-09', ce_hours_required: 6 });
    const behind = await createLicense({ issue_date: '2024-03-10', expiration_date: '2026-03-09', ce_hours_required: 6 });
    const notYet = await createLicense({ issue_date: '2024-03-10', expiration_date: '2026-03-10', ce_hours_required: 6 });
    await approvedCompletion(complete.license_id, 6, '2025-05-01');
    await approvedCompletion(behind.license_id, 2, '2025-05-01');
    const TODAY = '2026-03-10';
    const NOW = new Date(`${TODAY}T12:00:00Z`);
    const snapshot = async () => env.db.select().from(licenses).orderBy(licenses.license_id);

    expect(await autoRenewDueLicenses(env.db, TODAY)).toMatchObject({ renewed: 1, expired: 1 });
    const renewed = await getLicense(complete.license_id);
    expect(renewed).toMatchObject({
      expiration_date: '2028-03-09',
      cycle_start_date: '2026-03-09',
      status: 'Active',
      ce_hours_completed: 0,
    });
    expect((await transcript(complete.license_id)).body.closed[0]).toMatchObject({ completed: 6, complete: true, closed_by: null });
    expect(await getLicense(behind.license_id)).toMatchObject({ expiration_date: '2026-03-09', status: 'Expired' });
    // Stored as it was: on the pass's today it expires today (the API, on the real today, reads it Expired).
    const [notYetRow] = await env.db.select().from(licenses).where(eq(licenses.license_id, notYet.license_id));
    expect(notYetRow).toMatchObject({ expiration_date: '2026-03-10', status: 'Active' });

    await runReminders(env.db, env.config, NOW);
    const notices = (await env.db.select().from(notificationDeliveries)).filter((d) => d.reminder_key?.startsWith('license_expired:'));
    expect(notices.map((d) => d.license_id)).toContain(behind.license_id);
    expect(notices.map((d) => d.license_id)).not.toContain(complete.license_id);

    const before = await snapshot();
    const sentBefore = (await env.db.select().from(notificationDeliveries)).length;
    expect(await autoRenewDueLicenses(env.db, TODAY)).toEqual({ renewed: 0, expired: 0 });
    await runReminders(env.db, env.config, NOW);
    expect(await snapshot()).toEqual(before);
    expect((await env.db.select().from(notificationDeliveries)).length).toBe(sentBefore);
    await expectCacheExact();
  });
});

describe('the cache stays exact', () => {
  it('after create, form edit, adjustment, review, renew, delete and a full recompute', async () => {
    const a = await createLicense({ ce_hours_completed: 2 });
    expect(a.ce_hours_completed).toBe(2);
    await expectCacheExact();
    const b = await createLicense();
    const c1 = await approvedCompletion(b.license_id, 3, '2025-01-05');
    await expectCacheExact();
    await api(env, 'POST', `/api/completions/${c1}/review`, { token: roles.admin.token, body: { status: 'Rejected' } });
    await expectCacheExact();
    await api(env, 'DELETE', `/api/licenses/${a.license_id}`, { token: roles.admin.token });
    expect(await env.db.select().from(ceAdjustments).where(eq(ceAdjustments.license_id, a.license_id))).toEqual([]);
    await expectCacheExact();
    // A stale cache (written behind the ledger's back) is put right by the recompute a restore runs.
    await env.db.transaction(async (tx) => {
      await tx.update(licenses).set({ ce_hours_completed: 99 }).where(eq(licenses.license_id, b.license_id));
    });
    expect(await env.db.transaction((tx) => refreshAllCeCaches(tx))).toBe(1);
    await expectCacheExact();
  });
});

describe('the transcript CSV', () => {
  it('downloads as text/csv named after the license and today, with every line of the cycles', async () => {
    const lic = await createLicense({ license_number: 'CSV/1 =x' });
    await approvedCompletion(lic.license_id, 2, '2025-04-01');
    await api(env, 'POST', `/api/licenses/${lic.license_id}/adjustments`, {
      token: roles.admin.token,
      body: { hours: 1, reason: '=cmd()' },
    });
    const res = await env.app.inject({
      method: 'GET',
      url: `/api/licenses/${lic.license_id}/transcript/export`,
      headers: { authorization: `Bearer ${roles.agent.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="transcript_CSV_1__x_\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('Cycle,Cycle Start,Cycle End,Line,Date,Description,Provider,Topic,Hours,Required,Remaining');
    expect(lines[1]).toBe('Current,2024-01-01,2026-12-31,Total,,Incomplete,,,3,10,7');
    expect(lines.some((l) => l.includes(',Completion,2025-04-01,') && l.endsWith(',2,,'))).toBe(true);
    expect(lines.some((l) => l.includes(',Adjustment,') && l.includes("'=cmd()"))).toBe(true);
    expect((await env.app.inject({ method: 'GET', url: `/api/licenses/${lic.license_id}/transcript/export` })).statusCode).toBe(401);
    for (const [token, status] of [
      [roles.school.token, 403],
      [outsider.token, 404],
      [otherBroker.token, 404],
      [roles.broker.token, 200],
    ] as const) {
      const r = await env.app.inject({
        method: 'GET',
        url: `/api/licenses/${lic.license_id}/transcript/export`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(r.statusCode).toBe(status);
    }
  });

  it('is listed in the OpenAPI paths with the new procedures', async () => {
    const paths = (await api(env, 'GET', '/api/openapi.json')).body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/licenses/{id}/transcript/export'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/licenses/{id}/transcript'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/licenses/{id}/renewal-preview'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/licenses/{id}/adjustments'] ?? {})).toEqual(['post']);
  });
});

describe('roles and scope of the new license procedures (/api and /trpc)', () => {
  it('Admin and the Broker of the brokerage act; an Agent reads its own; others 404; School 403', async () => {
    const own = await createLicense();
    const foreign = await createLicense({ user_id: outsider.user_id });
    const who = {
      admin: { token: roles.admin.token, id: roles.admin.user_id },
      broker: { token: roles.broker.token, id: roles.broker.user_id },
      otherBroker: { token: otherBroker.token, id: otherBroker.user_id },
      agent: { token: roles.agent.token, id: roles.agent.user_id },
      outsider: { token: outsider.token, id: outsider.user_id },
      school: { token: roles.school.token, id: roles.school.user_id },
    };
    // [caller, license, transcript/preview status, adjust status]
    const table: Array<[keyof typeof who, number, number, number]> = [
      ['admin', own.license_id, 200, 200],
      ['admin', foreign.license_id, 200, 200],
      ['broker', own.license_id, 200, 200],
      ['broker', foreign.license_id, 404, 404],
      ['otherBroker', own.license_id, 404, 404],
      ['otherBroker', foreign.license_id, 200, 200],
      ['agent', own.license_id, 200, 403],
      ['agent', foreign.license_id, 404, 403],
      ['outsider', own.license_id, 404, 403],
      ['school', own.license_id, 403, 403],
    ];
    for (const [role, id, read, write] of table) {
      const { token, id: userId } = who[role];
      const label = `${role} on ${id}`;
      expect((await api(env, 'GET', `/api/licenses/${id}/transcript`, { token })).status, label).toBe(read);
      expect((await api(env, 'GET', `/api/licenses/${id}/renewal-preview`, { token })).status, label).toBe(read);
      expect(
        (await api(env, 'POST', `/api/licenses/${id}/adjustments`, { token, body: { hours: 0.5, reason: 'scope check' } })).status,
        label,
      ).toBe(write);
      const caller = callerFor(env, userId);
      expect(await trpcStatus(caller.licenses.transcript({ id })), label).toBe(read);
      expect(await trpcStatus(caller.licenses.renewalPreview({ id })), label).toBe(read);
      expect(await trpcStatus(caller.licenses.adjust({ id, hours: 0.5, reason: 'scope check' })), label).toBe(write);
    }
    expect((await api(env, 'GET', `/api/licenses/${own.license_id}/transcript`)).status).toBe(401);
    await expectCacheExact();
  });
});

describe('the CE ledger migration', () => {
  // A data migration of old SQLite rows, run on a SQLite file of its own in either pass (a PostgreSQL
  // database starts fresh: its first migration already has the ledger, so it has nothing to carry over).
  it('SQLite files: starts every cycle on the issue date and carries over what the approved completions do not explain', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-ledger-migration-'));
    try {
      // A database at the first migration, with the old free counter.
      const old = path.join(dir, 'old');
      fs.mkdirSync(path.join(old, 'meta'), { recursive: true });
      const journal = JSON.parse(fs.readFileSync(path.join(SQLITE_MIGRATIONS, 'meta/_journal.json'), 'utf8'));
      fs.writeFileSync(path.join(old, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
      fs.copyFileSync(path.join(SQLITE_MIGRATIONS, '0000_init.sql'), path.join(old, '0000_init.sql'));
      const sqlite = new Database(path.join(dir, 'db.sqlite'));
      migrate(drizzle(sqlite), { migrationsFolder: old });
      const now = new Date().toISOString();
      sqlite
        .prepare(
          "INSERT INTO users (user_id, email, password_hash, first_name, last_name, role_id, created_at, updated_at) VALUES (1, 'a@x.test', 'x', 'A', 'B', 3, ?, ?)",
        )
        .run(now, now);
      const lic = sqlite.prepare(
        "INSERT INTO licenses (license_id, user_id, license_number, state, issue_date, expiration_date, ce_hours_required, ce_hours_completed, created_at, updated_at) VALUES (?, 1, ?, 'CA', '2024-01-01', '2026-01-01', 10, ?, ?, ?)",
      );
      lic.run(1, 'M-1', 7, now, now); // 3 explained by a completion: 4 carried over
      lic.run(2, 'M-2', 3, now, now); // exactly explained: nothing carried over
      lic.run(3, 'M-3', 0, now, now); // clamped before: -2 carried over
      sqlite
        .prepare(
          "INSERT INTO courses (course_id, course_name, description, provider, ce_hours, created_at, updated_at) VALUES (1, 'C', 'D', 'P', 5, ?, ?)",
        )
        .run(now, now);
      const comp = sqlite.prepare(
        'INSERT INTO completions (user_id, course_id, license_id, completion_date, hours, status, created_at, updated_at) VALUES (1, 1, ?, ?, ?, ?, ?, ?)',
      );
      comp.run(1, '2025-01-01', 3, 'Approved', now, now);
      comp.run(1, '2023-01-01', 5, 'Approved', now, now); // before the cycle: not counted
      comp.run(2, '2025-01-01', 3, 'Approved', now, now);
      comp.run(3, '2025-01-01', 2, 'Approved', now, now);
      comp.run(3, '2025-01-02', 4, 'Pending', now, now);

      runSqliteMigrations(sqlite);
      expect(sqlite.prepare('SELECT license_id, cycle_start_date FROM licenses ORDER BY license_id').all()).toEqual([
        { license_id: 1, cycle_start_date: '2024-01-01' },
        { license_id: 2, cycle_start_date: '2024-01-01' },
        { license_id: 3, cycle_start_date: '2024-01-01' },
      ]);
      expect(
        sqlite.prepare('SELECT license_id, cycle_start_date, hours, reason, created_by FROM ce_adjustments ORDER BY license_id').all(),
      ).toEqual([
        { license_id: 1, cycle_start_date: '2024-01-01', hours: 4, reason: CARRIED_OVER_REASON, created_by: null },
        { license_id: 3, cycle_start_date: '2024-01-01', hours: -2, reason: CARRIED_OVER_REASON, created_by: null },
      ]);
      // The trigger: an insert without a cycle start begins on the issue date.
      lic.run(4, 'M-4', 0, now, now);
      expect(sqlite.prepare('SELECT cycle_start_date FROM licenses WHERE license_id = 4').pluck().get()).toBe('2024-01-01');
      sqlite.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('both engines: a license inserted without a cycle start begins its cycle on the issue date (trigger)', async () => {
    const [row] = await env.db.transaction((tx) =>
      tx
        .insert(licenses)
        .values({
          user_id: roles.agent.user_id,
          license_number: `TRIGGER-${++seq}`,
          state: 'CA',
          issue_date: '2024-05-06',
          expiration_date: '2026-05-06',
        })
        .returning({ id: licenses.license_id }),
    );
    const [stored] = await env.db
      .select({ cycle_start_date: licenses.cycle_start_date })
      .from(licenses)
      .where(eq(licenses.license_id, row!.id));
    expect(stored!.cycle_start_date).toBe('2024-05-06');
  });
});
