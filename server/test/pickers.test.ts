/**
 * The pickers search the server (docs/decisions.md "Pickers search the server"): each answers at most its limit
 * (20 unless asked, at most 50) in name order, searches, stays in the caller's scope and reads chosen ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PICKER_LIMIT, PICKER_LIMIT_MAX } from '@lm/shared';
import { api, callerFor, seedBrokerage, seedUser, type Roles, type TestEnv, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
const tag = `Pk${Date.now().toString(36)}`;
let otherBrokerage: number;
let outsider: number;
const many: number[] = [];

beforeAll(async () => {
  ({ env, roles } = t);
  // More holders than one picker page, in the Broker's brokerage; one more in another brokerage.
  for (let i = 0; i < PICKER_LIMIT + 5; i++) {
    const u = await seedUser(env, 'Agent', {
      first_name: `${tag}`,
      last_name: `Zz${String(i).padStart(2, '0')}`,
      brokerage_id: roles.brokerageId,
    });
    many.push(u.user_id);
  }
  otherBrokerage = await seedBrokerage(env, `${tag} Other Realty`);
  outsider = (await seedUser(env, 'Agent', { first_name: `${tag}`, last_name: 'Outsider', brokerage_id: otherBrokerage })).user_id;
  for (let i = 0; i < PICKER_LIMIT + 3; i++) await seedBrokerage(env, `${tag} Realty ${String(i).padStart(2, '0')}`);
}, 60_000);

describe('the holder picker (GET /licenses/holders)', () => {
  it('answers at most the limit, in name order', async () => {
    const admin = callerFor(env, roles.admin.user_id);
    const first = await admin.licenses.holders({ search: tag });
    expect(first).toHaveLength(PICKER_LIMIT);
    const names = first.map((h) => h.last_name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(await admin.licenses.holders({ search: tag, limit: PICKER_LIMIT_MAX })).toHaveLength(PICKER_LIMIT + 6);
    expect((await admin.licenses.holders()).length).toBeLessThanOrEqual(PICKER_LIMIT);
  });

  it('searches: a holder beyond the first page is found by typing part of the name', async () => {
    const admin = callerFor(env, roles.admin.user_id);
    const found = await admin.licenses.holders({ search: `${tag.toLowerCase()} zz24` });
    expect(found.map((h) => h.user_id)).toEqual([many[24]]);
    expect(found[0]).toMatchObject({ role_name: 'Agent', is_active: true });
  });

  it("stays in scope: a Broker never sees another brokerage's people, even by id", async () => {
    const broker = callerFor(env, roles.broker.user_id);
    const seen = await broker.licenses.holders({ search: tag, limit: PICKER_LIMIT_MAX });
    expect(seen.map((h) => h.user_id)).not.toContain(outsider);
    expect(seen).toHaveLength(PICKER_LIMIT + 5);
    expect(await broker.licenses.holders({ ids: String(outsider) })).toEqual([]);
    const agent = callerFor(env, roles.agent.user_id);
    expect((await agent.licenses.holders({ search: tag })).map((h) => h.user_id)).toEqual([]);
  });

  it('reads the chosen ids, even when they are not on the first page', async () => {
    const admin = callerFor(env, roles.admin.user_id);
    const chosen = await admin.licenses.holders({ ids: `${many[24]},${outsider}` });
    expect(chosen.map((h) => h.user_id).sort()).toEqual([many[24], outsider].sort());
  });

  it('over REST: the query string, and bad input is a 400 with a message', async () => {
    const ok = await api(env, 'GET', `/api/licenses/holders?search=${tag}&limit=3&ids=${many.slice(0, 5).join(',')}`, {
      token: roles.admin.token,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(3);
    for (const q of ['limit=51', 'limit=0', 'ids=1,x', `ids=${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}`]) {
      const bad = await api(env, 'GET', `/api/licenses/holders?${q}`, { token: roles.admin.token });
      expect(bad.status, q).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
  });
});

describe('the brokerage picker (GET /brokerages/options)', () => {
  it('answers at most the limit in name order, searches and reads ids', async () => {
    const admin = callerFor(env, roles.admin.user_id);
    const first = await admin.brokerages.options({ search: `${tag} Realty` });
    expect(first).toHaveLength(PICKER_LIMIT);
    expect(first[0]!.name).toBe(`${tag} Realty 00`);
    expect((await admin.brokerages.options({ search: 'realty 22' })).map((b) => b.name)).toContain(`${tag} Realty 22`);
    expect((await admin.brokerages.options({ ids: String(otherBrokerage) })).map((b) => b.brokerage_id)).toEqual([otherBrokerage]);
    const rest = await api(env, 'GET', `/api/brokerages/options?search=${encodeURIComponent(tag)}&limit=2`, { token: roles.admin.token });
    expect(rest.status).toBe(200);
    expect(rest.body).toHaveLength(2);
  });

  it('is the Admin’s only', async () => {
    const res = await api(env, 'GET', '/api/brokerages/options', { token: roles.broker.token });
    expect(res.status).toBe(403);
  });
});
