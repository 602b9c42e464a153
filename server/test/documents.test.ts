/**
 * Documents (docs/decisions.md "Documents"): uploads with their limits and content checks, versions, scopes,
 * soft delete, the CSV export, the audit pack and the documents group of backups. Real migrations, app.inject.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, completions, documentVersions, licenses } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { refreshCeCache } from '../src/modules/licenses/ce-ledger.ts';
import {
  api,
  callerFor,
  parseCsv,
  readZip,
  seedBrokerage,
  seedUser,
  tokenFor,
  useTestEnv,
  type Roles,
  type TestEnv,
  multipartBody,
} from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

async function pdfBytes(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText(text, { x: 20, y: 100, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

async function upload(
  token: string,
  url: string,
  fields: Record<string, string | number>,
  file?: { name: string; data: Buffer; type?: string },
): Promise<{ status: number; body: any }> {
  const { payload, headers } = multipartBody(fields, file);
  const res = await env.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${token}` } });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

async function download(token: string, url: string) {
  const res = await env.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
}

let licenseSeq = 0;
async function seedLicense(userId: number): Promise<{ license_id: number; license_number: string }> {
  return env.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number: `DOC-${++licenseSeq}-${Date.now()}`,
        state: 'CA',
        issue_date: '2024-01-01',
        expiration_date: '2027-01-01',
        ce_hours_required: 24,
      })
      .returning();
    await refreshCeCache(tx, row!.license_id);
    return { license_id: row!.license_id, license_number: row!.license_number };
  });
}

async function seedCompletion(userId: number, schoolId: number, licenseId: number | null): Promise<number> {
  const course = await callerFor(env, schoolId).courses.create({
    course_name: `Ethics ${++licenseSeq}`,
    description: 'Ethics',
    provider: 'Academy',
    ce_hours: 3,
  });
  const [row] = await env.db.transaction((tx) =>
    tx
      .insert(completions)
      .values({
        user_id: userId,
        course_id: course.course_id,
        license_id: licenseId,
        completion_date: '2025-02-01',
        hours: 3,
        status: 'Approved',
      })
      .returning(),
  );
  if (licenseId) await env.db.transaction((tx) => refreshCeCache(tx, licenseId));
  return row!.completion_id;
}

async function setSettings(values: Record<string, unknown>) {
  await env.db.transaction((tx) => writeSettings(tx, values, null));
  invalidateSettings();
}

describe('uploads: limits and content checks', () => {
  it('over max_file_size_mb answers 413 with a message, and nothing is recorded', async () => {
    await setSettings({ max_file_size_mb: 1 });
    try {
      const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1.5 * 1024 * 1024, 0x20)]);
      const res = await upload(roles.agent.token, '/api/documents', { category: 'other' }, { name: 'big.pdf', data: big });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatch(/larger than the upload limit of 1 MB/);
    } finally {
      await setSettings({ max_file_size_mb: 10 });
    }
    const list = await api(env, 'GET', '/api/documents', { token: roles.agent.token });
    expect(list.body.documents.filter((d: { title: string }) => d.title === 'big.pdf')).toHaveLength(0);
  });

  it('refuses an extension not in allowed_file_types (400)', async () => {
    const res = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'other' },
      { name: 'setup.exe', data: Buffer.from('MZ\x90\x00rest') },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/\.exe files are not accepted/);
  });

  it('refuses a ".pdf" that is really HTML, and a ".png" that is really a PDF (400)', async () => {
    const html = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'other' },
      { name: 'evil.pdf', data: Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>') },
    );
    expect(html.status).toBe(400);
    expect(html.body.error).toMatch(/evil\.pdf is not a real PDF file: its content is HTML/);
    const png = await upload(roles.agent.token, '/api/documents', { category: 'other' }, { name: 'a.png', data: await pdfBytes('hello') });
    expect(png.status).toBe(400);
    expect(png.body.error).toMatch(/a\.png is not a real PNG file: its content is PDF/);
  });

  it('a real PDF is stored (201) with the detected type; School may not upload (403)', async () => {
    const data = await pdfBytes('License copy');
    const res = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'license_copy' },
      { name: 'card.pdf', data, type: 'text/html' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      owner_id: roles.agent.user_id,
      category: 'license_copy',
      title: 'card.pdf',
      current_version: 1,
      versions: [
        { version: 1, file_name: 'card.pdf', mime_type: 'application/pdf', size: data.length, extraction_status: 'none', extraction: null },
      ],
    });
    expect(res.body.versions[0].uploaded_by_name).toContain('Agent');
    const school = await upload(roles.school.token, '/api/documents', { category: 'other' }, { name: 'x.pdf', data });
    expect(school.status).toBe(403);
  });
});

describe('versions, downloads and scopes', () => {
  it('a second version keeps the first downloadable under its own name with equal bytes', async () => {
    const v1 = await pdfBytes('first');
    const v2 = await pdfBytes('second version');
    const created = await upload(roles.agent.token, '/api/documents', { category: 'eo_insurance' }, { name: 'E&O 2024 é.pdf', data: v1 });
    expect(created.status).toBe(201);
    const id = created.body.document_id;
    const next = await upload(roles.agent.token, `/api/documents/${id}/versions`, {}, { name: 'eo-2025.pdf', data: v2 });
    expect(next.status).toBe(201);
    expect(next.body.current_version).toBe(2);
    expect(next.body.versions.map((v: { file_name: string }) => v.file_name)).toEqual(['E&O 2024 é.pdf', 'eo-2025.pdf']);

    const first = await download(roles.agent.token, `/api/documents/${id}/versions/1/download`);
    expect(first.status).toBe(200);
    expect(first.body.equals(v1)).toBe(true);
    expect(first.headers['content-disposition']).toBe(`attachment; filename="E&O 2024 _.pdf"; filename*=UTF-8''E%26O%202024%20%C3%A9.pdf`);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(String(first.headers['content-security-policy'])).toContain("default-src 'none'");
    const current = await download(roles.agent.token, `/api/documents/${id}/download?inline=1`);
    expect(current.body.equals(v2)).toBe(true);
    expect(String(current.headers['content-disposition'])).toMatch(/^inline; filename="eo-2025.pdf"/);
    // The Broker of the Agent's brokerage and the Admin see it.
    expect((await api(env, 'GET', `/api/documents/${id}`, { token: roles.broker.token })).status).toBe(200);
    expect((await api(env, 'GET', `/api/documents/${id}`, { token: roles.admin.token })).status).toBe(200);
  });

  it('a file larger than one store chunk (256 KiB) comes back byte for byte', async () => {
    const data = Buffer.concat([await pdfBytes('big'), crypto.randomBytes(700 * 1024)]);
    const created = await upload(roles.agent.token, '/api/documents', { category: 'other' }, { name: 'big-scan.pdf', data });
    expect(created.status).toBe(201);
    expect(created.body.versions[0].sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
    const back = await download(roles.agent.token, `/api/documents/${created.body.document_id}/download`);
    expect(back.body.equals(data)).toBe(true);
    expect(
      (
        await env.db.files.readAll(
          (await env.db.select().from(documentVersions).where(eq(documentVersions.document_id, created.body.document_id)))[0]!.storage_key,
        )
      ).equals(data),
    ).toBe(true);
  });

  it('another Agent and the Broker of another brokerage get 404 on get, download and version upload', async () => {
    const created = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'agreement' },
      { name: 'deal.pdf', data: await pdfBytes('deal') },
    );
    const id = created.body.document_id;
    const otherBrokerage = await seedBrokerage(env);
    const otherAgent = await seedUser(env, 'Agent', { brokerage_id: otherBrokerage });
    const otherBroker = await seedUser(env, 'Broker', { brokerage_id: otherBrokerage });
    for (const user of [otherAgent, otherBroker]) {
      const token = await tokenFor(env, user.user_id);
      expect((await api(env, 'GET', `/api/documents/${id}`, { token })).status).toBe(404);
      expect((await download(token, `/api/documents/${id}/download`)).status).toBe(404);
      expect((await download(token, `/api/documents/${id}/versions/1/download`)).status).toBe(404);
      const v = await upload(token, `/api/documents/${id}/versions`, {}, { name: 'x.pdf', data: await pdfBytes('x') });
      expect(v.status).toBe(404);
      expect((await api(env, 'PUT', `/api/documents/${id}`, { token, body: { category: 'other' } })).status).toBe(404);
      expect((await api(env, 'DELETE', `/api/documents/${id}`, { token })).status).toBe(404);
      const list = await api(env, 'GET', '/api/documents', { token });
      expect(list.body.documents.map((d: { document_id: number }) => d.document_id)).not.toContain(id);
    }
    // An Agent may not upload for someone else (404), nor link another person's license (400).
    const forOther = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'other', owner_id: otherAgent.user_id },
      { name: 'y.pdf', data: await pdfBytes('y') },
    );
    expect(forOther.status).toBe(404);
    const theirLicense = await seedLicense(otherAgent.user_id);
    const badLink = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'license_copy', license_id: theirLicense.license_id },
      { name: 'z.pdf', data: await pdfBytes('z') },
    );
    expect(badLink.status).toBe(400);
    expect(badLink.body.error).toMatch(/owner’s own licenses/);
  });

  it('a School sees the certificate of a completion of its course, and nothing else', async () => {
    const license = await seedLicense(roles.agent.user_id);
    const mine = await seedCompletion(roles.agent.user_id, roles.school.user_id, license.license_id);
    const otherSchool = await seedUser(env, 'School');
    const theirs = await seedCompletion(roles.agent.user_id, otherSchool.user_id, null);
    const cert = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'ce_certificate', completion_id: mine },
      { name: 'cert.pdf', data: await pdfBytes('Certificate') },
    );
    expect(cert.status).toBe(201);
    expect(cert.body.versions[0].extraction_status).toBe('pending');
    const other = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'ce_certificate', completion_id: theirs },
      { name: 'other.pdf', data: await pdfBytes('Other') },
    );
    const plain = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'other', completion_id: mine },
      { name: 'notes.pdf', data: await pdfBytes('Notes') },
    );
    const list = await api(env, 'GET', '/api/documents', { token: roles.school.token });
    expect(list.status).toBe(200);
    expect(list.body.documents.map((d: { document_id: number }) => d.document_id)).toEqual([cert.body.document_id]);
    expect((await api(env, 'GET', `/api/documents/${cert.body.document_id}`, { token: roles.school.token })).status).toBe(200);
    expect((await download(roles.school.token, `/api/documents/${cert.body.document_id}/download`)).status).toBe(200);
    expect((await api(env, 'GET', `/api/documents/${other.body.document_id}`, { token: roles.school.token })).status).toBe(404);
    expect((await api(env, 'GET', `/api/documents/${plain.body.document_id}`, { token: roles.school.token })).status).toBe(404);
    // Read-only for a School.
    expect((await api(env, 'DELETE', `/api/documents/${cert.body.document_id}`, { token: roles.school.token })).status).toBe(403);
  });
});

describe('edit, delete, export', () => {
  it('update is audited; a soft delete is audited and then answers 404 everywhere', async () => {
    const created = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'other' },
      { name: 'gone.pdf', data: await pdfBytes('gone') },
    );
    const id = created.body.document_id;
    const license = await seedLicense(roles.agent.user_id);
    const upd = await api(env, 'PUT', `/api/documents/${id}`, {
      token: roles.broker.token,
      body: { category: 'license_copy', license_id: license.license_id },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ category: 'license_copy', license_id: license.license_id, license_number: license.license_number });
    const del = await api(env, 'DELETE', `/api/documents/${id}`, { token: roles.agent.token });
    expect(del.status).toBe(200);
    for (const token of [roles.agent.token, roles.admin.token]) {
      expect((await api(env, 'GET', `/api/documents/${id}`, { token })).status).toBe(404);
      expect((await download(token, `/api/documents/${id}/download`)).status).toBe(404);
    }
    const entries = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'documents'), eq(auditLogs.target_id, id)));
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(entries[2]!.user_id).toBe(roles.agent.user_id);
  });

  it('exports the list as CSV with its filters', async () => {
    await upload(roles.agent.token, '/api/documents', { category: 'agreement' }, { name: 'csv-me.pdf', data: await pdfBytes('csv') });
    const res = await env.app.inject({
      method: 'GET',
      url: '/api/documents/export?category=agreement&search=csv-me',
      headers: { authorization: `Bearer ${roles.broker.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = parseCsv(res.body);
    expect(rows[0]).toContain('Title');
    expect(rows.slice(1).map((r) => r[1])).toEqual(['csv-me.pdf']);
    expect(rows[1]).toContain('Agreement');
  });
});

describe('audit pack', () => {
  it('a zip with transcript.csv, transcript.txt, the certificates and a manifest; audited as an export', async () => {
    const license = await seedLicense(roles.agent.user_id);
    const completion = await seedCompletion(roles.agent.user_id, roles.school.user_id, license.license_id);
    const certBytes = await pdfBytes('CE certificate');
    await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'ce_certificate', completion_id: completion },
      { name: 'ethics.pdf', data: certBytes },
    );
    const copyBytes = await pdfBytes('License copy');
    const copy = await upload(
      roles.agent.token,
      '/api/documents',
      { category: 'license_copy', license_id: license.license_id },
      { name: 'copy.pdf', data: copyBytes },
    );
    const res = await download(roles.broker.token, `/api/licenses/${license.license_id}/audit-pack`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(String(res.headers['content-disposition'])).toContain(`audit-pack_${license.license_number}.zip`);
    const entries = await readZip(res.body);
    expect([...entries.keys()].sort()).toEqual(
      [
        'transcript.csv',
        'transcript.txt',
        `certificates/completion-${completion}_ethics.pdf`,
        `certificates/document-${copy.body.document_id}_copy.pdf`,
        'manifest.txt',
      ].sort(),
    );
    expect(entries.get(`certificates/completion-${completion}_ethics.pdf`)!.equals(certBytes)).toBe(true);
    expect(entries.get('transcript.csv')!.toString()).toContain('Completion');
    expect(entries.get('transcript.txt')!.toString()).toContain(`CE transcript of license ${license.license_number}`);
    expect(entries.get('manifest.txt')!.toString()).toContain(`certificates/completion-${completion}_ethics.pdf`);
    const [entry] = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'export'), eq(auditLogs.target_table, 'licenses'), eq(auditLogs.target_id, license.license_id)));
    expect(entry).toBeDefined();
    // Same scope as the transcript: another Agent 404, a School 403.
    const stranger = await seedUser(env, 'Agent', { brokerage_id: await seedBrokerage(env) });
    expect((await download(await tokenFor(env, stranger.user_id), `/api/licenses/${license.license_id}/audit-pack`)).status).toBe(404);
    expect((await download(roles.school.token, `/api/licenses/${license.license_id}/audit-pack`)).status).toBe(403);
  });
});

describe('backups', () => {
  it('a backup with files carries the stored documents; restoring the documents group brings a lost one back', async () => {
    const bytes = await pdfBytes('Keep me safe');
    const created = await upload(roles.agent.token, '/api/documents', { category: 'agreement' }, { name: 'keep.pdf', data: bytes });
    const id = created.body.document_id;
    const backup = await api(env, 'POST', '/api/admin/backups', {
      token: roles.admin.token,
      body: { description: 'docs', include_files: true },
    });
    expect(backup.status).toBe(200);
    const [version] = await env.db.select().from(documentVersions).where(eq(documentVersions.document_id, id));
    const zip = await readZip(fs.readFileSync(path.join(env.config.dataDir, 'backups', `backup_${backup.body.id}.zip`)));
    expect(zip.get(`files/documents/${version!.storage_key}`)!.equals(bytes)).toBe(true);

    // The file and the rows are lost.
    await env.db.files.remove(version!.storage_key);
    await api(env, 'DELETE', `/api/documents/${id}`, { token: roles.agent.token });
    expect((await download(roles.agent.token, `/api/documents/${id}/download`)).status).toBe(404);

    const restored = await api(env, 'POST', `/api/admin/backups/${backup.body.id}/restore`, {
      token: roles.admin.token,
      body: { include_documents: true },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.restored).toEqual(['documents']);
    const again = await download(roles.agent.token, `/api/documents/${id}/download`);
    expect(again.status).toBe(200);
    expect(again.body.equals(bytes)).toBe(true);
  });
});
