/**
 * The list screens' CSV exports (server/src/http/list-export.ts): the current filtered, sorted view of a list,
 * in the caller's scope, streamed past one chunk, formula-safe, bad filters 400. One describe per list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { licenses } from '../src/db/schema/index.ts';
import { EXPORT_CHUNK } from '../src/http/list-export.ts';
import { api, parseCsv, seedBrokerage, seedUser, tokenFor, useTestEnv } from './helpers.ts';

const t = useTestEnv();

async function csv(path: string, token: string) {
  const res = await api(t.env, 'GET', path, { token });
  return { status: res.status, headers: res.headers, rows: res.status === 200 ? parseCsv(String(res.body)) : [], body: res.body };
}

describe('GET /api/licenses/export', () => {
  let outsider: { user_id: number; token: string };
  beforeAll(async () => {
    const { env, roles } = t;
    const brokerageId = await seedBrokerage(env, 'Elsewhere Realty');
    const other = await seedUser(env, 'Agent', { brokerage_id: brokerageId, first_name: 'Olga', last_name: 'Outside' });
    outsider = { user_id: other.user_id, token: await tokenFor(env, other.user_id) };
    const many = EXPORT_CHUNK + 3;
    await env.db.transaction(async (tx) => {
      await tx.insert(licenses).values(
        Array.from({ length: many }, (_, i) => ({
          user_id: roles.agent.user_id,
          license_number: `EXP-${String(i).padStart(4, '0')}`,
          state: i % 2 ? 'WA' : 'CA',
          issue_date: '2024-01-01',
          expiration_date: '2030-01-01',
          created_at: '2024-01-01T00:00:00.000Z',
          updated_at: '2024-01-01T00:00:00.000Z',
        })),
      );
      await tx.insert(licenses).values([
        {
          user_id: other.user_id,
          license_number: '=HYPERLINK("http://x")',
          state: 'CA',
          issue_date: '2024-01-01',
          expiration_date: '2030-01-01',
        },
      ]);
    });
  });

  it('holds every row of the filtered view, past one chunk, in the list sort, with a header and a dated name', async () => {
    const res = await csv('/api/licenses/export?state=WA&sort=license_number&order=desc', t.roles.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="licenses_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual([
      'License ID',
      'Holder',
      'License Number',
      'State',
      'Type',
      'Issue Date',
      'Expiration Date',
      'Status',
      'CE Hours Completed',
      'CE Hours Required',
      'Compliance',
      'CE Hours Remaining',
      'Topics Missing',
    ]);
    const wa = Array.from({ length: EXPORT_CHUNK + 3 }, (_, i) => i).filter((i) => i % 2);
    expect(rows.map((r) => r[2])).toEqual(wa.reverse().map((i) => `EXP-${String(i).padStart(4, '0')}`));
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set(['WA']));
    // The same filter over the list procedure gives the same total.
    const page = await api(t.env, 'GET', '/api/licenses/page?state=WA&limit=1', { token: t.roles.admin.token });
    expect(page.body.pagination.total).toBe(rows.length);
  });

  it("keeps to the caller's scope and neutralises formula-like cells", async () => {
    const mine = await csv('/api/licenses/export', outsider.token);
    expect(mine.rows.slice(1).map((r) => r[2])).toEqual([`'=HYPERLINK("http://x")`]);
    const agent = await csv('/api/licenses/export', t.roles.agent.token);
    expect(agent.rows.slice(1).every((r) => r[2]!.startsWith('EXP-'))).toBe(true);
    expect(agent.rows).toHaveLength(EXPORT_CHUNK + 4);
  });

  it('refuses a School, a missing session and a bad filter, with a message', async () => {
    expect((await csv('/api/licenses/export', t.roles.school.token)).status).toBe(403);
    expect((await api(t.env, 'GET', '/api/licenses/export')).status).toBe(401);
    const bad = await csv('/api/licenses/export?status=Sideways', t.roles.admin.token);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
    expect(bad.body.error).not.toBe('');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await api(t.env, 'GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths['/licenses/export'] ?? {})).toEqual(['get']);
  });
});
