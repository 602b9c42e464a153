/**
 * Paging at any size (docs/decisions.md "Paging at any size"; server/src/db/list.ts): pages asked by cursor hold
 * every row once, in the order of the OFFSET pages, for every sort of the licenses list in both directions (with
 * ties); a garbled cursor is a 400; counts stop at COUNT_CAP; an export walks by cursor past several chunks.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  AUDIT_SORT_COLUMNS,
  COMPLIANCE_STATES,
  COUNT_CAP,
  SEARCH_COUNT_CAP,
  LICENSE_SORT_COLUMNS,
  PAYMENT_SORT_COLUMNS,
  USER_SORTS,
} from '@lm/shared';
import { auditLogs, licenses, payments, users } from '../src/db/schema/index.ts';
import { rawExec } from '../src/db/raw.ts';
import { decodeCursor, encodeCursor } from '../src/db/list.ts';
import { EXPORT_CHUNK } from '../src/http/list-export.ts';
import { today } from '../src/core/dates.ts';
import { api, parseCsv, seedBrokerage, seedUser, useTestEnv, type ApiResponse } from './helpers.ts';

const t = useTestEnv();

const STATES = ['CA', 'WA', 'NY'];

describe('cursor paging of the licenses list', () => {
  beforeAll(async () => {
    const { env } = t;
    const brokerageId = await seedBrokerage(env, 'Keyset Realty');
    // Holders whose names tie but for letter case, so the case-insensitive sort has ties the id must break.
    const holders = [
      await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'ann', last_name: 'Keyset' }),
      await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'Ann', last_name: 'keyset' }),
      await seedUser(env, 'Broker', { brokerage_id: brokerageId, first_name: 'Zed', last_name: 'Able' }),
    ];
    await env.db.transaction(async (tx) => {
      await tx.insert(licenses).values(
        Array.from({ length: 47 }, (_, i) => ({
          user_id: holders[i % 3]!.user_id,
          license_number: `${i % 2 ? 'ks' : 'KS'}-${String(i % 11).padStart(3, '0')}-${i}`,
          state: STATES[i % 3]!,
          license_type: i % 4 ? ('Sales' as const) : ('Broker' as const),
          issue_date: `2024-0${(i % 3) + 1}-01`,
          expiration_date: `20${26 + (i % 4)}-06-30`,
          status: i % 5 ? ('Active' as const) : ('Inactive' as const),
          ce_hours_required: 30,
          ce_hours_completed: (i % 3) * 7.5,
          created_at: `2024-01-0${(i % 2) + 1}T00:00:00.000Z`,
          updated_at: '2024-01-01T00:00:00.000Z',
        })),
      );
    });
  });

  const ids = (body: { licenses: Array<{ license_id: number }> }) => body.licenses.map((l) => l.license_id);

  for (const sort of LICENSE_SORT_COLUMNS) {
    for (const order of ['asc', 'desc'] as const) {
      it(`walks every row once by cursor, as the OFFSET pages do: sort=${sort}&order=${order}`, async () => {
        const base = `/api/licenses/page?sort=${sort}&order=${order}`;
        const all = await api(t.env, 'GET', `${base}&limit=100`, { token: t.roles.admin.token });
        expect(all.status).toBe(200);
        const expected = ids(all.body);
        expect(expected.length).toBeGreaterThanOrEqual(47);
        const walked: number[] = [];
        const byOffset: number[] = [];
        let cursor: string | null = null;
        for (let page = 1; page < 50; page++) {
          const res: ApiResponse = await api(t.env, 'GET', `${base}&limit=7&page=${page}${cursor ? `&cursor=${cursor}` : ''}`, {
            token: t.roles.admin.token,
          });
          expect(res.status).toBe(200);
          walked.push(...ids(res.body));
          const offsetPage = await api(t.env, 'GET', `${base}&limit=7&page=${page}`, { token: t.roles.admin.token });
          byOffset.push(...ids(offsetPage.body));
          cursor = res.body.pagination.next_cursor;
          expect(res.body.pagination.total_capped).toBe(false);
          if (!cursor) break;
        }
        expect(walked).toEqual(expected);
        expect(byOffset).toEqual(expected);
      });
    }
  }

  it('answers a garbled or foreign cursor with a 400 that says to start again, never a 500', async () => {
    for (const cursor of ['not-a-cursor', encodeCursor([1]), encodeCursor(['a', 'b', 'c', 'd']), 'W3t9XQ', 'x'.repeat(600)]) {
      const res = await api(t.env, 'GET', `/api/licenses/page?limit=5&cursor=${cursor}`, { token: t.roles.admin.token });
      expect(res.status, cursor).toBe(400);
      expect(res.body.error).toBe('This page link is no longer valid; start from the first page.');
    }
    // Values of the wrong type: rows after them where the engine compares across types (SQLite), else the 400.
    for (const cursor of [encodeCursor(['not-a-date', 'x']), encodeCursor([1.5, 'x'])]) {
      const res = await api(t.env, 'GET', `/api/licenses/page?limit=5&cursor=${cursor}`, { token: t.roles.admin.token });
      expect([200, 400], cursor).toContain(res.status);
    }
  });

  it('keeps a cursor to the values of the last row, then its id', async () => {
    const res = await api(t.env, 'GET', '/api/licenses/page?limit=3&sort=state', { token: t.roles.admin.token });
    const values = decodeCursor(res.body.pagination.next_cursor);
    expect(values).toHaveLength(2);
    expect(String(values[1])).toBe(String(res.body.licenses[2].license_id));
  });
});

describe('cursor paging of the audit log', () => {
  beforeAll(async () => {
    // Ties on the timestamp and on every sort key, and NULL keys (no user, no table, no address).
    await t.env.db.transaction(async (tx) => {
      await tx.insert(auditLogs).values(
        Array.from({ length: 40 }, (_, i) => ({
          timestamp: `2025-03-0${(i % 3) + 1}T10:00:00.000Z`,
          user_id: i % 4 ? (i % 3) + 1 : null,
          actor_name: 'Keyset Tester',
          action: i % 2 ? 'create' : 'update',
          target_table: i % 5 ? (i % 2 ? 'licenses' : 'users') : null,
          target_id: i % 3 ? i % 7 : null,
          ip_address: i % 6 ? `10.0.0.${i % 4}` : null,
        })),
      );
    });
  });

  for (const sort of AUDIT_SORT_COLUMNS) {
    for (const order of ['asc', 'desc'] as const) {
      it(`walks every entry once by cursor, as the OFFSET pages do: sort=${sort}&order=${order}`, async () => {
        const base = `/api/audit/logs?start_date=2025-03-01&end_date=2025-03-03&sort=${sort}&order=${order}`;
        const all = await api(t.env, 'GET', `${base}&limit=100`, { token: t.roles.admin.token });
        expect(all.status).toBe(200);
        const expected = all.body.logs.map((l: { log_id: number }) => l.log_id);
        expect(expected).toHaveLength(40);
        const walked: number[] = [];
        let cursor: string | null = null;
        for (let page = 1; page < 10; page++) {
          const res: ApiResponse = await api(t.env, 'GET', `${base}&limit=25&page=${page}${cursor ? `&cursor=${cursor}` : ''}`, {
            token: t.roles.admin.token,
          });
          expect(res.status).toBe(200);
          walked.push(...res.body.logs.map((l: { log_id: number }) => l.log_id));
          cursor = res.body.pagination.next_cursor;
          if (!cursor) break;
        }
        expect(walked).toEqual(expected);
      });
    }
  }

  it('answers a cursor of another sort, or an edited one, with a 400', async () => {
    const first = await api(t.env, 'GET', '/api/audit/logs?limit=25', { token: t.roles.admin.token });
    const res = await api(t.env, 'GET', `/api/audit/logs?limit=25&sort=action&cursor=${first.body.pagination.next_cursor}`, {
      token: t.roles.admin.token,
    });
    expect(res.status).toBe(400);
    const edited = await api(t.env, 'GET', `/api/audit/logs?limit=25&cursor=${encodeCursor(['yesterday', 'x'])}`, {
      token: t.roles.admin.token,
    });
    expect([200, 400]).toContain(edited.status);
  });
});

/** Every page by cursor of `base`, as ids; and the same rows on one page of 100 (the OFFSET read). */
async function walk(base: string, rowsKey: string, idKey: string, limit = 4): Promise<{ walked: number[]; expected: number[] }> {
  const ids = (body: Record<string, Array<Record<string, number>>>) => body[rowsKey]!.map((r) => r[idKey]!);
  const all = await api(t.env, 'GET', `${base}&limit=100`, { token: t.roles.admin.token });
  expect(all.status).toBe(200);
  const walked: number[] = [];
  let cursor: string | null = null;
  for (let page = 1; page < 100; page++) {
    const res: ApiResponse = await api(t.env, 'GET', `${base}&limit=${limit}&page=${page}${cursor ? `&cursor=${cursor}` : ''}`, {
      token: t.roles.admin.token,
    });
    expect(res.status).toBe(200);
    walked.push(...ids(res.body));
    cursor = res.body.pagination.next_cursor;
    if (!cursor) break;
  }
  return { walked, expected: ids(all.body) };
}

describe('cursor paging of the users and payments lists', () => {
  beforeAll(async () => {
    const { env } = t;
    // Users without a brokerage and never signed in (NULL sort keys), and ties on every sort.
    const people: Array<{ user_id: number }> = [];
    for (let i = 0; i < 9; i++) {
      people.push(
        await seedUser(env, i % 2 ? 'Agent' : 'School', {
          first_name: `P${i % 3}`,
          last_name: 'Walker',
          ...(i % 3 ? {} : { brokerage_id: t.roles.brokerageId }),
        }),
      );
    }
    await env.db.transaction(async (tx) => {
      for (const [i, p] of people.entries()) {
        if (i % 2)
          await tx
            .update(users)
            .set({ last_login: `2025-01-0${(i % 2) + 1}T00:00:00.000Z` })
            .where(sql`${users.user_id} = ${p.user_id}`);
      }
      await tx.insert(payments).values(
        Array.from({ length: 23 }, (_, i) => ({
          user_id: people[i % 9]!.user_id,
          amount_cents: ((i % 4) + 1) * 1000,
          payment_date: `2025-02-0${(i % 3) + 1}`,
          description: i % 3 ? `Fee ${i % 2}` : null,
          created_at: `2025-02-0${(i % 2) + 1}T00:00:00.000Z`,
          updated_at: '2025-02-01T00:00:00.000Z',
        })),
      );
    });
  });

  for (const order of ['asc', 'desc'] as const) {
    for (const sort of USER_SORTS) {
      it(`users: sort=${sort}&order=${order}`, async () => {
        const { walked, expected } = await walk(`/api/users?sort=${sort}&order=${order}`, 'users', 'user_id');
        expect(expected.length).toBeGreaterThan(8);
        expect(walked).toEqual(expected);
      });
    }
    for (const sort of PAYMENT_SORT_COLUMNS) {
      it(`payments: sort=${sort}&order=${order}`, async () => {
        const { walked, expected } = await walk(`/api/payments/page?sort=${sort}&order=${order}`, 'payments', 'payment_id');
        expect(expected.length).toBeGreaterThanOrEqual(23);
        expect(walked).toEqual(expected);
      });
    }
  }
});

describe('capped counts', () => {
  beforeAll(async () => {
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId, first_name: 'Many', last_name: 'Licenses' });
    // COUNT_CAP + 5 licenses in one statement.
    await t.env.db.transaction((tx) =>
      rawExec(
        tx,
        sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${COUNT_CAP + 5})
          INSERT INTO licenses (user_id, license_number, state, issue_date, expiration_date, cycle_start_date, created_at, updated_at)
          SELECT ${holder.user_id}, 'CAP-' || i, 'TX', '2024-01-01', '2031-01-01', '2024-01-01', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z' FROM n`,
      ),
    );
  });

  it(`says ${COUNT_CAP.toLocaleString('en-US')}+ when more rows match, and pages on by cursor past the cap`, async () => {
    const res = await api(t.env, 'GET', '/api/licenses/page?state=TX&limit=100', { token: t.roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ total: COUNT_CAP, total_capped: true, pages: COUNT_CAP / 100 });
    expect(typeof res.body.pagination.next_cursor).toBe('string');
    const deep = await api(t.env, 'GET', `/api/licenses/page?state=TX&limit=100&page=${COUNT_CAP / 100 + 1}`, {
      token: t.roles.admin.token,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(/use cursor/);
    const exact = await api(t.env, 'GET', '/api/licenses/page?state=WA&limit=100', { token: t.roles.admin.token });
    expect(exact.body.pagination.total_capped).toBe(false);
  });

  it('exports every row once, walking by cursor past several chunks', async () => {
    const many = 3 * EXPORT_CHUNK + 5;
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId, first_name: 'Many', last_name: 'Exports' });
    await t.env.db.transaction((tx) =>
      rawExec(
        tx,
        sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${many})
          INSERT INTO licenses (user_id, license_number, state, issue_date, expiration_date, cycle_start_date, created_at, updated_at)
          SELECT ${holder.user_id}, 'EXP-' || (i % 7) || '-' || i, 'UT', '2024-01-01', '2031-01-01', '2024-01-01', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z' FROM n`,
      ),
    );
    for (const sort of ['expiration_date', 'license_number']) {
      const res = await api(t.env, 'GET', `/api/licenses/export?state=UT&sort=${sort}`, { token: t.roles.admin.token });
      expect(res.status).toBe(200);
      const [, ...rows] = parseCsv(String(res.body));
      expect(rows).toHaveLength(many);
      expect(new Set(rows.map((r) => r[0])).size).toBe(many);
    }
  });
});

describe('a search that matches many licenses', () => {
  const t = useTestEnv();
  const many = SEARCH_COUNT_CAP + 5;
  beforeAll(async () => {
    // Many licenses whose holder's name shares a fragment ("Quorvath"), and one rare number: the probe sends the
    // common text through the scan in the list's order, the rare one through the index (db/search.ts).
    const holder = await seedUser(t.env, 'Agent', { brokerage_id: t.roles.brokerageId, first_name: 'Ilse', last_name: 'Quorvath' });
    await t.env.db.transaction((tx) =>
      rawExec(
        tx,
        sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${many})
          INSERT INTO licenses (user_id, license_number, state, issue_date, expiration_date, cycle_start_date, created_at, updated_at)
          SELECT ${holder.user_id}, 'QV-' || i, 'OR', '2024-01-01', '2031-01-01', '2024-01-01', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z' FROM n`,
      ),
    );
  });

  it(`counts a common text up to ${SEARCH_COUNT_CAP.toLocaleString('en-US')}+, and its pages by cursor hold every match once`, async () => {
    const token = t.roles.admin.token;
    const first = await api(t.env, 'GET', '/api/licenses/page?search=orvat&limit=100', { token });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toMatchObject({ total: SEARCH_COUNT_CAP, total_capped: true });
    const seen = new Set<number>();
    let res: ApiResponse = first;
    for (;;) {
      for (const l of res.body.licenses as Array<{ license_id: number; license_number: string }>) {
        expect(l.license_number).toMatch(/^QV-/);
        seen.add(l.license_id);
      }
      const next = res.body.pagination.next_cursor as string | null;
      if (!next) break;
      res = await api(t.env, 'GET', `/api/licenses/page?search=orvat&limit=100&cursor=${encodeURIComponent(next)}`, { token });
      expect(res.status).toBe(200);
    }
    expect(seen.size).toBe(many);
  });

  it('counts a rare text exactly, through the index', async () => {
    const res = await api(t.env, 'GET', `/api/licenses/page?search=${encodeURIComponent('QV-1004')}`, { token: t.roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ total: 1, total_capped: false });
    expect(res.body.licenses[0].license_number).toBe('QV-1004');
  });

  it('counts a common text exactly under another filter, each license once when its number and holder both match', async () => {
    // The Admin's total reads the index's matches up to the cap (db/search.ts licensesMatchingFirst); the Broker's
    // reads its brokerage's licenses. In Nevada: 7 of the common holder's, numbered with the text too (both match),
    // 4 of a holder elsewhere whose number alone matches, 2 that do not match at all.
    const quorvath = (
      await t.env.db
        .select({ id: users.user_id })
        .from(users)
        .where(sql`${users.last_name} = 'Quorvath'`)
    )[0]!.id;
    const elsewhere = await seedBrokerage(t.env, 'Elsewhere Realty');
    const nash = await seedUser(t.env, 'Agent', { brokerage_id: elsewhere, first_name: 'Bea', last_name: 'Nash' });
    const rows = [
      ...Array.from({ length: 7 }, (_, i) => [quorvath, `ORVAT-NV-${i}`] as const),
      ...Array.from({ length: 4 }, (_, i) => [nash.user_id, `NV-xOrVaTx-${i}`] as const),
      [nash.user_id, 'NV-1'] as const,
      [nash.user_id, 'NV-2'] as const,
    ];
    await t.env.db.transaction(async (tx) => {
      for (const [user_id, license_number] of rows) {
        // Expired, inside the at-risk window and far off, so the compliance summary has several states to count.
        const expiration_date = [addDays(today(), -40), addDays(today(), 10), '2031-01-01'][license_number.length % 3]!;
        await tx.insert(licenses).values({ user_id, license_number, state: 'NV', issue_date: '2020-01-01', expiration_date });
      }
    });
    const page = async (token: string) => {
      const res = await api(t.env, 'GET', '/api/licenses/page?search=orvat&state=NV&limit=100', { token });
      expect(res.status).toBe(200);
      return { total: res.body.pagination.total, capped: res.body.pagination.total_capped, shown: res.body.licenses.length };
    };
    expect(await page(t.roles.admin.token)).toEqual({ total: 11, capped: false, shown: 11 });
    expect(await page(t.roles.broker.token)).toEqual({ total: 7, capped: false, shown: 7 });
    // Without the state, the Admin's total is still the cap (every Quorvath license matches).
    const all = await api(t.env, 'GET', '/api/licenses/page?search=orvat&limit=10', { token: t.roles.admin.token });
    expect(all.body.pagination).toMatchObject({ total: SEARCH_COUNT_CAP, total_capped: true });

    // The compliance summary (the Admin's read from the index, the Broker's from its brokerage) counts each state as
    // the list's rows judge it, every page walked by cursor.
    const tally = async (token: string, query: string) => {
      const states: Record<string, number> = Object.fromEntries(COMPLIANCE_STATES.map((c) => [c, 0]));
      let cursor: string | null = null;
      do {
        const res: ApiResponse = await api(t.env, 'GET', `/api/licenses/page?${query}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
          token,
        });
        for (const l of res.body.licenses as Array<{ compliance: { state: string } }>) states[l.compliance.state]! += 1;
        cursor = res.body.pagination.next_cursor;
      } while (cursor);
      const summary = await api(t.env, 'GET', `/api/licenses/compliance-summary?${query}`, { token });
      expect(summary.status).toBe(200);
      return { summary: summary.body, tally: states };
    };
    for (const [token, query] of [
      [t.roles.admin.token, 'search=orvat'],
      [t.roles.admin.token, 'search=orvat&state=NV'],
      [t.roles.broker.token, 'search=orvat&state=NV'],
    ] as const) {
      const { summary, tally: counted } = await tally(token, query);
      expect({ query, summary }).toEqual({ query, summary: counted });
    }
    expect(
      Object.values((await tally(t.roles.admin.token, 'search=orvat&state=NV')).summary as Record<string, number>).filter((n) => n > 0)
        .length,
    ).toBeGreaterThan(1);
  });
});
