/**
 * People in name order (docs/decisions.md "People in name order"): every list and picker that orders people by name
 * puts them by last name, then first name, letter case aside, on both engines, and the users index holds them in
 * that order (db/sql.ts personNameOrder, index users_name_idx).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, isNull } from 'drizzle-orm';
import { users } from '../src/db/schema/index.ts';
import { ENGINE } from '../src/db/client.ts';
import { personNameOrder } from '../src/db/sql.ts';
import { licenseHolderCondition } from '../src/modules/licenses/licenses.service.ts';
import { api, callerFor, seedBrokerage, seedUser, tokenFor, type Roles, type TestEnv, useTestEnv } from './helpers.ts';
import { queryPlan } from './db-tools.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
let brokerToken: string;

// A case-sensitive order would put the capitals first (Baker, Bo Carter, Zulu, adams, bell, al Carter).
const PEOPLE = [
  { first_name: 'Zed', last_name: 'adams' },
  { first_name: 'Amy', last_name: 'Baker' },
  { first_name: 'Cy', last_name: 'bell' },
  { first_name: 'Bo', last_name: 'Carter' },
  { first_name: 'al', last_name: 'Carter' },
];
const IN_ORDER = ['Zed adams', 'Amy Baker', 'Cy bell', 'al Carter', 'Bo Carter', 'Bea Zulu'];
const names = (rows: Array<{ first_name: string; last_name: string }>) => rows.map((r) => `${r.first_name} ${r.last_name}`);

beforeAll(async () => {
  ({ env, roles } = t);
  const brokerage = await seedBrokerage(env, `Name order ${Date.now()}`);
  const broker = await seedUser(env, 'Broker', { brokerage_id: brokerage, first_name: 'Bea', last_name: 'Zulu' });
  brokerToken = await tokenFor(env, broker.user_id);
  const admin = callerFor(env, roles.admin.user_id);
  for (const [i, person] of [...PEOPLE, { first_name: 'Bea', last_name: 'Zulu' }].entries()) {
    const userId =
      person.last_name === 'Zulu' ? broker.user_id : (await seedUser(env, 'Agent', { brokerage_id: brokerage, ...person })).user_id;
    await admin.licenses.create({
      user_id: userId,
      license_number: `NAME-${Date.now()}-${i}`,
      state: 'TX',
      issue_date: '2025-01-01',
      expiration_date: '2028-01-01',
    });
    await admin.payments.create({ user_id: userId, amount: 10 } as never);
  }
});

describe('people in name order, letter case aside', () => {
  it('the users list, the licenses by holder, the payments by payer and the holder picker agree', async () => {
    const get = async (path: string) => {
      const res = await api(env, 'GET', path, { token: brokerToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    expect(names((await get('/api/users?sort=name&order=asc')).users)).toEqual(IN_ORDER);
    expect(names(await get('/api/licenses/holders'))).toEqual(IN_ORDER);
    expect(names(await get('/api/licenses?sort=holder&order=asc'))).toEqual(IN_ORDER);
    expect(names(await get('/api/payments?sort=user&order=asc'))).toEqual(IN_ORDER);
    expect(names((await get('/api/users?sort=name&order=desc')).users)).toEqual([...IN_ORDER].reverse());
  });

  it("the holder picker's first page reads the users index in name order, with no sort step", async () => {
    const query = env.db
      .select({ id: users.user_id })
      .from(users)
      .where(and(licenseHolderCondition(true), isNull(users.deleted_at)))
      .orderBy(...personNameOrder(users), users.user_id)
      .limit(20)
      .toSQL();
    // Tiny tables, where reading them all and sorting is cheapest: on PostgreSQL both are priced out, and a sort would
    // still be planned if the index could not give the order.
    const plan = await queryPlan(env.db, query, ['enable_seqscan', 'enable_sort']);
    if (ENGINE === 'postgres') {
      expect(plan).toMatch(/Index Scan using users_name_idx/);
      expect(plan).not.toMatch(/Sort/);
    } else {
      expect(plan).toMatch(/SCAN users USING INDEX users_name_idx/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
