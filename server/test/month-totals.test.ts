/**
 * The licenses' running totals by month (docs/decisions.md "Totals kept as changes happen"): the license report and
 * the Admin's stats read a month's row where every day of it judges alike, the days of the months from today's to
 * the end of "expiring soon" (server/src/modules/reports/totals.ts licenseTotalsRows). Their figures must equal the
 * same figures judged license by license with the pure functions of shared/src/compliance.ts, for licenses on every
 * day where the month reading could go wrong (either side of today, of the expiring-soon end and of their months'
 * first and last days), on several todays (the end and the start of a month, a window across a year, a leap day).
 * And the migration starts the month totals from the licenses there are, and a copy into PostgreSQL counts them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import {
  addDays,
  EXPIRING_SOON_DAYS,
  isExpiringWithin,
  LICENSE_STATUSES,
  licenseStatusOn,
  ROLE,
  startOfMonth,
  type LicenseStatus,
  type ReportFilters,
} from '@lm/shared';
import { licenses } from '../src/db/schema/index.ts';
import { rawRows } from '../src/db/raw.ts';
import { ENGINE } from '../src/db/client.ts';
import { runSqliteMigrations, SQLITE_MIGRATIONS } from '../src/db/sqlite/driver.ts';
import { PG_MIGRATIONS } from '../src/db/pg/driver.ts';
import { copySqliteToPostgres } from '../src/db/copy.ts';
import { today } from '../src/core/dates.ts';
import { licenseAnalytics } from '../src/modules/reports/reports.service.ts';
import { systemStats } from '../src/modules/admin/stats.service.ts';
import { type TestEnv, useTestEnv } from './helpers.ts';
import { migrationsBefore } from './db-tools.ts';
import { createTestDatabase } from './pg.ts';

const t = useTestEnv();
let env: TestEnv;

beforeAll(() => {
  env = t.env;
});
afterEach(() => {
  vi.useRealTimers();
});

const nextMonth = (d: string) => startOfMonth(addDays(startOfMonth(d), 31));
const prevMonth = (d: string) => startOfMonth(addDays(startOfMonth(d), -1));
const lastDay = (d: string) => addDays(nextMonth(d), -1);

/** The days around which judging a month by its first day could differ from judging each day, for today `d`. */
function boundaries(d: string): string[] {
  const soon = addDays(d, EXPIRING_SOON_DAYS);
  return [
    addDays(d, -1),
    d,
    addDays(d, 1),
    startOfMonth(d),
    lastDay(d),
    prevMonth(d),
    lastDay(prevMonth(d)),
    lastDay(prevMonth(prevMonth(d))),
    startOfMonth(soon),
    lastDay(soon),
    addDays(soon, -1),
    soon,
    addDays(soon, 1),
    nextMonth(soon),
    lastDay(nextMonth(soon)),
    nextMonth(nextMonth(d)),
    addDays(d, -4000),
    addDays(d, 4000),
  ];
}

/** Todays to judge on: the real one, the last and the first day of a month, a window across a year and a leap day. */
const TODAYS = ['2026-01-31', '2026-02-01', '2026-11-30', '2026-12-15', '2027-03-02', '2028-02-29'];
const STATES = ['CA', 'TX', 'NY'];

interface Held {
  state: string;
  status: LicenseStatus;
  d: string;
  role_id: number;
}

/** The license report's figures judged license by license (shared/src/compliance.ts), the filters applied the same way. */
function oracle(all: Held[], f: NonNullable<ReportFilters>, on: string) {
  const states = new Map<string, { state: string; active: number; expired: number; total: number }>();
  const statuses = new Map<string, number>();
  let expiring_soon = 0;
  let expired = 0;
  for (const l of all) {
    const reads = licenseStatusOn(l.status, l.d, on);
    if (f.state !== undefined && l.state !== f.state) continue;
    if (f.license_status !== undefined && reads !== f.license_status) continue;
    if (f.user_role !== undefined && l.role_id !== ROLE[f.user_role]) continue;
    const s = states.get(l.state) ?? { state: l.state, active: 0, expired: 0, total: 0 };
    s.total++;
    if (reads === 'Active') s.active++;
    if (reads === 'Expired') {
      s.expired++;
      expired++;
    }
    states.set(l.state, s);
    statuses.set(reads, (statuses.get(reads) ?? 0) + 1);
    if (isExpiringWithin({ status: l.status, expiration_date: l.d }, on, EXPIRING_SOON_DAYS)) expiring_soon++;
  }
  return { states, statuses, expiring_soon, expired };
}

const FILTERS: Array<NonNullable<ReportFilters>> = [
  {},
  { state: 'TX' },
  { license_status: 'Active' },
  { license_status: 'Expired' },
  { license_status: 'Pending Renewal', state: 'NY' },
  // A holder filter counts the licenses themselves (overLicenses): the totals must agree with it too.
  { user_role: 'Agent' },
];

describe('the license report and the Admin stats read by month', () => {
  it('equal the figures judged license by license, on days either side of every boundary, on several todays', async () => {
    const real = today();
    const holder = t.roles.agent.user_id;
    const rows = [real, ...TODAYS].flatMap((d, k) =>
      boundaries(d).flatMap((date, i) =>
        LICENSE_STATUSES.map((status, j) => ({
          user_id: holder,
          license_number: `MONTH-${k}-${i}-${j}`,
          state: STATES[(i + j + k) % STATES.length]!,
          issue_date: '2000-01-01',
          expiration_date: date,
          status,
        })),
      ),
    );
    await env.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 200) await tx.insert(licenses).values(rows.slice(i, i + 200));
    });

    const all = (
      await rawRows<{ state: string; status: LicenseStatus; d: string; role_id: number }>(
        env.db,
        sql`SELECT l.state AS state, l.status AS status, ${sql.raw(ENGINE === 'postgres' ? "to_char(l.expiration_date, 'YYYY-MM-DD')" : 'l.expiration_date')} AS d,
                   u.role_id AS role_id
              FROM licenses AS l JOIN users AS u ON u.user_id = l.user_id`,
      )
    ).map((r) => ({ ...r, role_id: Number(r.role_id) }));
    expect(all.length).toBeGreaterThanOrEqual(rows.length);

    for (const on of [real, ...TODAYS]) {
      if (on !== real) vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${on}T12:00:00Z`) });
      expect(today()).toBe(on);
      for (const f of FILTERS) {
        const label = `${on} ${JSON.stringify(f)}`;
        const report = await licenseAnalytics({ db: env.db }, f);
        const want = oracle(all, f, on);
        expect(report.expiring_soon, `${label} expiring`).toBe(want.expiring_soon);
        expect(report.expired, `${label} expired`).toBe(want.expired);
        expect(new Map(report.top_states.map((s) => [s.state, s])), `${label} states`).toEqual(want.states);
        expect(new Map(report.by_status.map((s) => [s.status, s.count])), `${label} statuses`).toEqual(want.statuses);
      }
      const stats = await systemStats({ db: env.db }, {});
      const want = oracle(all, {}, on).statuses;
      expect(new Map(stats.licenses.by_status.map((s) => [s.status, s.count])), `${on} stats`).toEqual(
        new Map(LICENSE_STATUSES.map((s) => [s, want.get(s) ?? 0])),
      );
      expect(stats.licenses.total, `${on} stats total`).toBe(all.length);
      vi.useRealTimers();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The migration's start from the licenses there are, and a copy into PostgreSQL.

const NOW = '2026-01-05T10:00:00.000Z';
/** Licenses of a database from before the month totals: several per month, state and status, some months alone. */
const OLD_LICENSES = Array.from({ length: 60 }, (_, i) => ({
  number: `OLD-${i}`,
  state: STATES[i % STATES.length]!,
  status: LICENSE_STATUSES[i % LICENSE_STATUSES.length]!,
  date: addDays('2025-11-28', i * 7),
}));
const USER_SQL =
  "INSERT INTO users (user_id, email, password_hash, first_name, last_name, role_id, created_at, updated_at) VALUES (1, 'ada@x.test', 'x', 'Ada', 'Lovelace', 3, $1, $1)";
const LICENSE_SQL =
  "INSERT INTO licenses (user_id, license_number, state, issue_date, expiration_date, status, created_at, updated_at) VALUES (1, $1, $2, '2020-01-01', $3, $4, $5, $5)";

/** SQL that reads license_month_totals and its recount from the licenses as the same text, on either engine. */
const MONTH_SQL = {
  sqlite: {
    kept: 'SELECT state, status, expiration_month AS m, n FROM license_month_totals ORDER BY status, m, state',
    counted: `SELECT state, status, strftime('%Y-%m-01', expiration_date) AS m, count(*) AS n FROM licenses
               GROUP BY status, m, state ORDER BY status, m, state`,
    days: 'SELECT state, status, expiration_date AS d, n FROM license_totals ORDER BY status, d, state',
    countedDays:
      'SELECT state, status, expiration_date AS d, count(*) AS n FROM licenses GROUP BY status, d, state ORDER BY status, d, state',
  },
  postgres: {
    kept: "SELECT state, status, to_char(expiration_month, 'YYYY-MM-DD') AS m, n FROM license_month_totals ORDER BY status, m, state",
    counted: `SELECT state, status, to_char(expiration_date, 'YYYY-MM-01') AS m, count(*)::int AS n FROM licenses
               GROUP BY status, m, state ORDER BY status, m, state`,
    days: "SELECT state, status, to_char(expiration_date, 'YYYY-MM-DD') AS d, n FROM license_totals ORDER BY status, d, state",
    countedDays: `SELECT state, status, to_char(expiration_date, 'YYYY-MM-DD') AS d, count(*)::int AS n FROM licenses
                   GROUP BY status, d, state ORDER BY status, d, state`,
  },
};

function expectSqliteTotalsRight(sqlite: Database.Database, label: string) {
  const q = MONTH_SQL.sqlite;
  expect(sqlite.prepare(q.kept).all(), `${label}: license_month_totals`).toEqual(sqlite.prepare(q.counted).all());
  expect(sqlite.prepare(q.days).all(), `${label}: license_totals`).toEqual(sqlite.prepare(q.countedDays).all());
}

async function expectPgTotalsRight(client: pg.Client, label: string) {
  const q = MONTH_SQL.postgres;
  const rows = async (text: string) => (await client.query(text)).rows;
  expect(await rows(q.kept), `${label}: license_month_totals`).toEqual(await rows(q.counted));
  expect(await rows(q.days), `${label}: license_totals`).toEqual(await rows(q.countedDays));
}

/** A SQLite database at the migration before the month totals, with OLD_LICENSES. */
function sqliteBeforeMonthTotals(file: string, dir: string): Database.Database {
  const sqlite = new Database(file);
  migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: migrationsBefore(SQLITE_MIGRATIONS, '0012_month_totals', dir) });
  sqlite.prepare(USER_SQL.replace(/\$1/g, '?')).run(NOW, NOW);
  const insert = sqlite.prepare(LICENSE_SQL.replace(/\$\d/g, '?'));
  for (const l of OLD_LICENSES) insert.run(l.number, l.state, l.date, l.status, NOW, NOW);
  expect(sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'license_month_totals'").get()).toEqual({ n: 0 });
  return sqlite;
}

describe('the migration starts the month totals from the licenses there are; the triggers keep them', () => {
  it('SQLite', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-month-'));
    try {
      const sqlite = sqliteBeforeMonthTotals(path.join(dir, 'db.sqlite'), dir);
      try {
        runSqliteMigrations(sqlite);
        expectSqliteTotalsRight(sqlite, 'migrated');
        sqlite.prepare(LICENSE_SQL.replace(/\$\d/g, '?')).run('NEW-1', 'WA', '2026-03-31', 'Active', NOW, NOW);
        sqlite.prepare("UPDATE licenses SET expiration_date = '2026-04-01' WHERE license_number = 'OLD-3'").run();
        sqlite.prepare("UPDATE licenses SET expiration_date = date(expiration_date, '+1 day') WHERE license_number = 'OLD-4'").run();
        sqlite.prepare("UPDATE licenses SET state = 'OR', status = 'Suspended' WHERE license_number = 'OLD-5'").run();
        sqlite.prepare("DELETE FROM licenses WHERE license_number IN ('OLD-6', 'OLD-7')").run();
        expectSqliteTotalsRight(sqlite, 'after writes');
      } finally {
        sqlite.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // The PostgreSQL pass only (TEST_DATABASE_URL), as audit-actor.test.ts and db-copy.test.ts do.
  if (ENGINE === 'postgres') {
    it('PostgreSQL', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-month-'));
      const created = await createTestDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!);
      const client = new pg.Client({ connectionString: created.url });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: migrationsBefore(PG_MIGRATIONS, '0008_month_totals', dir) });
        await client.query(USER_SQL, [NOW]);
        for (const l of OLD_LICENSES) await client.query(LICENSE_SQL, [l.number, l.state, l.date, l.status, NOW]);
        await migratePg(drizzlePg(client), { migrationsFolder: PG_MIGRATIONS });
        await expectPgTotalsRight(client, 'migrated');
        await client.query(LICENSE_SQL, ['NEW-1', 'WA', '2026-03-31', 'Active', NOW]);
        await client.query("UPDATE licenses SET expiration_date = '2026-04-01' WHERE license_number = 'OLD-3'");
        await client.query("UPDATE licenses SET expiration_date = expiration_date + 1 WHERE license_number = 'OLD-4'");
        await client.query("UPDATE licenses SET state = 'OR', status = 'Suspended' WHERE license_number = 'OLD-5'");
        await client.query("DELETE FROM licenses WHERE license_number IN ('OLD-6', 'OLD-7')");
        await expectPgTotalsRight(client, 'after writes');
      } finally {
        await client.end();
        await created.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('db:copy of an office from before the month totals: the target counts them as the licenses arrive', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-month-copy-'));
      const created = await createTestDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!);
      try {
        const file = path.join(dir, 'office.sqlite');
        sqliteBeforeMonthTotals(file, dir).close();
        const report = await copySqliteToPostgres(file, created.url, path.join(dir, 'documents'));
        expect(report.ok, JSON.stringify(report.tables.filter((r) => r.source !== r.target))).toBe(true);
        const client = new pg.Client({ connectionString: created.url });
        await client.connect();
        try {
          expect(Number((await client.query('SELECT count(*) AS n FROM licenses')).rows[0].n)).toBe(OLD_LICENSES.length);
          await expectPgTotalsRight(client, 'copied');
        } finally {
          await client.end();
        }
      } finally {
        await created.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
