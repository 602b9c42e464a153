/**
 * Big backups (issue #30, docs/decisions.md "Restore: big offices"): a backup upload has its own limit
 * (BACKUP_UPLOAD_LIMIT_MB, here 4 MB) apart from Settings › File Uploads (here 1 MB), is streamed to a temporary
 * file and restored from it; over the limit is 413 and a truncated or damaged archive 400, with nothing kept and
 * nothing changed; `npm run db:restore` restores a file on the server through the same code (backups.from-file.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { backupUploadTooLarge } from '@lm/shared';
import { auditLogs, backups, brokerages, sessions } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { rawRows } from '../src/db/raw.ts';
import { FILE_RESTORE_AGENT, parseGroups, restoreFromFile } from '../src/modules/backups/backups.from-file.ts';
import { api, seedBrokerage, type Roles, type TestEnv, useTestEnv, multipartBody } from './helpers.ts';

const t = useTestEnv({ BACKUP_UPLOAD_LIMIT_MB: '4' });
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

const MB = 1024 * 1024;

/** POST /api/admin/backups/upload; `chunked` sends the body as a stream without a Content-Length. */
async function upload(file: Buffer, fields: Record<string, string> = {}, chunked = false) {
  const body = multipartBody(fields, { name: 'backup.zip', data: file, type: 'application/zip' });
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/admin/backups/upload',
    headers: { ...body.headers, authorization: `Bearer ${roles.admin.token}` },
    payload: chunked ? Readable.from([body.payload.subarray(0, 1000), body.payload.subarray(1000)]) : body.payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

async function setFileLimit(mb: number) {
  await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: mb }, null));
  invalidateSettings();
}

/** What a refused upload must leave as it was: the backups, the brokerages, and no scratch file. */
async function state() {
  const work = path.join(env.config.dataDir, 'backups', '.work');
  return {
    backups: (await env.db.select({ id: backups.id }).from(backups)).length,
    brokerages: (await env.db.select({ name: brokerages.name }).from(brokerages).orderBy(brokerages.brokerage_id)).map((b) => b.name),
    scratch: fs.existsSync(work) ? fs.readdirSync(work).filter((f) => f.startsWith('upload_')) : [],
    zips: fs.readdirSync(path.join(env.config.dataDir, 'backups')).filter((f) => f.endsWith('.zip')).length,
  };
}

/**
 * A real backup zip of about 2.5 MB (more than the 1 MB file limit): stored files travel in it, so random bytes in
 * the outbox make it big. The ballast file is removed again.
 */
async function bigBackup(): Promise<{ id: number; zip: Buffer }> {
  const outbox = path.join(env.config.dataDir, 'outbox');
  fs.mkdirSync(outbox, { recursive: true });
  const ballast = path.join(outbox, 'ballast.bin');
  fs.writeFileSync(ballast, crypto.randomBytes(2.5 * MB));
  try {
    const res = await api(env, 'POST', '/api/admin/backups', {
      token: roles.admin.token,
      body: { description: 'big', include_files: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const zip = fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${res.body.id}.zip`));
    return { id: res.body.id as number, zip };
  } finally {
    fs.rmSync(ballast, { force: true });
  }
}

describe('a backup bigger than the file upload limit', () => {
  it('is streamed to a file, listed and restored (the upload limit is BACKUP_UPLOAD_LIMIT_MB)', async () => {
    const { zip } = await bigBackup();
    expect(zip.length).toBeGreaterThan(2 * MB);
    const later = `After the backup ${crypto.randomUUID()}`;
    await seedBrokerage(env, later);
    await setFileLimit(1);
    try {
      for (const chunked of [false, true]) {
        if (chunked) await seedBrokerage(env, later);
        const res = await upload(zip, { restore: 'true', include_brokerages: 'true' }, chunked);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ type: 'uploaded', status: 'completed', size: zip.length, restore: { success: true } });
        expect((await state()).brokerages).not.toContain(later);
        expect((await state()).scratch).toEqual([]);
      }
      const page = await api(env, 'GET', '/api/admin/backups/page', { token: roles.admin.token });
      expect(page.body.upload_limit_mb).toBe(4);
    } finally {
      await setFileLimit(10);
    }
  });

  it('over BACKUP_UPLOAD_LIMIT_MB: 413 with the limit and the way out, nothing kept, nothing changed', async () => {
    const before = await state();
    const tooBig = crypto.randomBytes(4 * MB + 100_000);
    for (const chunked of [false, true]) {
      const res = await upload(tooBig, { restore: 'true', include_brokerages: 'true' }, chunked);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: backupUploadTooLarge(4), code: 'PAYLOAD_TOO_LARGE' });
      expect(res.body.error).toMatch(/upload limit of 4 MB for backups.*npm run db:restore/);
      expect(await state()).toEqual(before);
    }
  });

  it('a truncated or damaged archive: 400, nothing kept, nothing changed', async () => {
    const { zip } = await bigBackup();
    const before = await state();
    const truncated = zip.subarray(0, Math.floor(zip.length / 2));
    // Bytes changed inside the database entry's data: the inflated database no longer matches (or does not inflate).
    const damaged = Buffer.from(zip);
    for (let i = 200; i < 4000; i += 7) damaged[i] = damaged[i]! ^ 0xff;
    for (const file of [truncated, damaged]) {
      const res = await upload(file, { restore: 'true', include_brokerages: 'true' });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(await state()).toEqual(before);
    }
  });
});

describe('npm run db:restore (a file on the server)', () => {
  it('restores a file of any size through the same code, as the named Admin, and ends its session', async () => {
    const { zip } = await bigBackup();
    const file = path.join(env.dir, 'on-the-server.zip');
    fs.writeFileSync(file, zip);
    const later = `After the backup ${crypto.randomUUID()}`;
    await seedBrokerage(env, later);
    const { backup, result } = await restoreFromFile(
      { db: env.db, config: { ...env.config, backupUploadLimitMb: 1 }, services: env.services },
      { file, as: roles.admin.email.toUpperCase(), groups: parseGroups('Brokerages', false) },
    );
    expect(result).toMatchObject({ success: true, restored: ['brokerages'], backup_id: backup.id });
    expect(backup).toMatchObject({ type: 'uploaded', status: 'completed', size: zip.length, created_by: roles.admin.user_id });
    expect(backup.description).toBe('Restored from the file on-the-server.zip on the server');
    expect((await state()).brokerages).not.toContain(later);
    expect(fs.existsSync(file)).toBe(true); // the operator's file stays
    const [entry] = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'restore'), eq(auditLogs.target_id, backup.id)));
    expect(entry!.user_id).toBe(roles.admin.user_id);
    expect(JSON.parse(String(entry!.new_values))).toMatchObject({ source: 'file' });
    const open = await rawRows<{ n: number }>(
      env.db,
      sql`SELECT count(*) AS n FROM ${sessions} WHERE ${sessions.user_agent} = ${FILE_RESTORE_AGENT} AND ${sessions.revoked_at} IS NULL`,
    );
    expect(Number(open[0]!.n)).toBe(0);
  });

  it('refuses with a message and changes nothing: not an Admin, no file, not a backup, no group, an unknown group', async () => {
    const file = path.join(env.dir, 'not-a-backup.zip');
    fs.writeFileSync(file, crypto.randomBytes(10_000));
    const deps = { db: env.db, config: env.config, services: env.services };
    const before = await state();
    await expect(restoreFromFile(deps, { file, as: roles.broker.email, groups: ['brokerages'] })).rejects.toThrow(/is not an active Admin/);
    await expect(restoreFromFile(deps, { file: `${file}.gone`, as: roles.admin.email, groups: ['brokerages'] })).rejects.toThrow(
      /There is no file/,
    );
    await expect(restoreFromFile(deps, { file, as: roles.admin.email, groups: ['brokerages'] })).rejects.toThrow(
      /not a License Manager backup/,
    );
    await expect(restoreFromFile(deps, { file, as: roles.admin.email, groups: [] })).rejects.toThrow(/Select at least one/);
    expect(() => parseGroups('licenses,audit', false)).toThrow(/"audit" is not a kind of data/);
    expect(await state()).toEqual(before);
  });
});
