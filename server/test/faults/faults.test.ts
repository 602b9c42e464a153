/**
 * Faults inside one process (docs/security.md "Faults"); the process-level ones (a PostgreSQL restart, terminated
 * backends, a full disk) are `npm run test:faults` (faults.ts beside this file). Here: the one error mapping of
 * connection and disk-full errors, an audit pack whose certificate's file is missing, /api/health while the disk is
 * full, the last-seen touch skipped meanwhile, and a CSV export that lets other requests through between chunks.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { brokerages, documentVersions, licenses, sessions } from '../../src/db/schema/index.ts';
import { toErrorBody } from '../../src/base/errors.ts';
import { diskFullSince, noteDiskFull, noteWriteSucceeded } from '../../src/db/errors.ts';
import { hashToken } from '../../src/core/sessions.ts';
import { EXPORT_CHUNK } from '../../src/http/list-export.ts';
import { refreshCeCache } from '../../src/modules/licenses/ce-ledger.ts';
import { api, useTestEnv, type Roles, type TestEnv, multipartBody } from '../helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});
// The disk state is the process's: never leave it set for the next test.
afterEach(() => noteWriteSucceeded());

/** A driver error as node-postgres, better-sqlite3 or Node raise it, wrapped as Drizzle wraps it. */
const driverError = (fields: Record<string, string>) => {
  const cause = Object.assign(new Error(fields.message ?? 'driver error'), fields);
  return Object.assign(new Error('Failed query: insert ...'), { cause });
};

describe('the error mapping of faults', () => {
  it.each([
    ['57P01', { code: '57P01', message: 'terminating connection due to administrator command' }],
    ['57P03', { code: '57P03', message: 'the database system is shutting down' }],
    ['08006', { code: '08006', message: 'connection failure' }],
    ['ECONNREFUSED', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['ECONNRESET', { code: 'ECONNRESET', message: 'read ECONNRESET' }],
    ['Connection terminated', { message: 'Connection terminated unexpectedly' }],
  ])('a lost database connection (%s) is a 503 with Retry-After and a message', (_name, fields) => {
    const { status, body, retryAfter } = toErrorBody(driverError(fields));
    expect(status).toBe(503);
    expect(retryAfter).toBeGreaterThan(0);
    expect(body).toEqual({ error: expect.stringContaining('database is not reachable'), code: 'SERVICE_UNAVAILABLE' });
  });

  it.each([['SQLITE_FULL'], ['ENOSPC'], ['53100']])('a full disk (%s) is a 507 with a message', (code) => {
    const { status, body } = toErrorBody(driverError({ code }));
    expect(status).toBe(507);
    expect(body).toEqual({ error: expect.stringContaining("server's disk is full"), code: 'INSUFFICIENT_STORAGE' });
  });

  it('other driver errors keep their mapping (a constraint is still not a fault)', () => {
    expect(toErrorBody(driverError({ code: 'SQLITE_BUSY' })).status).toBe(500);
    expect(toErrorBody(driverError({ code: '22003' })).status).toBe(400);
  });
});

describe('an audit pack whose certificate file is missing', () => {
  it('answers 409 naming the file, and the server keeps answering', async () => {
    const license = await env.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(licenses)
        .values({
          user_id: roles.agent.user_id,
          license_number: `FAULT-${Date.now()}`,
          state: 'CA',
          issue_date: '2024-01-01',
          expiration_date: '2027-01-01',
          ce_hours_required: 24,
        })
        .returning();
      await refreshCeCache(tx, row!.license_id);
      return row!;
    });
    const { payload, headers } = multipartBody(
      { category: 'license_copy', license_id: license.license_id },
      { name: 'copy.pdf', data: Buffer.from('%PDF-1.4\n% a license copy\n%%EOF\n'), type: 'application/pdf' },
    );
    const up = await env.app.inject({
      method: 'POST',
      url: '/api/documents',
      payload,
      headers: { ...headers, authorization: `Bearer ${roles.agent.token}` },
    });
    expect(up.statusCode).toBe(201);
    const documentId = JSON.parse(up.body).document_id as number;
    const [version] = await env.db.select().from(documentVersions).where(eq(documentVersions.document_id, documentId));
    // What the README's db:copy leaves: the rows, without the file.
    await env.db.files.remove(version!.storage_key);

    const pack = await api(env, 'GET', `/api/licenses/${license.license_id}/audit-pack`, { token: roles.agent.token });
    expect(pack.status).toBe(409);
    expect(pack.body).toEqual({ error: expect.stringContaining('A document\'s file is missing: "copy.pdf"'), code: 'CONFLICT' });
    expect((await api(env, 'GET', '/api/health')).status).toBe(200);
    expect((await api(env, 'GET', `/api/licenses/${license.license_id}`, { token: roles.agent.token })).status).toBe(200);
  });
});

describe('a full disk', () => {
  it('/api/health reports it (503 degraded) and is ok again once writes work', async () => {
    expect((await api(env, 'GET', '/api/health')).body).toEqual({ status: 'ok', time: expect.any(String) });
    noteDiskFull();
    const degraded = await api(env, 'GET', '/api/health');
    expect(degraded.status).toBe(503);
    expect(degraded.body).toEqual({ status: 'degraded', disk: 'full', since: expect.any(String), time: expect.any(String) });
    noteWriteSucceeded();
    expect((await api(env, 'GET', '/api/health')).status).toBe(200);
  });

  it('a read whose session is due a last-seen touch still answers, and the touch is skipped', async () => {
    const old = new Date(Date.now() - 60_000).toISOString();
    const hash = hashToken(roles.broker.token);
    await env.db.transaction((tx) => tx.update(sessions).set({ last_seen_at: old }).where(eq(sessions.token_hash, hash)));
    noteDiskFull();
    expect(diskFullSince()).not.toBeNull();
    expect((await api(env, 'GET', '/api/licenses', { token: roles.broker.token })).status).toBe(200);
    const [row] = await env.db.select().from(sessions).where(eq(sessions.token_hash, hash));
    expect(row!.last_seen_at).toBe(old);
    // Once writes work again the touch is written as before.
    noteWriteSucceeded();
    expect((await api(env, 'GET', '/api/licenses', { token: roles.broker.token })).status).toBe(200);
    const [after] = await env.db.select().from(sessions).where(eq(sessions.token_hash, hash));
    expect(after!.last_seen_at > old).toBe(true);
  });
});

describe('a long CSV export', () => {
  it('lets another request through between its chunks', async () => {
    const rows = Array.from({ length: EXPORT_CHUNK * 4 }, (_, i) => ({ name: `Export Yield ${String(i).padStart(5, '0')}` }));
    await env.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 500) await tx.insert(brokerages).values(rows.slice(i, i + 500));
    });
    const order: string[] = [];
    const exporting = env.app
      .inject({ method: 'GET', url: '/api/brokerages/export', headers: { authorization: `Bearer ${roles.admin.token}` } })
      .then((res) => {
        order.push('export');
        return res;
      });
    // Sent once the export has answered its first chunk: it must not wait for the remaining ones.
    await new Promise((resolve) => setImmediate(resolve));
    const other = api(env, 'GET', '/api/health').then((res) => {
      order.push('health');
      return res;
    });
    const [exported, health] = await Promise.all([exporting, other]);
    expect(exported.statusCode).toBe(200);
    expect(exported.body.split('\n').filter((l) => l.includes('Export Yield'))).toHaveLength(rows.length);
    expect(health.status).toBe(200);
    expect(order).toEqual(['health', 'export']);
  });
});
