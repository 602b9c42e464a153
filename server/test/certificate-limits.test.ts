/**
 * Certificates and uploads (docs/security.md "Certificates and uploads", docs/ocr.md "Limits before reading"):
 * a 60,000-page PDF and a 20,000 × 20,000 PNG uploaded as certificates are refused from their page tree and
 * header (nothing decoded, nothing recorded); the reading queue is fair between uploaders, each reading has a
 * time limit, closing abandons the reading in progress at once (read again at the next start); an upload over the size limit answers
 * 413 before its body is read (declared length) or at the first byte over it (chunked), and the connection closes.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { documents, documentVersions } from '../src/db/schema/index.ts';
import { requeuePendingExtractions } from '../src/modules/documents/documents.service.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import {
  extractionLimits,
  extractionsAdmitted,
  extractionsSettled,
  LIMIT_MESSAGES,
  pdfPageClaim,
  queueExtraction,
  readCertificate,
  stopExtraction,
} from '../src/modules/documents/extraction/index.ts';
import { packedPagesPdf, pngHeaderOnly, repeatedPagePdf } from './certificate-files.ts';
import { api, seedUser, tokenFor, useTestEnv, type Roles, type TestEnv, multipartBody } from './helpers.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'certificates');
const typedPdf = fs.readFileSync(path.join(FIXTURES, 'certificate-typed.pdf'));
const scanPng = fs.readFileSync(path.join(FIXTURES, 'certificate-scan.png'));

// The backup upload has its own limit (BACKUP_UPLOAD_LIMIT_MB); 1 MB here like the file limit the tests set.
const t = useTestEnv({ BACKUP_UPLOAD_LIMIT_MB: '1' });
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});
afterAll(() => stopExtraction());

async function upload(token: string, url: string, fields: Record<string, string>, file: { name: string; data: Buffer }) {
  const { payload, headers } = multipartBody(fields, file);
  const res = await env.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

async function documentCount(ownerId: number): Promise<number> {
  return (await env.db.select().from(documents).where(eq(documents.owner_id, ownerId))).length;
}

describe('certificates over the limits are refused from their header', () => {
  it('the page counts are read from the page tree, plain or packed in an object stream', () => {
    expect(pdfPageClaim(repeatedPagePdf(60_000))).toBe(60_000);
    expect(pdfPageClaim(packedPagesPdf(60_000))).toBe(60_000);
    expect(pdfPageClaim(packedPagesPdf(2))).toBe(2);
    expect(pdfPageClaim(typedPdf)).toBe(1);
  });

  it('a 60,000-page PDF answers 400 naming the limit, and nothing is recorded', async () => {
    const before = await documentCount(roles.agent.user_id);
    for (const data of [repeatedPagePdf(60_000), packedPagesPdf(60_000)]) {
      const res = await upload(roles.agent.token, '/api/documents', { category: 'ce_certificate' }, { name: 'cert.pdf', data });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(LIMIT_MESSAGES.tooManyPages(60_000));
      expect(res.body.error).toMatch(/60,000 pages; a certificate may have at most 50 pages/);
    }
    expect(await documentCount(roles.agent.user_id)).toBe(before);
  });

  it('a 20,000 × 20,000 PNG answers 400 naming the limit, from its header alone', async () => {
    // The IDAT holds 64 bytes of a 400-megapixel image: decoding it would fail as unreadable, not as too large.
    const data = pngHeaderOnly(20_000, 20_000);
    const res = await upload(roles.agent.token, '/api/documents', { category: 'ce_certificate' }, { name: 'cert.png', data });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(LIMIT_MESSAGES.imageTooLarge(20_000, 20_000));
    expect(res.body.error).toMatch(/20,000 × 20,000 pixels; a certificate image may have at most 50 megapixels/);
    // The reader itself refuses it the same way (a version queued before the check, or re-queued at start).
    await expect(readCertificate(data, 'image/png')).rejects.toThrow(LIMIT_MESSAGES.imageTooLarge(20_000, 20_000));
    await expect(readCertificate(packedPagesPdf(60_000), 'application/pdf')).rejects.toThrow(LIMIT_MESSAGES.tooManyPages(60_000));
  });

  it('a new version of a certificate is checked too; the same files as other documents are stored', async () => {
    const created = await upload(roles.agent.token, '/api/documents', { category: 'ce_certificate' }, { name: 'c.pdf', data: typedPdf });
    expect(created.status).toBe(201);
    const id = created.body.document_id as number;
    const next = await upload(
      roles.agent.token,
      `/api/documents/${id}/versions`,
      {},
      { name: 'c2.png', data: pngHeaderOnly(20_000, 20_000) },
    );
    expect(next.status).toBe(400);
    expect(next.body.error).toMatch(/at most 50 megapixels/);
    const other = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'other' },
      { name: 'big.pdf', data: repeatedPagePdf(60_000) },
    );
    expect(other.status).toBe(201);
    await extractionsSettled();
  });
});

describe('the reading queue', () => {
  async function seedVersion(uploaderId: number, file?: { mime: string; data: Buffer }) {
    const storageKey = `limits-${crypto.randomBytes(6).toString('hex')}`;
    if (file) await env.db.files.put(storageKey, Readable.from([file.data]), { maxBytes: 10_000_000 });
    return env.db.transaction(async (tx) => {
      const [doc] = await tx
        .insert(documents)
        .values({ owner_id: uploaderId, category: 'ce_certificate', title: 'c.pdf', uploaded_by: uploaderId })
        .returning();
      const [version] = await tx
        .insert(documentVersions)
        .values({
          document_id: doc!.document_id,
          version: 1,
          file_name: 'c.pdf',
          mime_type: file?.mime ?? 'application/pdf',
          size: 1,
          sha256: 'x',
          storage_key: storageKey,
          uploaded_by: uploaderId,
          extraction_status: 'pending',
        })
        .returning();
      return version!.version_id;
    });
  }
  const row = async (versionId: number) =>
    (await env.db.select().from(documentVersions).where(eq(documentVersions.version_id, versionId)))[0]!;

  it("one uploader's 20 certificates delay another's single one by at most the reading in progress", async () => {
    const heavy = await seedUser(env, 'Agent');
    const light = await seedUser(env, 'Agent');
    const started: string[] = [];
    const reader = (label: string) => async () => {
      started.push(label);
      // The first reading lasts until all 21 have their place (their uploader looked up), as in a burst.
      if (label === 'heavy-1') await extractionsAdmitted();
      return typedPdf;
    };
    const heavyVersions: number[] = [];
    for (let i = 1; i <= 20; i++) heavyVersions.push(await seedVersion(heavy.user_id));
    const single = await seedVersion(light.user_id);
    // Twenty from one Agent, then one from another, queued at once (an upload burst).
    heavyVersions.forEach((versionId, i) => queueExtraction(env.db, versionId, reader(`heavy-${i + 1}`)));
    queueExtraction(env.db, single, reader('light'));
    await extractionsSettled();
    expect(started).toHaveLength(21);
    expect(started.indexOf('light')).toBeLessThanOrEqual(1);
    expect(started.filter((s) => s.startsWith('heavy'))).toEqual(Array.from({ length: 20 }, (_, i) => `heavy-${i + 1}`));
    expect((await row(single)).extraction_status).toBe('done');
  });

  it('a reading past its time limit is stopped and answered "could not be read in time"; the next one runs', async () => {
    const uploader = await seedUser(env, 'Agent');
    const slow = await seedVersion(uploader.user_id);
    extractionLimits.readMs = 1; // a thread cannot even start in a millisecond
    try {
      queueExtraction(env.db, slow, async () => scanPng);
      await extractionsSettled();
    } finally {
      extractionLimits.readMs = 60_000;
    }
    expect(await row(slow)).toMatchObject({ extraction_status: 'failed', extraction_error: LIMIT_MESSAGES.timedOut(1) });
    expect(LIMIT_MESSAGES.timedOut(60_000)).toMatch(/could not be read in time \(limit 60 s\)/);
    const next = await seedVersion(uploader.user_id);
    queueExtraction(env.db, next, async () => typedPdf);
    await extractionsSettled();
    expect((await row(next)).extraction_status).toBe('done');
  });

  it('closing abandons a reading in progress at once; its version stays pending and is read at the next start', async () => {
    const uploader = await seedUser(env, 'Agent');
    const versionId = await seedVersion(uploader.user_id);
    let began!: () => void;
    const begun = new Promise<void>((resolve) => (began = resolve));
    // A reading that would run until its time limit (60 s): closing must not wait for it.
    let release!: (bytes: Buffer) => void;
    queueExtraction(env.db, versionId, async () => {
      began();
      return new Promise<Buffer>((resolve) => (release = resolve));
    });
    await begun;
    const stopped = stopExtraction();
    // The reading's bytes arrive only after the close began: it is not started, and nothing is written.
    release(scanPng);
    await stopped;
    expect((await row(versionId)).extraction_status).toBe('pending');

    // An OCR reading in its thread is stopped too, and the next start reads it.
    const inThread = await seedVersion(uploader.user_id, { mime: 'image/png', data: scanPng });
    let reading!: () => void;
    const readingBegun = new Promise<void>((resolve) => (reading = resolve));
    queueExtraction(env.db, inThread, async () => {
      setImmediate(reading);
      return scanPng; // OCR: seconds of work
    });
    await readingBegun;
    await stopExtraction();
    expect((await row(inThread)).extraction_status).toBe('pending');
    const restarted = await requeuePendingExtractions(env.db);
    expect(restarted).toBeGreaterThanOrEqual(1);
    await extractionsSettled();
    expect((await row(inThread)).extraction_status).toBe('done');
  });
});

describe('uploads over the size limit', () => {
  let port: number;
  beforeAll(async () => {
    await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: 1 }, null));
    invalidateSettings();
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await env.db.transaction((tx) => writeSettings(tx, { max_file_size_mb: 10 }, null));
    invalidateSettings();
  });

  /**
   * Sends the request's head, then body bytes (a chunked body, or a declared length never reached) until the
   * server answers; resolves with the answer, how many body bytes were sent, and whether the server closed.
   */
  function send(url: string, token: string, mode: 'declared' | 'chunked') {
    return new Promise<{ head: string; body: string; sent: number }>((resolve, reject) => {
      const boundary = 'lmtestboundary';
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      let sent = 0;
      let writing = true;
      const headers = [
        `POST ${url} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${token}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        mode === 'declared' ? `Content-Length: ${300 * 1024 * 1024}` : 'Transfer-Encoding: chunked',
        '',
        '',
      ].join('\r\n');
      const start = `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;
      const block = Buffer.alloc(64 * 1024, 0x20);
      const frame = (b: Buffer) =>
        mode === 'chunked' ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b;
      const pump = () => {
        // Body bytes go on only while the server reads them; at most 300 MB (the declared length).
        while (writing && sent < 300 * 1024 * 1024) {
          sent += block.length;
          if (!socket.write(frame(block))) return socket.once('drain', pump);
        }
      };
      socket.on('connect', () => {
        socket.write(headers);
        socket.write(frame(Buffer.from(start)));
        if (mode === 'chunked') pump();
      });
      socket.on('data', (d) => {
        answer += d.toString('latin1');
        writing = false;
      });
      socket.on('error', () => undefined); // the server closing while we write: EPIPE / ECONNRESET
      socket.on('close', () => {
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        // A chunked body still arriving when the server closes makes its kernel reset the connection, and the reset
        // may reach this client before it has read the 413 (TCP drops what was not yet read): the client then sees
        // the connection reset, with nothing read past the limit either (docs/security.md "Certificates and
        // uploads"). A declared length is refused before any body byte, so it always reads its 413.
        if (!head && mode === 'declared') reject(new Error('no answer'));
        else resolve({ head, body, sent });
      });
    });
  }

  it('a declared Content-Length over the limit answers 413 before the body is read, and closes', async () => {
    const res = await send('/api/documents', roles.agent.token, 'declared');
    expect(res.head).toMatch(/^HTTP\/1\.1 413/);
    expect(res.head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(res.body).error).toMatch(/larger than the upload limit of 1 MB/);
    expect(res.sent).toBe(0); // only the head and the form's start were sent
  });

  it('a chunked upload is cut at the limit: 413, the connection closed, the rest never read', async () => {
    const res = await send('/api/documents', roles.agent.token, 'chunked');
    if (res.head) {
      expect(res.head).toMatch(/^HTTP\/1\.1 413/);
      expect(res.head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(res.body).error).toMatch(/larger than the upload limit of 1 MB/);
    }
    // The socket closed long before 300 MB: what was sent is the limit plus what the sockets' buffers held.
    expect(res.sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('the same for a new version and for a backup upload', async () => {
    const created = await upload(roles.agent.token, '/api/documents', { category: 'other' }, { name: 'a.pdf', data: typedPdf });
    const id = created.body.document_id as number;
    for (const mode of ['declared', 'chunked'] as const) {
      const version = await send(`/api/documents/${id}/versions`, roles.agent.token, mode);
      if (version.head || mode === 'declared') expect(version.head).toMatch(/^HTTP\/1\.1 413/);
      expect(version.sent).toBeLessThan(64 * 1024 * 1024);
      const backup = await send('/api/admin/backups/upload', roles.admin.token, mode);
      expect(backup.sent).toBeLessThan(64 * 1024 * 1024);
      if (!backup.head && mode === 'chunked') continue; // reset before the answer was read (send, above)
      expect(backup.head).toMatch(/^HTTP\/1\.1 413/);
      expect(backup.head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(backup.body).error).toMatch(/backup file is larger than the upload limit of 1 MB/);
    }
    // The server still answers on a new connection.
    expect((await api(env, 'GET', '/api/auth/me', { token: await tokenFor(env, roles.agent.user_id) })).status).toBe(200);
  });
});
