import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLogs, licenses } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { autoRenewDueLicenses } from '../src/modules/licenses/licenses.auto-renew.ts';
import { api, callerFor, type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

const license = async (over: Partial<typeof licenses.$inferInsert>) =>
  (
    await env.db.transaction((tx) =>
      tx
        .insert(licenses)
        .values({
          user_id: roles.agent.user_id,
          license_number: `AR-${Math.random()}`,
          state: 'CA',
          issue_date: '2020-01-01',
          expiration_date: '2026-11-20',
          ...over,
        })
        .returning(),
    )
  )[0]!;

describe('settings that shape licenses', () => {
  it('default_ce_hours is the CE hours required of a new license that names none', async () => {
    await env.db.transaction((tx) => writeSettings(tx, { default_ce_hours: 45 }, null));
    invalidateSettings();
    const body = {
      user_id: roles.agent.user_id,
      license_number: 'DCE-1',
      state: 'TX',
      issue_date: '2026-01-01',
      expiration_date: '2028-01-01',
    };
    const created = await api(env, 'POST', '/api/licenses', { token: roles.admin.token, body });
    expect(created.status).toBe(200);
    expect(created.body.ce_hours_required).toBe(45);
    const explicit = await api(env, 'POST', '/api/licenses', {
      token: roles.admin.token,
      body: { ...body, license_number: 'DCE-2', ce_hours_required: 12 },
    });
    expect(explicit.body.ce_hours_required).toBe(12);
    await env.db.transaction((tx) => writeSettings(tx, { default_ce_hours: 0 }, null));
    invalidateSettings();
  });

  it('auto-renewal renews an expired license with its CE hours complete, and only that one', async () => {
    const complete = await license({ ce_hours_required: 10 });
    const short = await license({ ce_hours_required: 10 });
    const future = await license({ expiration_date: '2027-06-01', ce_hours_required: 0 });
    // The hours are the ledger's: an adjustment each (the form field records one too).
    const admin = callerFor(env, roles.admin.user_id);
    await admin.licenses.adjust({ id: complete.license_id, hours: 10, reason: 'certificates on file' });
    await admin.licenses.adjust({ id: short.license_id, hours: 4, reason: 'certificates on file' });
    expect(await autoRenewDueLicenses(env.db, '2026-11-22')).toEqual({ renewed: 1, expired: 1 });
    const get = async (id: number) => (await env.db.select().from(licenses).where(eq(licenses.license_id, id)))[0]!;
    expect(await get(complete.license_id)).toMatchObject({ expiration_date: '2028-11-20', status: 'Active' });
    expect((await get(complete.license_id)).renewed_at).toBeTruthy();
    expect(await get(short.license_id)).toMatchObject({ expiration_date: '2026-11-20', status: 'Expired' });
    expect((await get(future.license_id)).expiration_date).toBe('2027-06-01');
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, complete.license_id)))
        .orderBy(auditLogs.log_id)
    ).at(-1)!;
    expect(entry.action).toBe('update');
    expect(entry.new_values).toContain('auto_renewal');
    // A second pass finds nothing left to do.
    expect(await autoRenewDueLicenses(env.db, '2026-11-22')).toEqual({ renewed: 0, expired: 0 });
  });
});
