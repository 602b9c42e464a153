/**
 * Webhooks (issue 29, docs/api.md "Webhooks"): endpoints (Admin only), the outbox written with the change, the
 * worker's signed deliveries (verified with the standardwebhooks library), retries with the same webhook-id, the
 * delivery log, redelivery, the URL rules, and the endpoint disabled after failing for days. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { addDays, WEBHOOK_EVENTS, WEBHOOK_MAX_ENDPOINTS, WEBHOOK_MESSAGES } from '@lm/shared';
import { auditLogs, licenses, notifications, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../src/db/schema/index.ts';
import { today } from '../src/core/dates.ts';
import { emitEvent } from '../src/modules/webhooks/events.ts';
import { deliverDue, retryDelay, startWebhookWorker, type WebhookWorker } from '../src/modules/webhooks/worker.ts';
import { isPrivateAddress } from '../src/modules/webhooks/url-guard.ts';
import { autoRenewDueLicenses } from '../src/modules/licenses/licenses.auto-renew.ts';
import { runReminders } from '../src/modules/notification-management/reminders.ts';
import { api, callerFor, trpcStatus, useTestEnv } from './helpers.ts';
import { startReceiver, type Receiver } from './webhooks-receiver.ts';

const t = useTestEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
let receiver: Receiver;
let worker: WebhookWorker | undefined;

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

function licenseBody(userId: number, fields: Record<string, unknown> = {}) {
  return {
    user_id: userId,
    license_number: `WH-${unique()}`,
    state: 'CA',
    issue_date: addDays(today(), -300),
    expiration_date: addDays(today(), 400),
    ...fields,
  };
}

async function createEndpoint(events: readonly string[] = ['license.created'], url = receiver.url) {
  const res = await api(t.env, 'POST', '/api/webhooks', {
    token: t.roles.admin.token,
    body: { url, events, description: 'test receiver' },
  });
  expect(res.status).toBe(200);
  return res.body as { id: number; secret: string };
}

async function outboxOf(endpointId: number) {
  return t.env.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpoint_id, endpointId))
    .orderBy(webhookDeliveries.created_at);
}

/** Runs the worker's rounds until nothing is due (the tests that drive time call it themselves). */
async function drain() {
  while ((await deliverDue(t.env.db, t.env.config)) > 0);
}

beforeAll(async () => {
  receiver = await startReceiver();
});

// Each test's endpoints go with it (their deliveries too), so a failed test leaves nothing for the next.
afterEach(async () => {
  receiver.answer(() => 200);
  await t.env.db.transaction((tx) => tx.delete(webhookEndpoints));
});

afterAll(async () => {
  worker?.();
  await worker?.idle();
  await receiver?.close();
});

describe('URL rules', () => {
  it('isPrivateAddress: private, loopback, link-local, unique-local and mapped addresses are refused; public ones pass', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '224.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('ftp: and credentials are refused (400) on both paths; nothing is written', async () => {
    const before = (await t.env.db.select().from(webhookEndpoints)).length;
    const ftp = await api(t.env, 'POST', '/api/webhooks', {
      token: t.roles.admin.token,
      body: { url: 'ftp://example.com/x', events: ['license.created'] },
    });
    expect(ftp.status).toBe(400);
    expect(ftp.body.issues).toEqual([{ path: 'url', message: WEBHOOK_MESSAGES.urlScheme }]);
    const creds = await api(t.env, 'POST', '/api/webhooks', {
      token: t.roles.admin.token,
      body: { url: 'https://u:p@example.com/x', events: ['license.created'] },
    });
    expect(creds.status).toBe(400);
    const none = await api(t.env, 'POST', '/api/webhooks', {
      token: t.roles.admin.token,
      body: { url: 'https://example.com/x', events: [] },
    });
    expect(none.status).toBe(400);
    const trpc = await trpcStatus(
      callerFor(t.env, t.roles.admin.user_id).webhooks.create({ url: 'ftp://example.com', events: ['user.created'] }),
    );
    expect(trpc).toBe(400);
    expect((await t.env.db.select().from(webhookEndpoints)).length).toBe(before);
  });

  it('loopback and private hosts are refused without WEBHOOK_ALLOW_PRIVATE, at create and at send', async () => {
    const allowed = await createEndpoint(['user.created']);
    t.env.config.webhookAllowPrivate = false;
    try {
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://localhost:9/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest/meta-data',
        'http://10.0.0.5/',
      ]) {
        const res = await api(t.env, 'POST', '/api/webhooks', { token: t.roles.admin.token, body: { url, events: ['license.created'] } });
        expect(res.status, url).toBe(400);
        expect(res.body.error, url).toBe(WEBHOOK_MESSAGES.urlPrivate);
      }
      const moved = await api(t.env, 'PATCH', `/api/webhooks/${allowed.id}`, {
        token: t.roles.admin.token,
        body: { url: 'http://127.0.0.2/' },
      });
      expect(moved.status).toBe(400);
      // At send time too: the endpoint saved while allowed is not sent to.
      await t.env.db.transaction((tx) => emitEvent(tx, 'user.created', { probe: true }));
      const count = receiver.received.length;
      await drain();
      expect(receiver.received.length).toBe(count);
      const [row] = await outboxOf(allowed.id);
      expect(row).toMatchObject({ attempts: 1, last_status_code: null, delivered_at: null });
      expect(row!.last_error).toMatch(/private, loopback or link-local/);
    } finally {
      t.env.config.webhookAllowPrivate = true;
      await api(t.env, 'DELETE', `/api/webhooks/${allowed.id}`, { token: t.roles.admin.token });
    }
  });
});

describe('endpoints: Admin only, the secret shown once, audited', () => {
  it('other roles get 403 on every webhook path, REST and tRPC', async () => {
    for (const who of ['broker', 'agent', 'school'] as const) {
      const token = t.roles[who].token;
      expect((await api(t.env, 'GET', '/api/webhooks', { token })).status).toBe(403);
      expect(
        (await api(t.env, 'POST', '/api/webhooks', { token, body: { url: 'https://example.com', events: ['license.created'] } })).status,
      ).toBe(403);
      expect((await api(t.env, 'GET', '/api/webhooks/1/deliveries', { token })).status).toBe(403);
      expect(await trpcStatus(callerFor(t.env, t.roles[who].user_id).webhooks.list())).toBe(403);
    }
    expect((await api(t.env, 'GET', '/api/webhooks')).status).toBe(401);
  });

  it('POST answers a whsec_ secret once; lists and the audit log never show it', async () => {
    const created = await createEndpoint(['license.created', 'payment.recorded']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await api(t.env, 'GET', '/api/webhooks', { token: t.roles.admin.token });
    expect(list.status).toBe(200);
    const mine = list.body.webhooks.find((w: { id: number }) => w.id === created.id);
    expect(mine).toMatchObject({ events: ['license.created', 'payment.recorded'], enabled: true, description: 'test receiver' });
    expect(mine.secret_prefix).toBe(created.secret.slice(0, 10));
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const entries = await t.env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'webhook_endpoints'), eq(auditLogs.target_id, created.id)));
    expect(entries.map((e) => e.action)).toEqual(['create']);
    expect(JSON.stringify(entries)).not.toContain(created.secret.slice(6));
    expect((await api(t.env, 'DELETE', `/api/webhooks/${created.id}`, { token: t.roles.admin.token })).status).toBe(200);
    expect((await api(t.env, 'GET', `/api/webhooks/${created.id}`, { token: t.roles.admin.token })).status).toBe(404);
  });

  it(`at most ${WEBHOOK_MAX_ENDPOINTS} endpoints (every event reads them all): the next one is 409`, async () => {
    await t.env.db.transaction((tx) =>
      tx.insert(webhookEndpoints).values(
        Array.from({ length: WEBHOOK_MAX_ENDPOINTS }, (_, i) => ({
          url: `https://93.184.216.34/${i}`,
          events: '["license.created"]',
          secret: `whsec_${'A'.repeat(43)}=`,
          enabled: false,
        })),
      ),
    );
    const res = await api(t.env, 'POST', '/api/webhooks', {
      token: t.roles.admin.token,
      body: { url: receiver.url, events: ['license.created'] },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(WEBHOOK_MESSAGES.tooMany);
  });
});

describe('must-show 2: delivery, signature, retry and the log', () => {
  it('a local receiver gets license.created within 10 s of the REST create, verified by standardwebhooks', async () => {
    worker = startWebhookWorker({ db: t.env.db, config: t.env.config }, { log: { info: () => {}, error: (o, m) => console.error(m, o) } });
    const endpoint = await createEndpoint(['license.created']);
    const started = Date.now();
    const created = await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body: licenseBody(t.roles.agent.user_id) });
    expect(created.status).toBe(200);
    await receiver.waitFor(() => receiver.verified(endpoint.secret).some((b) => b.data.license_id === created.body.license_id), 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    const [event] = receiver.verified(endpoint.secret).filter((b) => b.data.license_id === created.body.license_id);
    expect(event!.type).toBe('license.created');
    // data is exactly the REST answer for the license.
    expect(event!.data).toEqual(created.body);
    expect(event!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    const raw = receiver.received.find((r) => r.headers['webhook-id'] === event!.id)!;
    expect(raw.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(raw.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    worker();
    await worker.idle();
    worker = undefined;
    await api(t.env, 'DELETE', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token });
  });

  it('a receiver answering 500 once gets the same webhook-id again; the log shows the 500 and then the 200', async () => {
    const endpoint = await createEndpoint(['payment.recorded']);
    const first = receiver.received.length;
    receiver.answer((i) => (i === first ? 500 : 200));
    const paid = await api(t.env, 'POST', '/api/payments', {
      token: t.roles.admin.token,
      body: { user_id: t.roles.agent.user_id, amount: 12.5 },
    });
    expect(paid.status).toBe(200);
    await drain();
    const [failed] = await outboxOf(endpoint.id);
    expect(failed).toMatchObject({ attempts: 1, last_status_code: 500, delivered_at: null });
    // The backoff: about 5 s (with up to 10% jitter), not now.
    const wait = Date.parse(failed!.next_attempt_at!) - Date.parse(failed!.created_at);
    expect(wait).toBeGreaterThanOrEqual(4_900);
    expect(wait).toBeLessThan(60_000);
    expect(await deliverDue(t.env.db, t.env.config)).toBe(0);
    // Time moves on: the retry comes due.
    await t.env.db.transaction((tx) =>
      tx
        .update(webhookDeliveries)
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(webhookDeliveries.id, failed!.id)),
    );
    await drain();
    const hits = receiver.received.slice(first);
    expect(hits.map((h) => h.status)).toEqual([500, 200]);
    expect(new Set(hits.map((h) => h.headers['webhook-id']))).toEqual(new Set([failed!.id]));
    expect(hits[0]!.body).toBe(hits[1]!.body);
    const verified = receiver.verified(endpoint.secret).filter((b) => b.id === failed!.id);
    expect(verified).toHaveLength(2);
    expect(verified[0]!.data).toEqual(paid.body);

    const log = await api(t.env, 'GET', `/api/webhooks/${endpoint.id}/deliveries`, { token: t.roles.admin.token });
    expect(log.status).toBe(200);
    expect(log.body.pagination).toMatchObject({ total: 1, page: 1 });
    const [entry] = log.body.deliveries;
    expect(entry).toMatchObject({ id: failed!.id, event: 'payment.recorded', state: 'delivered', attempts: 2, last_status_code: 200 });
    expect(entry.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    expect(entry.attempt_log[0].error).toMatch(/^HTTP 500/);
    expect(entry.attempt_log.every((a: { duration_ms: number }) => Number.isInteger(a.duration_ms) && a.duration_ms >= 0)).toBe(true);

    // Redeliver: the same webhook-id once more.
    const again = await api(t.env, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${failed!.id}/redeliver`, {
      token: t.roles.admin.token,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: failed!.id, state: 'pending' });
    await drain();
    expect(receiver.received.slice(first).map((h) => h.headers['webhook-id'])).toEqual([failed!.id, failed!.id, failed!.id]);
    const missing = await api(t.env, 'POST', `/api/webhooks/${endpoint.id}/deliveries/msg_nope/redeliver`, { token: t.roles.admin.token });
    expect(missing.status).toBe(404);
    receiver.answer(() => 200);
    await api(t.env, 'DELETE', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token });
  });

  it('retries back off over hours and stop after the last attempt', () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, none))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(retryDelay(7, none)).toBeNull();
  });
});

describe('the outbox commits with the change', () => {
  it('a rolled-back change writes no outbox row; a refused REST create neither', async () => {
    const endpoint = await createEndpoint(['license.created']);
    await expect(
      t.env.db.transaction(async (tx) => {
        await emitEvent(tx, 'license.created', { rolled: 'back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const body = licenseBody(t.roles.agent.user_id);
    expect((await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body })).status).toBe(200);
    // The same number again: 409, rolled back after the insert was tried.
    expect((await api(t.env, 'POST', '/api/licenses', { token: t.roles.admin.token, body })).status).toBe(409);
    const rows = await outboxOf(endpoint.id);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload).data.license_number).toBe(body.license_number);
    await api(t.env, 'DELETE', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token });
  });

  it('each event comes from the place that makes the change, to the endpoints subscribed to it', async () => {
    const all = await createEndpoint(WEBHOOK_EVENTS);
    const licensesOnly = await createEndpoint(['license.updated']);
    const admin = t.roles.admin.token;
    const lic = (await api(t.env, 'POST', '/api/licenses', { token: admin, body: licenseBody(t.roles.agent.user_id) })).body;
    expect(
      (await api(t.env, 'PUT', `/api/licenses/${lic.license_id}`, { token: admin, body: { license_number: `${lic.license_number}X` } }))
        .status,
    ).toBe(200);
    expect(
      (await api(t.env, 'POST', `/api/licenses/${lic.license_id}/renew`, { token: admin, body: { allow_incomplete: true } })).status,
    ).toBe(200);
    const user = await api(t.env, 'POST', '/api/users', {
      token: admin,
      body: { email: `wh.${unique()}@test.example`, password: 'Str0ngPassword', first_name: 'Web', last_name: 'Hook', role_id: 3 },
    });
    expect(user.status).toBe(200);
    // completion.approved: a School records a completion of its own course (approved at once).
    const course = await callerFor(t.env, t.roles.school.user_id).courses.create({
      course_name: `Hooks ${unique()}`,
      description: 'Webhooks',
      provider: 'Academy',
      ce_hours: 2,
    });
    const completion = await api(t.env, 'POST', '/api/completions', {
      token: t.roles.school.token,
      body: { course_id: course.course_id, user_id: t.roles.agent.user_id, completion_date: addDays(today(), -5) },
    });
    expect(completion.status).toBe(200);
    expect(completion.body.status).toBe('Approved');
    // license.expiring and license.expired: the daily pass.
    const expiring = (
      await api(t.env, 'POST', '/api/licenses', {
        token: admin,
        body: licenseBody(t.roles.agent.user_id, { expiration_date: addDays(today(), 10) }),
      })
    ).body;
    const lapsed = (
      await api(t.env, 'POST', '/api/licenses', {
        token: admin,
        body: licenseBody(t.roles.agent.user_id, { issue_date: addDays(today(), -800), expiration_date: addDays(today(), -3) }),
      })
    ).body;
    await autoRenewDueLicenses(t.env.db, today(), false);
    await runReminders(t.env.db, t.env.config);
    await runReminders(t.env.db, t.env.config); // a second pass announces nothing twice

    const events = (await outboxOf(all.id)).map((r) => ({ type: r.event, data: JSON.parse(r.payload).data }));
    const types = events.map((e) => e.type);
    for (const type of [
      'license.created',
      'license.updated',
      'license.renewed',
      'user.created',
      'completion.approved',
      'license.expiring',
      'license.expired',
    ])
      expect(types, type).toContain(type);
    expect(events.find((e) => e.type === 'user.created')!.data).toEqual(user.body);
    expect(events.find((e) => e.type === 'completion.approved')!.data).toEqual(completion.body);
    expect(events.filter((e) => e.type === 'license.expiring' && e.data.license_id === expiring.license_id)).toHaveLength(1);
    expect(events.find((e) => e.type === 'license.expired')!.data).toMatchObject({ license_id: lapsed.license_id, status: 'Expired' });
    const [stored] = await t.env.db.select().from(licenses).where(eq(licenses.license_id, lapsed.license_id));
    expect(stored!.status).toBe('Expired');
    expect((await outboxOf(licensesOnly.id)).map((r) => r.event)).toEqual(['license.updated']);
    await t.env.db.transaction((tx) => tx.delete(webhookEndpoints).where(sql`${webhookEndpoints.id} in (${all.id}, ${licensesOnly.id})`));
  });
});

describe('an endpoint failing for days', () => {
  it('is disabled with a reason and the Admins told; enabling it again clears that and sends what waited', async () => {
    const endpoint = await createEndpoint(['user.created'], `http://127.0.0.1:${receiver.port}/down`);
    const first = receiver.received.length;
    receiver.answer(() => 503);
    await t.env.db.transaction((tx) => emitEvent(tx, 'user.created', { n: 1 }));
    await drain();
    const [ep] = await t.env.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(ep!.failing_since).not.toBeNull();
    expect(ep!.enabled).toBe(true);
    // Four days of failures later:
    await t.env.db.transaction(async (tx) => {
      await tx
        .update(webhookEndpoints)
        .set({ failing_since: new Date(Date.now() - 4 * 86_400_000).toISOString() })
        .where(eq(webhookEndpoints.id, endpoint.id));
      await tx
        .update(webhookDeliveries)
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(webhookDeliveries.endpoint_id, endpoint.id));
    });
    await drain();
    const got = await api(t.env, 'GET', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token });
    expect(got.body).toMatchObject({ enabled: false, disabled_reason: 'Every delivery failed for 3 days.' });
    const told = await t.env.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, t.roles.admin.user_id), eq(notifications.event, 'webhook_disabled')));
    expect(told).toHaveLength(1);
    expect(told[0]!.title).toBe(`Webhook endpoint disabled: http://127.0.0.1:${receiver.port}/down`);
    // Disabled: nothing is sent, redelivery is refused.
    const [delivery] = await outboxOf(endpoint.id);
    expect(delivery).toMatchObject({ attempts: 2, delivered_at: null });
    await t.env.db.transaction((tx) =>
      tx
        .update(webhookDeliveries)
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(webhookDeliveries.id, delivery!.id)),
    );
    expect(await deliverDue(t.env.db, t.env.config)).toBe(0);
    const refused = await api(t.env, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery!.id}/redeliver`, {
      token: t.roles.admin.token,
    });
    expect(refused.status).toBe(409);
    // Enabled again: the failing state is cleared and the waiting delivery goes out.
    receiver.answer(() => 200);
    const enabled = await api(t.env, 'PATCH', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await drain();
    expect(receiver.received.slice(first).map((r) => r.status)).toEqual([503, 503, 200]);
    const attempts = await t.env.db.select().from(webhookAttempts).where(eq(webhookAttempts.delivery_id, delivery!.id));
    expect(attempts.map((a) => a.status_code)).toEqual([503, 503, 200]);
    await api(t.env, 'DELETE', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token });
  });

  it('a test event goes to one endpoint', async () => {
    const endpoint = await createEndpoint(['import.committed']);
    const res = await api(t.env, 'POST', `/api/webhooks/${endpoint.id}/test`, { token: t.roles.admin.token });
    expect(res.status).toBe(200);
    await drain();
    expect(
      receiver
        .verified(endpoint.secret)
        .filter((b) => b.id === res.body.id)
        .map((b) => b.type),
    ).toEqual(['webhook.test']);
    await api(t.env, 'DELETE', `/api/webhooks/${endpoint.id}`, { token: t.roles.admin.token });
  });
});
