import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import yazl from 'yazl';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import {
  auditLogs,
  backups,
  brokerages,
  completions,
  courses,
  licenses,
  payments,
  sessions,
  settings,
  users,
} from '../src/db/schema/index.ts';
import { rawRows } from '../src/db/raw.ts';
import type { SqliteDb } from '../src/db/sqlite/driver.ts';
import { primaryKeyOf } from '../src/db/portable-tables.ts';
import { getSettings, invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { BACKUP_LOCK, restoreWorkFile } from '../src/modules/backups/backups.service.ts';
import { openDatabase } from '../src/db/client.ts';
import { derivedCurrentSums } from '../src/modules/licenses/ce-ledger.ts';
import {
  api,
  callerFor,
  readZip,
  seedBrokerage,
  seedUser,
  tokenFor,
  type TestEnv,
  type Roles,
  useTestEnv,
  multipartBody,
} from './helpers.ts';

/** The newest migration of drizzle/sqlite/meta/_journal.json: what a backup's manifest names as its schema. */
const JOURNAL = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../drizzle/sqlite/meta/_journal.json'), 'utf8')) as {
  entries: Array<{ tag: string }>;
};
const LATEST_MIGRATION = { tag: JOURNAL.entries.at(-1)!.tag, count: JOURNAL.entries.length };

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(() => {
  ({ env, roles } = t);
});

// ---------------------------------------------------------------- helpers

function makeZip(entries: Map<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

async function upload(token: string | null, fields: Record<string, string>, file?: { name: string; data: Buffer; field?: string }) {
  const body = multipartBody(fields, file && { ...file, type: 'application/zip' });
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/admin/backups/upload',
    headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: body.payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

async function download(token: string | null, id: number) {
  const res = await env.app.inject({
    method: 'GET',
    url: `/api/admin/backups/${id}/download`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return res;
}

async function createBackup(body: Record<string, unknown> = { description: 'test backup', include_files: false }) {
  const res = await api(env, 'POST', '/api/admin/backups', { token: roles.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; size: number; status: string };
}

/** The live tables a test counts or compares, by SQL name. */
const TABLES: Record<string, object> = {
  audit_logs: auditLogs,
  backups,
  brokerages,
  completions,
  courses,
  licenses,
  payments,
  settings,
  users,
};
const sqliteOf = () => (env.db as SqliteDb).writer;
async function count(table: string): Promise<number> {
  const [row] = await rawRows<{ n: number }>(env.db, sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`);
  return Number(row!.n);
}
/** Every row of a table as the app sees it, in primary-key order. */
async function dump(table: string): Promise<unknown[]> {
  const t = TABLES[table] as typeof brokerages;
  return env.db
    .select()
    .from(t)
    .orderBy(primaryKeyOf(t)! as typeof brokerages.brokerage_id);
}
async function setSettings(values: Parameters<typeof writeSettings>[1], userId: number | null) {
  await env.db.transaction((tx) => writeSettings(tx, values, userId));
  invalidateSettings();
}
/** The number of foreign keys PostgreSQL enforces (a restore drops and re-creates the ones it touches). */
async function pgForeignKeys(): Promise<number> {
  const [row] = await rawRows<{ n: number }>(env.db, sql`SELECT count(*) AS n FROM pg_constraint WHERE contype = 'f'`);
  return Number(row!.n);
}

let seq = 0;
async function seedLicensing() {
  const n = ++seq;
  return env.db.transaction(async (tx) => {
    const [broker] = await tx
      .insert(brokerages)
      .values({ name: `Seed Realty ${n}` })
      .returning();
    const [holder] = await tx
      .insert(users)
      .values({
        email: `holder${n}-${Date.now()}@test.example`,
        password_hash: 'x',
        first_name: 'Holly',
        last_name: `Holder${n}`,
        role_id: 3,
        brokerage_id: broker!.brokerage_id,
      })
      .returning();
    const [license] = await tx
      .insert(licenses)
      .values({
        user_id: holder!.user_id,
        license_number: `SEED-${n}-${Date.now()}`,
        state: 'CA',
        issue_date: '2024-01-01',
        expiration_date: '2026-01-01',
      })
      .returning();
    const [course] = await tx
      .insert(courses)
      .values({ course_name: `Ethics ${n}`, description: 'Ethics', provider: 'School', ce_hours: 3 })
      .returning();
    await tx.insert(completions).values({
      user_id: holder!.user_id,
      course_id: course!.course_id,
      license_id: license!.license_id,
      completion_date: '2024-06-01',
      hours: 3,
    });
    await tx
      .insert(payments)
      .values({ user_id: holder!.user_id, license_id: license!.license_id, amount_cents: 12_500, payment_date: '2024-06-02' });
    return { broker: broker!, holder: holder!, license: license!, course: course! };
  });
}

// ---------------------------------------------------------------- tests

describe('who may use backups', () => {
  it('Admin only: other roles get 403 and no token 401, on REST, tRPC and the file routes', async () => {
    const b = await createBackup();
    const cases: Array<[string, string | null, number]> = [
      ['admin', roles.admin.token, 200],
      ['broker', roles.broker.token, 403],
      ['agent', roles.agent.token, 403],
      ['school', roles.school.token, 403],
      ['none', null, 401],
    ];
    for (const [who, token, status] of cases) {
      expect((await api(env, 'GET', '/api/admin/backups', { token })).status, `${who} list`).toBe(status);
      expect((await download(token, b.id)).statusCode, `${who} download`).toBe(status);
      if (status !== 200) {
        expect((await api(env, 'POST', '/api/admin/backups', { token, body: {} })).status, `${who} create`).toBe(status);
        expect((await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, { token, body: { include_settings: true } })).status).toBe(
          status,
        );
        expect((await api(env, 'DELETE', `/api/admin/backups/${b.id}`, { token })).status, `${who} delete`).toBe(status);
        expect((await upload(token, {}, { name: 'x.zip', data: Buffer.from('x') })).status, `${who} upload`).toBe(status);
      }
    }
    await expect(callerFor(env, roles.broker.user_id).admin.backups.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(env, null).admin.backups.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('lists every backup path in /api/openapi.json', async () => {
    const doc = (await api(env, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const p of [
      'GET /admin/backups',
      'POST /admin/backups',
      'POST /admin/backups/{id}/restore',
      'DELETE /admin/backups/{id}',
      'GET /admin/backups/{id}/download',
      'POST /admin/backups/upload',
    ]) {
      expect(listed).toContain(p);
    }
  });
});

describe('creating, listing, downloading and deleting (acceptance 3)', () => {
  it('a backup completes with a size; the zip holds the snapshot, a manifest and, with include_files, the stored files', async () => {
    fs.mkdirSync(path.join(env.config.dataDir, 'outbox'), { recursive: true });
    fs.writeFileSync(path.join(env.config.dataDir, 'outbox', 'hello.eml'), 'Subject: hi\r\n\r\nhello');
    // A stray file in $DATA_DIR/documents is not a stored document: documents travel through the file store
    // (server/test/documents.test.ts backs one up and restores it).
    fs.mkdirSync(path.join(env.config.dataDir, 'documents', 'licenses'), { recursive: true });
    fs.writeFileSync(path.join(env.config.dataDir, 'documents', 'licenses', 'card.pdf'), '%PDF-1.4 test');
    const res = await api(env, 'POST', '/api/admin/backups', {
      token: roles.admin.token,
      body: { description: 'Before year end', include_files: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      description: 'Before year end',
      status: 'completed',
      type: 'manual',
      include_files: true,
      created_by: roles.admin.user_id,
      created_by_name: expect.stringContaining('Admin'),
      error: null,
    });
    expect(res.body.size).toBeGreaterThan(0);
    const file = path.join(env.config.dataDir, 'backups', `backup_${res.body.id}.zip`);
    expect(fs.statSync(file).size).toBe(res.body.size);

    const entries = await readZip(fs.readFileSync(file));
    expect([...entries.keys()].sort()).toEqual(['database.sqlite', 'files/outbox/hello.eml', 'manifest.json']);
    expect(entries.get('files/outbox/hello.eml')!.toString()).toContain('hello');
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    const db = entries.get('database.sqlite')!;
    expect(manifest).toMatchObject({
      format: 1,
      app: 'License Manager',
      backup_id: res.body.id,
      include_files: true,
      schema_version: { tag: LATEST_MIGRATION.tag, migrations: LATEST_MIGRATION.count, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      database: { file: 'database.sqlite', size: db.length, sha256: crypto.createHash('sha256').update(db).digest('hex') },
    });
    expect(manifest.row_counts.users).toBe(await count('users'));
    expect(manifest.row_counts.brokerages).toBe(await count('brokerages'));
    expect(manifest.files).toEqual([{ path: 'outbox/hello.eml', size: 20 }]);
    // The snapshot is a self-contained rollback-journal database, readable on its own.
    expect(db[18]).toBe(1);
    expect(db[19]).toBe(1);

    // Without include_files only the database and the manifest.
    const lean = await createBackup({ description: 'lean', include_files: false });
    const leanEntries = await readZip(fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${lean.id}.zip`)));
    expect([...leanEntries.keys()].sort()).toEqual(['database.sqlite', 'manifest.json']);
  });

  it('the list answers its totals and the creator, newest first', async () => {
    const b = await createBackup({ description: 'for the list' });
    const res = await api(env, 'GET', '/api/admin/backups', { token: roles.admin.token });
    expect(res.status).toBe(200);
    const rows = await env.db.select().from(backups);
    expect(res.body.total).toBe(rows.length);
    expect(res.body.completed).toBe(rows.filter((r) => r.status === 'completed').length);
    expect(res.body.in_progress).toBe(0);
    expect(res.body.total_size).toBe(rows.reduce((s, r) => s + r.size, 0));
    expect(res.body.backups[0]).toMatchObject({ id: b.id, description: 'for the list', created_by: roles.admin.user_id });
    expect(Object.keys(res.body.backups[0]).sort()).toEqual(
      [
        'completed_at',
        'created_at',
        'created_by',
        'created_by_name',
        'description',
        'error',
        'id',
        'include_files',
        'size',
        'status',
        'type',
      ].sort(),
    );
    // tRPC answers the same.
    const viaTrpc = await callerFor(env, roles.admin.user_id).admin.backups.list();
    expect(viaTrpc.total).toBe(res.body.total);
  });

  it('the download is application/zip named backup_{id}.zip with the file bytes, and is audited', async () => {
    const b = await createBackup({ description: 'to download' });
    const res = await download(roles.admin.token, b.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="backup_${b.id}.zip"`);
    expect(res.rawPayload.equals(fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${b.id}.zip`)))).toBe(true);
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'download'), eq(auditLogs.target_id, b.id)))
    )[0];
    expect(entry).toMatchObject({ user_id: roles.admin.user_id, target_table: 'backups' });
    expect((await download(roles.admin.token, 999_999)).statusCode).toBe(404);
    expect((await download(roles.admin.token, 0)).statusCode).toBe(400);
  });

  it('download and restore answer 409 unless the backup is completed', async () => {
    const [failed] = await env.db.transaction((tx) =>
      tx.insert(backups).values({ description: 'broken', status: 'failed', error: 'disk full' }).returning(),
    );
    expect((await download(roles.admin.token, failed!.id)).statusCode).toBe(409);
    const restore = await api(env, 'POST', `/api/admin/backups/${failed!.id}/restore`, {
      token: roles.admin.token,
      body: { include_settings: true },
    });
    expect(restore.status).toBe(409);
    expect(restore.body.error).toBe('Only a completed backup can be downloaded or restored');
  });

  it('delete removes the row and the file, is audited, and then answers 404', async () => {
    const b = await createBackup({ description: 'to delete' });
    const file = path.join(env.config.dataDir, 'backups', `backup_${b.id}.zip`);
    expect(fs.existsSync(file)).toBe(true);
    const res = await api(env, 'DELETE', `/api/admin/backups/${b.id}`, { token: roles.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(fs.existsSync(file)).toBe(false);
    expect((await env.db.select().from(backups).where(eq(backups.id, b.id)))[0]).toBeUndefined();
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'delete'), eq(auditLogs.target_table, 'backups'), eq(auditLogs.target_id, b.id)))
    )[0];
    expect(JSON.parse(entry!.old_values!)).toMatchObject({ description: 'to delete', status: 'completed' });
    expect((await api(env, 'DELETE', `/api/admin/backups/${b.id}`, { token: roles.admin.token })).status).toBe(404);
  });

  it('every step of a backup is audited: created in_progress, then completed', async () => {
    const b = await createBackup({ description: 'audited' });
    const entries = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'backups'), eq(auditLogs.target_id, b.id)));
    expect(entries.map((e) => e.action)).toEqual(['create', 'update']);
    expect(JSON.parse(entries[0]!.new_values!)).toMatchObject({ status: 'in_progress', description: 'audited' });
    expect(JSON.parse(entries[1]!.new_values!)).toMatchObject({ status: 'completed', size: b.size });
  });

  it('tRPC creates, restores and deletes too', async () => {
    const caller = callerFor(env, roles.admin.user_id);
    const b = await caller.admin.backups.create({ description: 'via tRPC', include_files: false });
    expect(b).toMatchObject({ status: 'completed', description: 'via tRPC' });
    const r = await caller.admin.backups.restore({ id: b.id, include_settings: true });
    expect(r).toMatchObject({ success: true, backup_id: b.id, restored: ['settings'] });
    await expect(caller.admin.backups.restore({ id: b.id })).rejects.toMatchObject({
      message: 'Select at least one kind of data to restore',
    });
    expect(await caller.admin.backups.delete({ id: b.id })).toEqual({ success: true });
  });
});

describe('one backup or restore at a time, across instances', () => {
  it('answers 409 while another backup or restore holds the guard (on PostgreSQL: held by another instance)', async () => {
    const b = await createBackup({ description: 'guarded' });
    // On PostgreSQL a second connection pool to the same database is another instance; SQLite has one instance.
    const other = env.db.engine === 'postgres' ? await openDatabase(env.config, { migrate: false }) : env.db;
    try {
      const held = await other.exclusive(BACKUP_LOCK, async () => ({
        create: await api(env, 'POST', '/api/admin/backups', { token: roles.admin.token, body: { include_files: false } }),
        restore: await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, {
          token: roles.admin.token,
          body: { include_settings: true },
        }),
      }));
      expect(held.acquired).toBe(true);
      if (!held.acquired) return;
      for (const res of [held.value.create, held.value.restore]) {
        expect(res.status).toBe(409);
        expect(res.body.error).toBe('Another backup or restore is running; try again when it has finished');
      }
    } finally {
      if (other !== env.db) await other.close();
    }
    // Released: both work again.
    expect(
      (await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, { token: roles.admin.token, body: { include_settings: true } })).status,
    ).toBe(200);
  });
});

describe('restore (acceptance 3 and 6)', () => {
  it('restoring only brokerages removes a brokerage created after the backup while users created after it stay', async () => {
    const before = await count('brokerages');
    const b = await createBackup({ description: 'brokerages only' });
    const lateBrokerage = await seedBrokerage(env, 'Opened After The Backup');
    const lateUser = await seedUser(env, 'Agent', { brokerage_id: lateBrokerage });
    const usersBefore = await count('users');

    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, {
      token: roles.admin.token,
      body: { include_brokerages: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      backup_id: b.id,
      restored: ['brokerages'],
      row_counts: { brokerages: before },
      references_cleared: { 'users.brokerage_id': 1 },
      signed_out: false,
    });
    expect((await env.db.select().from(brokerages).where(eq(brokerages.brokerage_id, lateBrokerage)))[0]).toBeUndefined();
    expect(await count('brokerages')).toBe(before);
    const user = (await env.db.select().from(users).where(eq(users.user_id, lateUser.user_id)))[0];
    expect(user).toMatchObject({ user_id: lateUser.user_id, brokerage_id: null });
    expect(await count('users')).toBe(usersBefore);
    // The Broker's brokerage existed at backup time and is still linked.
    expect((await env.db.select().from(users).where(eq(users.user_id, roles.broker.user_id)))[0]!.brokerage_id).toBe(roles.brokerageId);

    // A safety backup was taken first, and the restore is audited.
    const safety = (await env.db.select().from(backups).where(eq(backups.id, res.body.safety_backup_id)))[0];
    expect(safety).toMatchObject({ type: 'safety', status: 'completed', description: `Safety backup before restoring backup #${b.id}` });
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'restore'), eq(auditLogs.target_id, b.id)))
    )[0];
    expect(JSON.parse(entry!.new_values!)).toMatchObject({ restored: ['brokerages'], safety_backup_id: safety!.id, source: 'backup' });
    // The caller's session survived (users were not restored).
    expect((await api(env, 'GET', '/api/auth/me', { token: roles.admin.token })).status).toBe(200);
  });

  it('a round trip of every group brings back exactly the rows of the backup; the audit log is never rewritten', async () => {
    await seedLicensing();
    const kept = await seedLicensing();
    await setSettings({ app_name: 'Office At Backup Time', license_expiry_warning_days: 45 }, null);
    const b = await createBackup({ description: 'round trip' });
    const manifest = JSON.parse((await env.db.select().from(backups).where(eq(backups.id, b.id)))[0]!.manifest!);
    const tables = ['brokerages', 'users', 'licenses', 'courses', 'completions', 'payments', 'settings'];
    const atBackup = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await dump(t)] as const)));
    for (const t of tables) expect(manifest.row_counts[t], t).toBe(atBackup[t]!.length);

    // Change every group after the backup: new rows, changed rows, deleted rows.
    const late = await seedLicensing();
    await env.db.transaction(async (tx) => {
      await tx.update(licenses).set({ status: 'Suspended' }).where(eq(licenses.license_id, kept.license.license_id));
      await tx.delete(payments).where(eq(payments.user_id, kept.holder.user_id));
      await tx.update(users).set({ first_name: 'Renamed' }).where(eq(users.user_id, kept.holder.user_id));
    });
    await setSettings({ app_name: 'Changed Later', max_login_attempts: 9 }, null);
    expect((await getSettings(env.db)).app_name).toBe('Changed Later');
    const otherSession = await tokenFor(env, roles.agent.user_id);
    const auditBefore = await count('audit_logs');
    const fksBefore = env.db.engine === 'postgres' ? await pgForeignKeys() : 0;

    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, {
      token: roles.admin.token,
      body: {
        include_users: true,
        include_licenses: true,
        include_courses: true,
        include_payments: true,
        include_brokerages: true,
        include_settings: true,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.restored).toEqual(['users', 'licenses', 'courses', 'payments', 'brokerages', 'settings']);
    for (const t of tables) {
      expect(res.body.row_counts[t], t).toBe(manifest.row_counts[t]);
      expect(await count(t), t).toBe(manifest.row_counts[t]);
      expect(await dump(t), t).toEqual(atBackup[t]);
    }
    expect((await env.db.select().from(users).where(eq(users.user_id, late.holder.user_id)))[0]).toBeUndefined();
    // Settings took effect at once (the cache was dropped).
    expect(await getSettings(env.db)).toMatchObject({
      app_name: 'Office At Backup Time',
      license_expiry_warning_days: 45,
      max_login_attempts: 5,
    });
    // The audit log only grew: the entries written since the backup are all still there.
    expect(await count('audit_logs')).toBeGreaterThan(auditBefore);
    // Sessions: the restoring Admin is the same person in the backup and stays signed in; others are signed out.
    expect(res.body.signed_out).toBe(false);
    expect((await api(env, 'GET', '/api/auth/me', { token: roles.admin.token })).status).toBe(200);
    expect((await api(env, 'GET', '/api/auth/me', { token: otherSession })).status).toBe(401);
    expect((await api(env, 'GET', '/api/auth/me', { token: roles.agent.token })).status).toBe(401);
    roles.agent.token = await tokenFor(env, roles.agent.user_id);
    roles.broker.token = await tokenFor(env, roles.broker.user_id);
    roles.school.token = await tokenFor(env, roles.school.user_id);
    if (env.db.engine === 'sqlite') {
      expect(sqliteOf().pragma('foreign_key_check')).toEqual([]);
      expect(sqliteOf().pragma('foreign_keys', { simple: true })).toBe(1);
    } else {
      // Every foreign key the restore dropped is back (and was validated when re-created).
      expect(await pgForeignKeys()).toBe(fksBefore);
    }
  });

  it('a licenses-only restore brings back the CE ledger tables and recomputes every CE cache from the live completions', async () => {
    const { holder, license, course } = await seedLicensing();
    const admin = callerFor(env, roles.admin.user_id);
    await admin.licenses.adjust({ id: license.license_id, hours: 5, reason: 'certificates on file' });
    const b = await createBackup({ description: 'licenses and their ledger' });
    // After the backup: another adjustment (licenses group) and an approved completion (courses group).
    await admin.licenses.adjust({ id: license.license_id, hours: 1, reason: 'later' });
    const done = await admin.completions.create({
      course_id: course.course_id,
      user_id: holder.user_id,
      license_id: license.license_id,
      completion_date: '2025-03-01',
    });
    await admin.completions.review({ id: done.completion_id, status: 'Approved' });
    expect((await env.db.select().from(licenses).where(eq(licenses.license_id, license.license_id)))[0]!.ce_hours_completed).toBe(9);

    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, {
      token: roles.admin.token,
      body: { include_licenses: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.row_counts).toMatchObject({ licenses: expect.any(Number), ce_adjustments: expect.any(Number), license_cycles: 0 });
    // The snapshot's license row said 5; the ledger now holds its 5-hour adjustment and the live 3-hour approval.
    expect((await env.db.select().from(licenses).where(eq(licenses.license_id, license.license_id)))[0]!.ce_hours_completed).toBe(8);
    const sums = await derivedCurrentSums(env.db);
    for (const l of await env.db.select().from(licenses))
      expect(l.ce_hours_completed, `license ${l.license_id}`).toBe(sums.get(l.license_id));
  });

  it('a stale -wal file beside the extracted snapshot cannot leak into the restored data', async () => {
    const b = await createBackup({ description: 'wal test' });
    const atBackup = await count('brokerages');
    const zip = await readZip(fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${b.id}.zip`)));
    const pristine = zip.get('database.sqlite')!;

    // A -wal written against the very same database bytes, holding 50 extra brokerages.
    const scratch = fs.mkdtempSync(path.join(env.dir, 'wal-'));
    const poisonDb = path.join(scratch, 'poison.sqlite');
    fs.writeFileSync(poisonDb, pristine);
    const poisoner = new Database(poisonDb);
    poisoner.pragma('journal_mode = WAL');
    poisoner.pragma('wal_autocheckpoint = 0');
    const insert = poisoner.prepare("INSERT INTO brokerages (name, created_at, updated_at) VALUES (?, '2024-01-01', '2024-01-01')");
    for (let i = 0; i < 50; i++) insert.run(`Leaked ${i}`);
    const wal = fs.readFileSync(`${poisonDb}-wal`);
    poisoner.close();

    // Control: SQLite does replay such a file when it sits beside the snapshot.
    const control = path.join(scratch, 'control.sqlite');
    fs.writeFileSync(control, pristine);
    fs.writeFileSync(`${control}-wal`, wal);
    const c = new Database(control, { readonly: true });
    expect(c.prepare('SELECT count(*) FROM brokerages').pluck().get()).toBe(atBackup + 50);
    c.close();

    // Plant it beside the restore's work file, and restore.
    const work = restoreWorkFile({ config: env.config }, b.id);
    fs.mkdirSync(path.dirname(work), { recursive: true });
    fs.writeFileSync(work, pristine);
    fs.writeFileSync(`${work}-wal`, wal);
    await seedBrokerage(env, 'After the wal backup');
    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, {
      token: roles.admin.token,
      body: { include_brokerages: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.row_counts.brokerages).toBe(atBackup);
    expect(await count('brokerages')).toBe(atBackup);
    expect(await env.db.$count(brokerages, like(brokerages.name, 'Leaked %'))).toBe(0);
    // Nothing of the work file is left behind.
    expect(fs.existsSync(work)).toBe(false);
    expect(fs.existsSync(`${work}-wal`)).toBe(false);
  });

  it('refuses a restore that would break links, and changes nothing (409)', async () => {
    const b = await createBackup({ description: 'users only' });
    const lateHolder = await seedUser(env, 'Agent');
    await env.db.transaction((tx) =>
      tx.insert(licenses).values({
        user_id: lateHolder.user_id,
        license_number: `LATE-${Date.now()}`,
        state: 'TX',
        issue_date: '2025-01-01',
        expiration_date: '2027-01-01',
      }),
    );
    const fksBefore = env.db.engine === 'postgres' ? await pgForeignKeys() : 0;
    const usersBefore = await dump('users');
    const backupsBefore = await count('backups');
    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, { token: roles.admin.token, body: { include_users: true } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^Nothing was restored: 1 licenses record would refer to users that would no longer exist/);
    expect(await dump('users')).toEqual(usersBefore);
    expect((await api(env, 'GET', '/api/auth/me', { token: roles.admin.token })).status).toBe(200);
    // Only the safety backup was added.
    expect(await count('backups')).toBe(backupsBefore + 1);
    if (env.db.engine === 'sqlite') {
      expect(sqliteOf().pragma('foreign_keys', { simple: true })).toBe(1);
      expect((sqliteOf().pragma('database_list') as Array<{ name: string }>).map((d) => d.name)).toEqual(['main']);
    } else {
      expect(await pgForeignKeys()).toBe(fksBefore);
    }
    // The refused attempt is on the record.
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'restore_failed'), eq(auditLogs.target_id, b.id)))
    )[0];
    expect(JSON.parse(entry!.new_values!)).toMatchObject({ restored: ['users'], error: res.body.error });
  });

  it('validates the backup: a damaged zip answers 400 and restores nothing', async () => {
    const b = await createBackup({ description: 'to damage' });
    const file = path.join(env.config.dataDir, 'backups', `backup_${b.id}.zip`);
    const entries = await readZip(fs.readFileSync(file));
    const db = Buffer.from(entries.get('database.sqlite')!);
    db[db.length - 10] = db[db.length - 10]! ^ 0xff; // one flipped byte
    entries.set('database.sqlite', db);
    fs.writeFileSync(file, await makeZip(entries));
    const backupsBefore = await count('backups');
    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, {
      token: roles.admin.token,
      body: { include_settings: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The backup is damaged: its database does not match the checksum in its manifest');
    expect(await count('backups')).toBe(backupsBefore); // not even a safety backup
  });

  it('answers 400 when no group is chosen', async () => {
    const b = await createBackup();
    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, { token: roles.admin.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Select at least one kind of data to restore');
  });
});

describe('upload (acceptance 3: restore from an uploaded zip)', () => {
  it('imports a downloaded backup as a new completed backup, and restores from an uploaded zip', async () => {
    const b = await createBackup({ description: 'travels to a new machine' });
    const zip = (await download(roles.admin.token, b.id)).rawPayload;

    const imported = await upload(roles.admin.token, {}, { name: `backup_${b.id}.zip`, data: zip });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({
      status: 'completed',
      type: 'uploaded',
      size: zip.length,
      created_by: roles.admin.user_id,
      description: `Uploaded copy of backup #${b.id} (travels to a new machine) from ${imported.body.description.split(' from ')[1]}`,
    });
    expect(imported.body.restore).toBeUndefined();
    expect(fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${imported.body.id}.zip`)).equals(zip)).toBe(true);
    const audited = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'create'), eq(auditLogs.target_id, imported.body.id)))
    )[0];
    expect(JSON.parse(audited!.new_values!)).toMatchObject({ type: 'uploaded', source_backup_id: b.id });

    // Upload-and-restore: a brokerage made after the backup goes, as with a stored backup.
    const late = await seedBrokerage(env, 'Made after the uploaded backup');
    const restored = await upload(
      roles.admin.token,
      { description: 'From the old office PC', restore: 'true', include_brokerages: 'true', include_users: 'false' },
      { name: 'old.zip', data: zip },
    );
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({
      type: 'uploaded',
      description: 'From the old office PC',
      restore: { success: true, restored: ['brokerages'] },
    });
    expect((await env.db.select().from(brokerages).where(eq(brokerages.brokerage_id, late)))[0]).toBeUndefined();
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'restore'), eq(auditLogs.target_id, restored.body.id)))
    )[0];
    expect(JSON.parse(entry!.new_values!)).toMatchObject({ source: 'upload' });
  });

  it('refuses what is not a License Manager backup (400) and leaves nothing behind', async () => {
    const before = await count('backups');
    const notZip = await upload(roles.admin.token, {}, { name: 'notes.zip', data: Buffer.from('just some text') });
    expect(notZip.status).toBe(400);
    expect(notZip.body.error).toBe('This file is not a License Manager backup');
    const otherZip = await upload(
      roles.admin.token,
      {},
      { name: 'other.zip', data: await makeZip(new Map([['readme.txt', Buffer.from('hi')]])) },
    );
    expect(otherZip.status).toBe(400);
    // Names the entry that has no place in a backup (docs/security.md "Backup uploads").
    expect(otherZip.body.error).toBe(
      'This file is not a License Manager backup: it holds "readme.txt" (a backup holds manifest.json, database.sqlite and files/ only)',
    );
    const noFile = await upload(roles.admin.token, { description: 'nothing attached' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error).toBe('Choose a backup file (.zip) to upload');
    const b = await createBackup({ description: 'restore without groups' });
    const zip = (await download(roles.admin.token, b.id)).rawPayload;
    const noGroups = await upload(roles.admin.token, { restore: 'true' }, { name: 'x.zip', data: zip });
    expect(noGroups.status).toBe(400);
    expect(noGroups.body.error).toBe('Select at least one kind of data to restore');
    const json = await api(env, 'POST', '/api/admin/backups/upload', { token: roles.admin.token, body: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(await count('backups')).toBe(before + 1); // only the backup made above
    const work = path.join(env.config.dataDir, 'backups', '.work');
    expect(fs.readdirSync(work).filter((f) => f.startsWith('upload_'))).toEqual([]);
  });

  it('refuses a backup made by a newer schema (409)', async () => {
    const b = await createBackup({ description: 'from the future' });
    const entries = await readZip(fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${b.id}.zip`)));
    const scratch = path.join(fs.mkdtempSync(path.join(env.dir, 'future-')), 'db.sqlite');
    fs.writeFileSync(scratch, entries.get('database.sqlite')!);
    const future = new Database(scratch);
    future.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('f'.repeat(64), Date.now() + 1e9);
    future.close();
    const db = fs.readFileSync(scratch);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    manifest.database = { ...manifest.database, size: db.length, sha256: crypto.createHash('sha256').update(db).digest('hex') };
    const zip = await makeZip(
      new Map([
        ['database.sqlite', db],
        ['manifest.json', Buffer.from(JSON.stringify(manifest))],
      ]),
    );
    const res = await upload(roles.admin.token, {}, { name: 'future.zip', data: zip });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/newer version of License Manager/);
  });

  it('obeys BACKUP_UPLOAD_LIMIT_MB, not settings.max_file_size_mb (413; backups-big.test.ts has more)', async () => {
    await setSettings({ max_file_size_mb: 1 }, null);
    try {
      // Over the file upload limit, under the backup's: read to the end and refused as not a backup.
      const res = await upload(roles.admin.token, {}, { name: 'big.zip', data: crypto.randomBytes(1024 * 1024 + 50_000) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    } finally {
      await setSettings({ max_file_size_mb: 10 }, null);
    }
  });
});

describe('sessions after restoring users', () => {
  it('signs out the caller when the caller is not the same Admin in the backup', async () => {
    const b = await createBackup({ description: 'before the new admin' });
    const newAdmin = await seedUser(env, 'Admin');
    const token = await tokenFor(env, newAdmin.user_id);
    const res = await api(env, 'POST', `/api/admin/backups/${b.id}/restore`, { token, body: { include_users: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.signed_out).toBe(true);
    expect(res.body.references_cleared['sessions.user_id']).toBeGreaterThanOrEqual(1);
    expect((await api(env, 'GET', '/api/auth/me', { token })).status).toBe(401);
    expect(await env.db.select().from(sessions).where(eq(sessions.user_id, newAdmin.user_id))).toEqual([]);
    // The restore and its safety backup were recorded under the caller's id.
    const entry = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'restore'), eq(auditLogs.target_id, b.id)))
    )[0];
    expect(entry!.user_id).toBe(newAdmin.user_id);
    roles.admin.token = await tokenFor(env, roles.admin.user_id);
  });
});
