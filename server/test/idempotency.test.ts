import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { idempotencyKeys, licenses } from '../src/db/schema/index.ts';
import { removeExpiredKeys } from '../src/http/idempotency.ts';
import { buildApp } from '../src/app.ts';
import { createAppServices } from '../src/core/context.ts';
import { ENGINE, openDatabase } from '../src/db/client.ts';
import { api, seedUser, useTestEnv } from './helpers.ts';

const t = useTestEnv();

let n = 0;
async function newHolder() {
  return seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId });
}
const licenseBody = (userId: number) => ({
  user_id: userId,
  license_number: `IDEM-${Date.now()}-${++n}`,
  state: 'CA',
  issue_date: '2026-01-01',
  expiration_date: '2028-01-01',
});
async function licensesOf(userId: number) {
  const [row] = await t.env.db.select({ n: count() }).from(licenses).where(eq(licenses.user_id, userId));
  return row!.n;
}

describe('Idempotency-Key on REST POSTs', () => {
  it('the same POST with the same key twice makes one license and answers the first answer again', async () => {
    const holder = await newHolder();
    const body = licenseBody(holder.user_id);
    const headers = { 'idempotency-key': `create-${Date.now()}` };
    const first = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body, headers });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body: { ...body }, headers });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await licensesOf(holder.user_id)).toBe(1);
  });

  it('the same key with another body answers 409 and creates nothing', async () => {
    const holder = await newHolder();
    const headers = { 'idempotency-key': `other-${Date.now()}` };
    const first = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body: licenseBody(holder.user_id), headers });
    expect(first.status).toBe(200);
    const other = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body: licenseBody(holder.user_id), headers });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatch(/different request/);
    expect(await licensesOf(holder.user_id)).toBe(1);
  });

  it('keys are per caller: another person with the same key runs their own request', async () => {
    const holder = await newHolder();
    const key = `shared-${Date.now()}`;
    const a = await api(t.env, 'POST', '/api/licenses', {
      token: t.roles.admin.token,
      body: licenseBody(holder.user_id),
      headers: { 'idempotency-key': key },
    });
    const b = await api(t.env, 'POST', '/api/licenses', {
      token: t.roles.broker.token,
      body: licenseBody(holder.user_id),
      headers: { 'idempotency-key': key },
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(await licensesOf(holder.user_id)).toBe(2);
  });

  it('a 4xx first answer is replayed; a request in progress answers 409; a malformed key 400', async () => {
    const headers = { 'idempotency-key': `bad-${Date.now()}` };
    const body = licenseBody(999_999);
    const first = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body, headers });
    expect(first.status).toBe(404);
    const again = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body, headers });
    expect(again.status).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const key = `inflight-${Date.now()}`;
    await t.env.db.transaction((tx) =>
      tx.insert(idempotencyKeys).values({ caller: `user:${t.roles.admin.user_id}`, idempotency_key: key, request_hash: 'x' }),
    );
    const holder = await newHolder();
    // Same hash or not, an unanswered claim is in progress only if it was for this request: another hash is a reuse.
    const reused = await api(t.env, 'POST', '/api/licenses', {
      token: t.roles.admin.token,
      body: licenseBody(holder.user_id),
      headers: { 'idempotency-key': key },
    });
    expect(reused.status).toBe(409);

    const malformed = await api(t.env, 'POST', '/api/licenses', {
      token: t.roles.admin.token,
      body: licenseBody(holder.user_id),
      headers: { 'idempotency-key': 'has spaces' },
    });
    expect(malformed.status).toBe(400);
    expect(await licensesOf(holder.user_id)).toBe(0);
  });

  it('answers "in progress" while the first request with the key has not answered', async () => {
    const holder = await newHolder();
    const body = licenseBody(holder.user_id);
    const key = `race-${Date.now()}`;
    const send = () => api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body, headers: { 'idempotency-key': key } });
    const answers = await Promise.all([send(), send()]);
    const statuses = answers.map((a) => a.status).sort();
    // Either the second saw the claim in progress (409) or the first had already answered (a replay, 200).
    expect(statuses[0]).toBe(200);
    if (statuses[1] === 409) expect(answers.find((a) => a.status === 409)!.body.error).toMatch(/in progress/);
    else expect(answers.some((a) => a.headers['idempotent-replayed'] === 'true')).toBe(true);
    expect(await licensesOf(holder.user_id)).toBe(1);
  });

  it('the background pass removes keys older than 24 hours', async () => {
    const old = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    const key = `old-${Date.now()}`;
    await t.env.db.transaction((tx) =>
      tx
        .insert(idempotencyKeys)
        .values({ caller: 'user:1', idempotency_key: key, request_hash: 'x', status: 200, body: '{}', created_at: old }),
    );
    expect(await removeExpiredKeys(t.env.db)).toBeGreaterThanOrEqual(1);
    const left = await t.env.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.idempotency_key, key));
    expect(left).toEqual([]);
  });

  // Two instances on one PostgreSQL database (docs/architecture.md "Several instances"): each its own app and pool.
  // PostgreSQL pass only, as server/test/instances.test.ts: SQLite is one process's file.
  if (ENGINE === 'postgres')
    it('two instances given the same key at once create one license between them', async () => {
      const db2 = await openDatabase(t.env.config);
      const { app: app2 } = await buildApp({ config: t.env.config, db: db2, services: createAppServices(), logger: false });
      await app2.ready();
      try {
        for (let round = 0; round < 5; round++) {
          const holder = await newHolder();
          const body = licenseBody(holder.user_id);
          const headers = { 'idempotency-key': `instances-${round}-${Date.now()}` };
          const answers = await Promise.all([
            api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body, headers }),
            api({ app: app2 }, 'POST', '/api/licenses', { token: t.roles.admin.token, body, headers }),
          ]);
          expect(answers.map((a) => a.status).sort()).toContain(200);
          for (const a of answers) expect([200, 409]).toContain(a.status);
          expect(await licensesOf(holder.user_id)).toBe(1);
        }
      } finally {
        await app2.close();
        await db2.close();
      }
    });
});
