/**
 * The running totals (docs/decisions.md "Totals kept as changes happen"): after every kind of write (creates,
 * updates of state, status and date, renewals, deletes, holders moving between brokerages, a restore) license_totals
 * and license_month_totals hold exactly the licenses' counts by day and by month, and the license report and the
 * Admin's stats, read from the totals, equal the same figures counted from the licenses the old way (the oracle
 * below, kept in this test only). And the scope's condition starts from the brokerage's people (the plan uses the
 * holder-leading indexes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, EXPIRING_SOON_DAYS, LICENSE_STATUSES, PAYMENT_METHODS, ROLE, toDollars, type ReportFilters } from '@lm/shared';
import { licenses } from '../src/db/schema/index.ts';
import { rawRows } from '../src/db/raw.ts';
import { today } from '../src/core/dates.ts';
import { ENGINE } from '../src/db/client.ts';
import { countWhere, whereAll } from '../src/db/sql.ts';
import { licenseAnalytics } from '../src/modules/reports/reports.service.ts';
import { systemStats } from '../src/modules/admin/stats.service.ts';
import { resolvePeriod } from '../src/modules/reports/period.ts';
import { licenseConds, licensesFrom } from '../src/modules/reports/sql.ts';
import { expiringSql, LICENSE_COLUMNS_AS_L, statusIs, statusSql } from '../src/modules/licenses/compliance.sql.ts';
import { visibleUsersCondition } from '../src/core/scope.ts';
import { api, callerFor, seedBrokerage, seedUser, type Roles, type TestEnv, useTestEnv } from './helpers.ts';
import { queryPlan } from './db-tools.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
let T: string;
let n = 0;

beforeAll(() => {
  ({ env, roles } = t);
  T = today();
});

/** The license report as it was computed before the totals: one pass over the licenses (the oracle). */
async function oracleReport(f: NonNullable<ReportFilters>) {
  const period = resolvePeriod(f);
  const l = LICENSE_COLUMNS_AS_L;
  const soon = addDays(T, EXPIRING_SOON_DAYS);
  const groups = await rawRows<{
    state: string;
    status: string;
    total: number;
    active: number;
    expired: number;
    expiring: number;
    renewed: number;
  }>(
    env.db,
    sql`SELECT l.state AS state, ${statusSql(l, T)} AS status, count(*) AS total,
               ${countWhere(statusIs(l, 'Active', T))} AS active,
               ${countWhere(statusIs(l, 'Expired', T))} AS expired,
               ${countWhere(expiringSql(l, T, soon))} AS expiring,
               ${countWhere(sql`l.renewed_at >= ${period.fromIso} AND l.renewed_at < ${period.toIso}`)} AS renewed
          ${licensesFrom(f)} ${whereAll(licenseConds(f, T))}
         GROUP BY 1, 2`,
  );
  const states = new Map<string, { state: string; active: number; expired: number; total: number }>();
  const statuses = new Map<string, number>();
  const sum = { expiring_soon: 0, expired: 0, renewed_this_period: 0 };
  for (const g of groups) {
    const s = states.get(g.state) ?? { state: g.state, active: 0, expired: 0, total: 0 };
    s.active += Number(g.active);
    s.expired += Number(g.expired);
    s.total += Number(g.total);
    states.set(g.state, s);
    statuses.set(g.status, (statuses.get(g.status) ?? 0) + Number(g.total));
    sum.expiring_soon += Number(g.expiring);
    sum.expired += Number(g.expired);
    sum.renewed_this_period += Number(g.renewed);
  }
  return { ...sum, states, statuses };
}

/** A date column as YYYY-MM-DD text on either engine. */
const day = (column: string) => sql.raw(ENGINE === 'postgres' ? `to_char(${column}, 'YYYY-MM-DD')` : column);
/** The first day of a date column's month, as YYYY-MM-DD text on either engine. */
const month = (column: string) => sql.raw(ENGINE === 'postgres' ? `to_char(${column}, 'YYYY-MM-01')` : `strftime('%Y-%m-01', ${column})`);

async function expectTotalsRight(label: string) {
  const kept = await rawRows<{ state: string; status: string; d: string; n: number }>(
    env.db,
    sql`SELECT state, status, ${sql.raw(ENGINE === 'postgres' ? "to_char(expiration_date, 'YYYY-MM-DD')" : 'expiration_date')} AS d, n
          FROM license_totals ORDER BY status, d, state`,
  );
  const counted = await rawRows<{ state: string; status: string; d: string; n: number }>(
    env.db,
    sql`SELECT state, status, ${sql.raw(ENGINE === 'postgres' ? "to_char(expiration_date, 'YYYY-MM-DD')" : 'expiration_date')} AS d, count(*) AS n
          FROM licenses GROUP BY status, expiration_date, state ORDER BY status, d, state`,
  );
  expect(
    kept.map((r) => ({ ...r, n: Number(r.n) })),
    `${label}: license_totals`,
  ).toEqual(counted.map((r) => ({ ...r, n: Number(r.n) })));

  // The same counts by expiration month (its first day), recounted here with an expression of the test's own.
  const keptMonths = await rawRows<{ state: string; status: string; m: string; n: number }>(
    env.db,
    sql`SELECT state, status, ${day('expiration_month')} AS m, n FROM license_month_totals ORDER BY status, m, state`,
  );
  const countedMonths = await rawRows<{ state: string; status: string; m: string; n: number }>(
    env.db,
    sql`SELECT state, status, ${month('expiration_date')} AS m, count(*) AS n
          FROM licenses GROUP BY status, ${month('expiration_date')}, state ORDER BY status, m, state`,
  );
  expect(
    keptMonths.map((r) => ({ ...r, n: Number(r.n) })),
    `${label}: license_month_totals`,
  ).toEqual(countedMonths.map((r) => ({ ...r, n: Number(r.n) })));

  for (const f of [{}, { state: 'TX' }, { license_status: 'Expired' as const }, { license_status: 'Active' as const, state: 'CA' }]) {
    const report = await licenseAnalytics({ db: env.db }, f);
    const oracle = await oracleReport(f);
    expect(report.expiring_soon, `${label} ${JSON.stringify(f)} expiring`).toBe(oracle.expiring_soon);
    expect(report.expired, `${label} ${JSON.stringify(f)} expired`).toBe(oracle.expired);
    expect(report.renewed_this_period, `${label} ${JSON.stringify(f)} renewed`).toBe(oracle.renewed_this_period);
    expect(new Map(report.top_states.map((s) => [s.state, s])), `${label} ${JSON.stringify(f)} states`).toEqual(oracle.states);
    expect(new Map(report.by_status.map((s) => [s.status, s.count])), `${label} ${JSON.stringify(f)} statuses`).toEqual(oracle.statuses);
  }
  const stats = await systemStats({ db: env.db }, {});
  const all = await oracleReport({});
  for (const s of LICENSE_STATUSES)
    expect(stats.licenses.by_status.find((b) => b.status === s)!.count, `${label} stats ${s}`).toBe(all.statuses.get(s) ?? 0);
}

describe('running totals of the licenses', () => {
  it('equal the counts of the licenses after creates, updates, renewals, deletes, moves and a restore', async () => {
    const admin = callerFor(env, roles.admin.user_id);
    const north = await seedBrokerage(env, `North ${Date.now()}`);
    const mover = await seedUser(env, 'Agent', { brokerage_id: north });
    const holders = [roles.agent.user_id, roles.broker.user_id, mover.user_id];
    const create = (user_id: number, state: string, expIn: number, status?: string) =>
      admin.licenses.create({
        user_id,
        license_number: `TOT-${++n}-${Date.now()}`,
        state,
        issue_date: addDays(T, -800),
        expiration_date: addDays(T, expIn),
        ...(status ? { status: status as 'Active' } : {}),
      });

    const made = [];
    for (let i = 0; i < 12; i++) made.push(await create(holders[i % 3]!, ['CA', 'TX', 'FL'][i % 3]!, [-40, -1, 0, 5, 25, 31, 200][i % 7]!));
    made.push(await create(mover.user_id, 'NY', 10, 'Suspended'));
    await expectTotalsRight('after creates');

    // A backup of this state, restored at the end.
    const backup = await api(env, 'POST', '/api/admin/backups', {
      token: roles.admin.token,
      body: { description: 'totals', include_files: false },
    });
    expect(backup.status).toBe(200);

    await admin.licenses.update({ id: made[0]!.license_id, state: 'WA' });
    await admin.licenses.update({ id: made[1]!.license_id, status: 'Inactive' });
    await admin.licenses.update({ id: made[2]!.license_id, expiration_date: addDays(T, 400) });
    await admin.licenses.update({ id: made[3]!.license_id, ce_hours_required: 3 }); // not a counted column
    await expectTotalsRight('after updates');

    await admin.licenses.renew({ id: made[4]!.license_id });
    await admin.licenses.renew({ id: made[0]!.license_id });
    await expectTotalsRight('after renewals');

    await admin.licenses.delete({ id: made[5]!.license_id });
    await admin.licenses.delete({ id: made[6]!.license_id });
    await expectTotalsRight('after deletes');

    await admin.users.update({ id: mover.user_id, brokerage_id: null });
    await admin.users.update({ id: mover.user_id, role_id: ROLE.Broker, brokerage_id: north });
    await expectTotalsRight('after a holder moved');

    const restored = await api(env, 'POST', `/api/admin/backups/${backup.body.id}/restore`, {
      token: roles.admin.token,
      body: { include_licenses: true },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    await expectTotalsRight('after a restore');
  });
});

/** The payments summary counted from the payments (the oracle), for the filters the totals answer. */
async function oracleSummary(f: { status?: string; payment_type?: string; start_date?: string; end_date?: string }) {
  const conds = [
    f.status ? sql`status = ${f.status}` : undefined,
    f.payment_type ? sql`payment_type = ${f.payment_type}` : undefined,
    f.start_date ? sql`payment_date >= ${f.start_date}` : undefined,
    f.end_date ? sql`payment_date <= ${f.end_date}` : undefined,
  ].filter((c) => c !== undefined);
  const [row] = await rawRows<Record<string, number>>(
    env.db,
    sql`SELECT ${countWhere(sql`status = 'Completed'`)} AS completed, ${countWhere(sql`status = 'Pending'`)} AS pending,
               ${countWhere(sql`status = 'Failed'`)} AS failed, ${countWhere(sql`status = 'Refunded'`)} AS refunded,
               count(*) AS total_payments, coalesce(sum(CASE WHEN status = 'Completed' THEN amount_cents ELSE 0 END), 0) AS cents
          FROM payments ${whereAll(conds)}`,
  );
  const { cents, ...counts } = Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
  return { total_revenue: toDollars(cents!), ...counts };
}

describe('running totals of the payments', () => {
  it('equal the sums of the payments after creates, updates, deletes and a restore', async () => {
    const admin = callerFor(env, roles.admin.user_id);
    const check = async (label: string) => {
      const kept = await rawRows<Record<string, unknown>>(
        env.db,
        sql`SELECT ${day('payment_date')} AS d, status, payment_type, payment_method, n, cents FROM payment_totals ORDER BY 1, 2, 3, 4`,
      );
      const counted = await rawRows<Record<string, unknown>>(
        env.db,
        sql`SELECT ${day('payment_date')} AS d, status, payment_type, payment_method, count(*) AS n, sum(amount_cents) AS cents
              FROM payments GROUP BY payment_date, status, payment_type, payment_method ORDER BY 1, 2, 3, 4`,
      );
      const num = (rows: Array<Record<string, unknown>>) => rows.map((r) => ({ ...r, n: Number(r.n), cents: Number(r.cents) }));
      expect(num(kept), `${label}: payment_totals`).toEqual(num(counted));
      for (const f of [{}, { status: 'Completed' }, { payment_type: 'Course Fee' }, { start_date: addDays(T, -10), end_date: T }]) {
        expect(await admin.payments.summary(f as never), `${label} ${JSON.stringify(f)}`).toEqual(await oracleSummary(f));
      }
      const stats = await systemStats({ db: env.db }, { start_date: addDays(T, -10), end_date: T });
      expect(stats.payments.total_amount, `${label} revenue`).toBe(
        (await oracleSummary({ status: 'Completed', start_date: addDays(T, -10), end_date: T })).total_revenue,
      );
    };
    const pay = (amount: number, extra: Record<string, unknown> = {}) =>
      admin.payments.create({ user_id: roles.agent.user_id, amount, ...extra } as never);
    const made = [];
    made.push(await pay(10.5));
    made.push(await pay(20, { payment_type: 'Course Fee', payment_date: addDays(T, -3) }));
    made.push(await pay(30, { status: 'Pending', payment_date: addDays(T, -30) }));
    made.push(await pay(40.25, { payment_method: PAYMENT_METHODS[1] }));
    await check('after creates');
    const backup = await api(env, 'POST', '/api/admin/backups', {
      token: roles.admin.token,
      body: { description: 'pay', include_files: false },
    });
    await admin.payments.update({ id: made[2]!.payment_id, status: 'Completed' } as never);
    await admin.payments.update({ id: made[0]!.payment_id, amount: 11 } as never);
    await admin.payments.update({ id: made[1]!.payment_id, payment_date: addDays(T, -20) } as never);
    await check('after updates');
    await admin.payments.delete({ id: made[3]!.payment_id });
    await check('after a delete');
    const restored = await api(env, 'POST', `/api/admin/backups/${backup.body.id}/restore`, {
      token: roles.admin.token,
      body: { include_payments: true },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    await check('after a restore');
  });
});

describe("a Broker's scope starts from its brokerage's people", () => {
  it('reads licenses through the holder index, never the whole table', async () => {
    const brokerage = await seedBrokerage(env, `Plan ${Date.now()}`);
    const broker = await seedUser(env, 'Broker', { brokerage_id: brokerage });
    const where = visibleUsersCondition({ ...broker, email: broker.email, first_name: 'B', last_name: 'B' }, licenses.user_id)!;
    const plan = await queryPlan(env.db, env.db.select({ id: licenses.license_id }).from(licenses).where(where).toSQL());
    if (ENGINE === 'postgres') {
      // With scans priced out, the plan shows whether the condition can be driven from the brokerage's people (a join
      // into licenses_user_idx) rather than being a filter over every license (the SubPlan that
      // `user_id = ? OR user_id IN (…)` was).
      expect(plan).toMatch(/Scan (using|on) licenses_user_idx/);
      expect(plan).toMatch(/Index Cond: \(user_id = users\.user_id\)/);
      expect(plan).toMatch(/users_brokerage_idx/);
      expect(plan).not.toMatch(/SubPlan/);
    } else {
      expect(plan).toMatch(/SEARCH licenses USING (COVERING )?INDEX licenses_user_idx \(user_id=\?\)/);
      expect(plan).toMatch(/users_brokerage_idx \(brokerage_id=\?\)/);
      expect(plan).not.toMatch(/SCAN licenses/);
    }
  });
});
