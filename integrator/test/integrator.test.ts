/**
 * The integrator check: the committed client types are what openapi-typescript makes of the current
 * document, and the openapi-fetch program in src/client.ts works against a real server on 127.0.0.1.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestEnv, seedBrokerage, seedUser, tokenFor, type TestEnv } from '../../server/test/helpers.ts';
import { generateTypes, TYPES_FILE } from '../scripts/generate.ts';
import { runIntegrator } from '../src/client.ts';
import { runSync, verifyWebhook, type WebhookEvent } from '../src/sync.ts';
import { startWebhookWorker } from '../../server/src/modules/webhooks/worker.ts';

let env: TestEnv;
let baseUrl: string;
let admin: Awaited<ReturnType<typeof seedUser>>;
let agent: Awaited<ReturnType<typeof seedUser>>;

beforeAll(async () => {
  // Webhooks go to a receiver on 127.0.0.1 in this test (docs/api.md "Webhooks").
  env = await createTestEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await seedUser(env, 'Admin');
  const brokerage = await seedBrokerage(env);
  agent = await seedUser(env, 'Agent', { brokerage_id: brokerage });
  await callerFor(env, admin.user_id).licenses.create({
    user_id: agent.user_id,
    license_number: 'INT-1',
    state: 'CA',
    issue_date: '2025-01-01',
    expiration_date: '2027-01-01',
  });
  await env.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(env.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => env?.close());

describe('integrator client (openapi-typescript + openapi-fetch)', () => {
  it('uses types generated from the current /api/openapi.json (npm run generate -w @lm/integrator)', async () => {
    const current = fs.readFileSync(TYPES_FILE, 'utf8');
    expect(current === (await generateTypes()), 'integrator/src/api.d.ts is out of date: run npm run generate -w @lm/integrator').toBe(
      true,
    );
  });

  it('signs in, lists licenses, creates a brokerage and reads the text of a validation error', async () => {
    const report = await runIntegrator(baseUrl, admin.email, admin.password);
    expect(report.signedInAs).toBe(admin.email);
    expect(report.licenseCount).toBe(1);
    expect(report.createdBrokerageId).toBeGreaterThan(0);
    expect(report.validationCode).toBe('BAD_REQUEST');
    expect(report.validationMessage).toMatch(/name/i);
    expect(report.validationFields).toContain('name');
    expect(report.loginFailure).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(report.loginFailure.message).toMatch(/\w/);
  });

  it("syncs: changes since (updated_since), deletions, an ETag'd read, an idempotent create, a refused stale update", async () => {
    // The lead wires an API key here once keys exist; any bearer token works the same.
    const token = await tokenFor(env, admin.user_id);
    const caller = callerFor(env, admin.user_id);
    const old = await caller.licenses.create({
      user_id: agent.user_id,
      license_number: 'SYNC-OLD',
      state: 'CA',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    });
    await new Promise((r) => setTimeout(r, 5));
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const changed = await caller.licenses.create({
      user_id: agent.user_id,
      license_number: 'SYNC-NEW',
      state: 'TX',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    });
    const gone = await caller.licenses.create({
      user_id: agent.user_id,
      license_number: 'SYNC-GONE',
      state: 'NY',
      issue_date: '2025-01-01',
      expiration_date: '2027-01-01',
    });
    await caller.licenses.delete({ id: gone.license_id });

    const report = await runSync({
      baseUrl,
      token,
      since,
      create: {
        user_id: agent.user_id,
        license_number: `SYNC-${Date.now()}`,
        state: 'FL',
        issue_date: '2025-01-01',
        expiration_date: '2027-01-01',
      },
    });
    expect(report.changedLicenseIds).toContain(changed.license_id);
    expect(report.changedLicenseIds).not.toContain(old.license_id);
    expect(report.deleted).toContainEqual({ resource: 'licenses', id: gone.license_id });
    expect(report.etag).toMatch(/^".+"$/);
    expect(report.notModifiedStatus).toBe(304);
    expect(report.retriedId).toBe(report.createdId);
    expect(report.replayed).toBe(true);
    expect(report.staleUpdateStatus).toBe(412);
    expect(report.staleUpdateCode).toBe('PRECONDITION_FAILED');
  });

  it('receives license.created on its webhook and verifies it with standardwebhooks', async () => {
    const token = await tokenFor(env, admin.user_id);
    const events: WebhookEvent[] = [];
    let secret = '';
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        try {
          events.push(verifyWebhook(secret, Buffer.concat(chunks).toString('utf8'), headers));
          res.writeHead(204).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const worker = startWebhookWorker({ db: env.db, config: env.config });
    try {
      const hook = await fetch(`${baseUrl}/api/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['license.created'] }),
      });
      expect(hook.status).toBe(200);
      secret = ((await hook.json()) as { secret: string }).secret;
      const created = await callerFor(env, admin.user_id).licenses.create({
        user_id: agent.user_id,
        license_number: `HOOK-${Date.now()}`,
        state: 'CA',
        issue_date: '2025-01-01',
        expiration_date: '2027-01-01',
      });
      const deadline = Date.now() + 10_000;
      while (!events.some((e) => e.data.license_id === created.license_id) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(events.find((e) => e.data.license_id === created.license_id)?.type).toBe('license.created');
    } finally {
      worker();
      await worker.idle();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
