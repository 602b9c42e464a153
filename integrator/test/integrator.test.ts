/**
 * The integrator check: the committed client types are what openapi-typescript makes of the current
 * document, and the openapi-fetch program in src/client.ts works against a real server on 127.0.0.1.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestEnv, seedBrokerage, seedUser, type TestEnv } from '../../server/test/helpers.ts';
import { generateTypes, TYPES_FILE } from '../scripts/generate.ts';
import { runIntegrator } from '../src/client.ts';

let env: TestEnv;
let baseUrl: string;
let admin: Awaited<ReturnType<typeof seedUser>>;

beforeAll(async () => {
  env = await createTestEnv();
  admin = await seedUser(env, 'Admin');
  const brokerage = await seedBrokerage(env);
  const agent = await seedUser(env, 'Agent', { brokerage_id: brokerage });
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
});
