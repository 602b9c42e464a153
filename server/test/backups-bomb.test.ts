/**
 * Resource safety of backup uploads and of the audit log (docs/security.md): a zip bomb is stopped at
 * the first byte over the limit, the limit is the whole archive's (not each entry's), a second
 * database.sqlite or an unexpected entry is refused, and audit_logs refuses UPDATE and DELETE in SQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { sql, type SQL } from 'drizzle-orm';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { rawExec, rawRows } from '../src/db/raw.ts';
import {
  ARCHIVE_TOO_LARGE,
  duplicateEntry,
  extractBackup,
  unexpectedEntry,
  UPLOAD_INFLATION_RATIO,
} from '../src/modules/backups/backups.archive.ts';
import { type TestEnv, type Roles, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

const MB = 1024 * 1024;

function zeros(size: number): Readable {
  let left = size;
  const chunk = Buffer.alloc(MB);
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A zip whose database.sqlite is `size` zero bytes (deflates about 1000:1). */
function zerosZip(size: number): Promise<Buffer> {
  return zipOf([
    ['database.sqlite', size],
    ['manifest.json', '{}'],
  ]);
}

/** A zip of the given entries, in order: [name, size of zeros or a text]. */
async function zipOf(entries: Array<[string, number | string]>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) {
    if (typeof content === 'string') zip.addBuffer(Buffer.from(content), name);
    else zip.addReadStream(zeros(content), name, { size: content });
  }
  zip.end();
  const parts: Buffer[] = [];
  for await (const p of zip.outputStream) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

/** Rewrites the central directory's uncompressed size of the first entry: a header that lies. */
function lieAboutSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  const central = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  out.writeUInt32LE(size, central + 24);
  return out;
}

function multipart(file: Buffer) {
  const boundary = 'bomb-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup_1.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('zip bombs', () => {
  it('an uploaded bomb answers 400 within 2 s, inflates nothing past the limit and leaves nothing behind', async () => {
    await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: 1 }, null));
    invalidateSettings();
    try {
      // 256 MiB of zeros in a zip of about 256 KB; the limit is 1 MB x 20.
      const bomb = await zerosZip(256 * MB);
      expect(bomb.length).toBeLessThan(MB);
      for (const file of [bomb, lieAboutSize(bomb, 10 * MB)]) {
        const body = multipart(file);
        const started = Date.now();
        const res = await env.app.inject({
          method: 'POST',
          url: '/api/admin/backups/upload',
          headers: { 'content-type': body.contentType, authorization: `Bearer ${roles.admin.token}` },
          payload: body.payload,
        });
        expect(Date.now() - started).toBeLessThan(2000);
        expect(res.statusCode).toBe(400);
        expect(JSON.parse(res.body).code).toBe('BAD_REQUEST');
      }
      const work = path.join(env.config.dataDir, 'backups', '.work');
      expect(fs.readdirSync(work).filter((f) => f.startsWith('upload_'))).toEqual([]);
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: 10 }, null));
      invalidateSettings();
    }
  });

  it('extraction stops at the first byte over min(declared size, limit): the file written never exceeds it', async () => {
    const bomb = await zerosZip(64 * MB);
    const zipFile = path.join(env.dir, 'bomb.zip');
    const target = path.join(env.dir, 'bomb.sqlite');
    // Honest header over the limit: refused before anything is inflated.
    fs.writeFileSync(zipFile, bomb);
    await expect(extractBackup(zipFile, target, { maxInflatedBytes: 2 * MB })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(fs.existsSync(target)).toBe(false);
    // A header that lies (declares 1.5 MB, holds 64 MB) under a 2 MB limit: inflation stops at the
    // first byte over the declared size.
    fs.writeFileSync(zipFile, lieAboutSize(bomb, 1.5 * MB));
    await expect(extractBackup(zipFile, target, { maxInflatedBytes: 2 * MB })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(fs.statSync(target).size).toBeLessThanOrEqual(1.5 * MB);
    expect(UPLOAD_INFLATION_RATIO).toBe(20);
  });
});

async function upload(file: Buffer) {
  const body = multipart(file);
  return env.app.inject({
    method: 'POST',
    url: '/api/admin/backups/upload',
    headers: { 'content-type': body.contentType, authorization: `Bearer ${roles.admin.token}` },
    payload: body.payload,
  });
}

describe('the whole archive, once each', () => {
  it('45 database.sqlite entries: 400 naming the repeated entry, having inflated nothing (issue #25 inflated 8.9 GB)', async () => {
    // Each entry alone is within the limit (1 MB x 20); before, each was inflated in turn over the same file.
    const many = await zipOf([
      ['manifest.json', '{}'],
      ...Array.from({ length: 45 }, () => ['database.sqlite', 2 * MB] as [string, number]),
    ]);
    expect(many.length).toBeLessThan(MB);
    await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: 1 }, null));
    invalidateSettings();
    try {
      const res = await upload(many);
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).error).toBe(duplicateEntry('database.sqlite'));
    } finally {
      await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: 10 }, null));
      invalidateSettings();
    }
    const zipFile = path.join(env.dir, 'many.zip');
    const target = path.join(env.dir, 'many.sqlite');
    fs.writeFileSync(zipFile, many);
    await expect(extractBackup(zipFile, target, { maxInflatedBytes: 20 * MB })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: duplicateEntry('database.sqlite'),
    });
    // Refused from the zip's directory, before anything was inflated.
    expect(fs.existsSync(target)).toBe(false);
  });

  it('an entry a backup never holds answers 400 naming it (escaped), before anything is inflated', async () => {
    const rlo = 'files/invoice\u202Egnp.exe';
    for (const name of ['evil.txt', 'sub/database.sqlite', 'files/other/x', 'files', rlo]) {
      const zipFile = path.join(env.dir, 'odd.zip');
      const target = path.join(env.dir, 'odd.sqlite');
      fs.rmSync(target, { force: true });
      fs.writeFileSync(
        zipFile,
        await zipOf([
          ['manifest.json', '{}'],
          [name, 10],
          ['database.sqlite', 10],
        ]),
      );
      await expect(extractBackup(zipFile, target), name).rejects.toMatchObject({ code: 'BAD_REQUEST', message: unexpectedEntry(name) });
      expect(fs.existsSync(target)).toBe(false);
    }
    expect(unexpectedEntry(rlo)).toContain('"files/invoice\\u{202E}gnp.exe"');
    const res = await upload(
      await zipOf([
        ['manifest.json', '{}'],
        ['database.sqlite', 10],
        ['payload.sh', 'rm -rf /'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error).toBe(unexpectedEntry('payload.sh'));
  });

  it('the limit is the sum of the entries: each under it, together over it, is refused', async () => {
    const zipFile = path.join(env.dir, 'sum.zip');
    const target = path.join(env.dir, 'sum.sqlite');
    fs.writeFileSync(
      zipFile,
      await zipOf([
        ['manifest.json', '{}'],
        ['files/documents/a', 1.5 * MB],
        ['files/outbox/b.eml', 1.5 * MB],
        ['database.sqlite', 1.5 * MB],
      ]),
    );
    await expect(extractBackup(zipFile, target, { maxInflatedBytes: 2 * MB })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: ARCHIVE_TOO_LARGE,
    });
    expect(fs.existsSync(target)).toBe(false);
    // A manifest that lies about its size is counted by the bytes it inflates to, too.
    const lying = path.join(env.dir, 'sum-lie.zip');
    const big = await zipOf([
      ['manifest.json', 'x'.repeat(3 * MB)],
      ['database.sqlite', MB],
    ]);
    fs.writeFileSync(lying, lieAboutSize(big, MB));
    await expect(extractBackup(lying, target, { maxInflatedBytes: 2 * MB })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe('audit_logs is append-only in the database', () => {
  it('UPDATE and DELETE fail in SQL; INSERT still works', async () => {
    // Raw SQL on purpose: the database itself must refuse, whatever the app does. (SQLite's Db reader is
    // query_only, so the statements run in a transaction, as any write does.)
    const write = (q: SQL) => env.db.transaction((tx) => rawExec(tx, q));
    await write(sql`INSERT INTO audit_logs (timestamp, action, target_table) VALUES (${new Date().toISOString()}, 'create', 'widgets')`);
    // The driver's error (the trigger's message) is the cause of the query error Drizzle throws.
    const refusal = async (q: SQL) => {
      const err = await write(q).then(
        () => null,
        (e: unknown) => e,
      );
      const messages: string[] = [];
      for (let e = err as { message?: string; cause?: unknown } | null; e; e = e.cause as typeof e) messages.push(String(e.message));
      return messages.join(' | ');
    };
    expect(await refusal(sql`UPDATE audit_logs SET action = 'nothing happened'`)).toMatch(/audit_logs is append-only/);
    expect(await refusal(sql`DELETE FROM audit_logs`)).toMatch(/audit_logs is append-only/);
    const [row] = await rawRows<{ n: number }>(env.db, sql`SELECT count(*) AS n FROM audit_logs WHERE action = 'nothing happened'`);
    expect(Number(row!.n)).toBe(0);
    const [widgets] = await rawRows<{ n: number }>(env.db, sql`SELECT count(*) AS n FROM audit_logs WHERE target_table = 'widgets'`);
    expect(Number(widgets!.n)).toBe(1);
  });
});
