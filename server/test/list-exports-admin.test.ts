/**
 * The CSV exports and server sorts of the audit log, the notification templates and delivery history, and
 * the backups list (server/src/http/list-export.ts): filters and sort respected, past one chunk where cheap,
 * Admin only, formula-safe cells, 400 for a bad filter, 401 without a session.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_SORT_BOUND } from '@lm/shared';
import { auditLogs, backups, notificationDeliveries, notificationTemplates } from '../src/db/schema/index.ts';
import { EXPORT_CHUNK } from '../src/http/list-export.ts';
import { api, callerFor, parseCsv, useTestEnv } from './helpers.ts';

const t = useTestEnv();

async function csv(path: string, token?: string) {
  const res = await api(t.env, 'GET', path, token ? { token } : {});
  return { status: res.status, headers: res.headers, rows: res.status === 200 ? parseCsv(String(res.body)) : [], body: res.body };
}

async function refusesOthers(path: string, bad: string) {
  for (const role of ['broker', 'agent', 'school'] as const) expect((await csv(path, t.roles[role].token)).status).toBe(403);
  expect((await api(t.env, 'GET', path)).status).toBe(401);
  const res = await csv(`${path}?${bad}`, t.roles.admin.token);
  expect(res.status).toBe(400);
  expect(typeof res.body.error).toBe('string');
  expect(res.body.error).not.toBe('');
  const doc = await api(t.env, 'GET', '/api/openapi.json');
  expect(Object.keys(doc.body.paths[path.replace(/^\/api/, '')] ?? {})).toEqual(['get']);
}

describe('GET /api/audit/logs/export and the audit sort', () => {
  const TABLE = 'lists4_things';
  const many = EXPORT_CHUNK + 7;
  beforeAll(async () => {
    await t.env.db.transaction(async (tx) => {
      await tx.insert(auditLogs).values(
        Array.from({ length: many }, (_, i) => ({
          timestamp: new Date(Date.UTC(2031, 0, 1) + i * 60_000).toISOString(),
          user_id: t.roles.agent.user_id,
          action: i % 3 ? 'update' : 'create',
          target_table: TABLE,
          target_id: (i * 37) % 101,
          ip_address: `10.0.${i % 7}.${i % 5}`,
          new_values: i === 5 ? '=HYPERLINK("http://x")' : JSON.stringify({ n: i }),
        })),
      );
    });
  });

  it('holds every row of the filtered view past one chunk, newest first by default, with a dated name', async () => {
    const res = await csv(`/api/audit/logs/export?target_table=${TABLE}`, t.roles.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit_logs_\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = res.rows;
    expect(header).toEqual([
      'Log ID',
      'Timestamp',
      'User ID',
      'User',
      'Email',
      'Action',
      'Table',
      'Target ID',
      'IP Address',
      'Old Values',
      'New Values',
    ]);
    expect(rows).toHaveLength(many);
    const stamps = rows.map((r) => r[1]!);
    expect(stamps).toEqual([...stamps].sort().reverse());
    // Formula-like text is neutralised.
    expect(rows.some((r) => r[10] === `'=HYPERLINK("http://x")`)).toBe(true);
    // The same filter over the list gives the same total.
    const page = await api(t.env, 'GET', `/api/audit/logs?target_table=${TABLE}&limit=25`, { token: t.roles.admin.token });
    expect(page.body.pagination.total).toBe(many);
  });

  it('sorts by each column on the server, the key then timestamp and id, in both directions', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const get = async (sort: 'action' | 'target_id' | 'ip_address' | 'user' | 'timestamp', order: 'asc' | 'desc', action?: string) =>
      (await admin.audit.logs({ target_table: TABLE, action, sort, order, limit: 100 })).logs;
    const byId = await get('target_id', 'asc');
    const ids = byId.map((l) => l.target_id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Ties keep the newest-first order's reverse: timestamp ascending within a target id.
    for (let i = 1; i < byId.length; i++) {
      if (byId[i]!.target_id === byId[i - 1]!.target_id) expect(byId[i]!.timestamp >= byId[i - 1]!.timestamp).toBe(true);
    }
    const ips = (await get('ip_address', 'desc')).map((l) => l.ip_address!);
    expect(ips).toEqual([...ips].sort().reverse());
    const actions = (await get('action', 'asc')).map((l) => l.action);
    expect(actions[0]).toBe('create');
    expect(actions).toEqual([...actions].sort());
    const oldest = await get('timestamp', 'asc');
    expect(oldest[0]!.timestamp).toBe(new Date(Date.UTC(2031, 0, 1)).toISOString());
    // The export follows the sort.
    const file = await csv(`/api/audit/logs/export?target_table=${TABLE}&sort=ip_address&order=asc`, t.roles.admin.token);
    const fileIps = file.rows.slice(1).map((r) => r[8]!);
    expect(fileIps).toEqual([...fileIps].sort());
  });

  it('refuses a sort no index serves over a view larger than the bound, and allows it on a narrower one', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    // Grow the whole log past the bound (cheap rows), then sort it by IP Address: 400 with the reason.
    const total = (await admin.audit.logs({ limit: 25 })).pagination.total;
    const extra = Math.max(0, AUDIT_SORT_BOUND + 1 - total);
    await t.env.db.transaction(async (tx) => {
      for (let i = 0; i < extra; i += 1000) {
        await tx
          .insert(auditLogs)
          .values(
            Array.from({ length: Math.min(1000, extra - i) }, () => ({ timestamp: '2020-01-01T00:00:00.000Z', action: 'bulk_filler' })),
          );
      }
    });
    const res = await api(t.env, 'GET', '/api/audit/logs?sort=ip_address', { token: t.roles.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Sorting by IP Address needs a narrower view/);
    // Indexed sorts of the whole log stay allowed; the narrower view sorts by IP.
    expect((await api(t.env, 'GET', '/api/audit/logs?sort=action&order=desc', { token: t.roles.admin.token })).status).toBe(200);
    expect((await api(t.env, 'GET', `/api/audit/logs?sort=ip_address&target_table=${TABLE}`, { token: t.roles.admin.token })).status).toBe(
      200,
    );
  });

  it('is Admin only, refuses a bad filter and is in the OpenAPI document', async () => {
    await refusesOthers('/api/audit/logs/export', 'sort=sideways');
  });
});

describe('GET /api/admin/notification-templates/export and /api/admin/notification-history/export', () => {
  let templateId = 0;
  beforeAll(async () => {
    await t.env.db.transaction(async (tx) => {
      const [tpl] = await tx
        .insert(notificationTemplates)
        .values([
          { name: 'Lists4 Alpha', subject: '=cmd|calc', body: 'b', trigger_event: 'license_expiring', type: 'sms' },
          { name: 'lists4 beta', subject: 's', body: 'b', trigger_event: 'payment_due', type: 'email' },
          { name: 'Lists4 Gamma', subject: 's', body: 'b', trigger_event: 'payment_due', type: 'email', is_active: false },
        ])
        .returning();
      templateId = tpl!.id;
      await tx.insert(notificationDeliveries).values(
        Array.from({ length: EXPORT_CHUNK + 2 }, (_, i) => ({
          template_id: i % 2 ? templateId : null,
          template_name: i % 2 ? 'Lists4 Alpha' : 'Lists4 Other',
          channel: 'email' as const,
          recipient: `r${String(i).padStart(4, '0')}@lists4.test`,
          status: (i % 5 === 0 ? 'failed' : 'sent') as 'failed' | 'sent',
          transport: 'outbox',
          created_at: new Date(Date.UTC(2031, 0, 1) + i * 1000).toISOString(),
        })),
      );
    });
  });

  it('pages and sorts the templates on the server, and exports the filtered view', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const page = await admin.admin.notificationManagement.page({ search: 'lists4', sort: 'name', order: 'desc', limit: 2 });
    expect(page.pagination.total).toBe(3);
    expect(page.templates.map((x) => x.name)).toEqual(['Lists4 Gamma', 'lists4 beta']);
    const active = await admin.admin.notificationManagement.page({ search: 'lists4', sort: 'is_active', order: 'asc' });
    expect(active.templates[0]!.name).toBe('Lists4 Gamma');
    const res = await csv('/api/admin/notification-templates/export?search=lists4&type=email&sort=name&order=asc', t.roles.admin.token);
    expect(res.status).toBe(200);
    expect(res.rows[0]!.slice(0, 6)).toEqual(['ID', 'Name', 'Subject', 'Type', 'Trigger Event', 'Status']);
    expect(res.rows.slice(1).map((r) => r[1])).toEqual(['lists4 beta', 'Lists4 Gamma']);
    const sms = await csv('/api/admin/notification-templates/export?search=lists4&type=sms', t.roles.admin.token);
    expect(sms.rows[1]![2]).toBe(`'=cmd|calc`);
    await refusesOthers('/api/admin/notification-templates/export', 'type=pigeon');
  });

  it('pages the delivery history newest first with its total, sorts by recipient, filters, and exports past one chunk', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const newest = await admin.admin.notificationManagement.historyPage({ search: 'lists4.test', limit: 3 });
    expect(newest.pagination.total).toBe(EXPORT_CHUNK + 2);
    expect(newest.deliveries[0]!.recipient).toBe(`r${String(EXPORT_CHUNK + 1).padStart(4, '0')}@lists4.test`);
    const byRecipient = await admin.admin.notificationManagement.historyPage({
      search: 'lists4.test',
      sort: 'recipient',
      order: 'asc',
      limit: 2,
    });
    expect(byRecipient.deliveries.map((d) => d.recipient)).toEqual(['r0000@lists4.test', 'r0001@lists4.test']);
    const ofTemplate = await admin.admin.notificationManagement.historyPage({ template_id: templateId, status: 'failed' });
    expect(ofTemplate.deliveries.every((d) => d.template_id === templateId && d.status === 'failed')).toBe(true);

    const res = await csv('/api/admin/notification-history/export?search=lists4.test&sort=recipient&order=desc', t.roles.admin.token);
    expect(res.status).toBe(200);
    const recipients = res.rows.slice(1).map((r) => r[2]!);
    expect(recipients).toHaveLength(EXPORT_CHUNK + 2);
    expect(recipients).toEqual([...recipients].sort().reverse());
    expect(new Set(res.rows.slice(1).map((r) => r[5]))).toEqual(new Set(['In outbox', 'Failed']));
    await refusesOthers('/api/admin/notification-history/export', 'status=lost');
  });
});

describe('GET /api/admin/backups/export and the backups page', () => {
  beforeAll(async () => {
    await t.env.db.transaction(async (tx) => {
      await tx.insert(backups).values([
        { description: 'lists4 b-small', size: 10, status: 'completed', type: 'manual', created_at: '2031-01-01T00:00:00.000Z' },
        {
          description: 'lists4 a-big',
          size: 3000,
          status: 'failed',
          type: 'automatic',
          error: 'disk',
          created_at: '2031-01-02T00:00:00.000Z',
        },
        { description: '@SUM(1+1) lists4', size: 200, status: 'completed', type: 'uploaded', created_at: '2031-01-03T00:00:00.000Z' },
      ]);
    });
  });

  it('sorts by name, date, size, status and type on the server, with the total and the cards', async () => {
    const admin = callerFor(t.env, t.roles.admin.user_id);
    const newest = await admin.admin.backups.page({ search: 'lists4' });
    expect(newest.backups.map((b) => b.description)).toEqual(['@SUM(1+1) lists4', 'lists4 a-big', 'lists4 b-small']);
    expect(newest.pagination.total).toBe(3);
    expect(newest.totals.total).toBeGreaterThanOrEqual(3);
    const bySize = await admin.admin.backups.page({ search: 'lists4', sort: 'size', order: 'desc', limit: 1 });
    expect(bySize.backups.map((b) => b.size)).toEqual([3000]);
    expect(bySize.pagination).toMatchObject({ total: 3, pages: 3 });
    const byType = await admin.admin.backups.page({ search: 'lists4', sort: 'type' });
    expect(byType.backups.map((b) => b.type)).toEqual(['automatic', 'manual', 'uploaded']);
    const failed = await admin.admin.backups.page({ search: 'lists4', status: 'failed' });
    expect(failed.backups.map((b) => b.description)).toEqual(['lists4 a-big']);
  });

  it('exports the filtered list (not the files), formula-safe, Admin only', async () => {
    const res = await csv('/api/admin/backups/export?search=lists4&sort=description&order=asc', t.roles.admin.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="backups_\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.rows[0]!.slice(0, 4)).toEqual(['ID', 'Description', 'Created By', 'Created']);
    expect(res.rows.slice(1).map((r) => r[1])).toEqual([`'@SUM(1+1) lists4`, 'lists4 a-big', 'lists4 b-small']);
    await refusesOthers('/api/admin/backups/export', 'sort=colour');
  });
});
