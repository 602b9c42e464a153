/**
 * Certificates read for you (docs/ocr.md): reading the committed fixtures (a typed PDF and a scanned PNG),
 * matching against the catalogue and the owner's licenses, the background queue writing the version's row, and
 * the REST paths with their scopes. Documents are inserted directly, so these tests do not depend on the upload
 * route.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { CertificateFields } from '@lm/shared';
import { auditLogs, completions, documents, documentVersions, licenses } from '../src/db/schema/index.ts';
import {
  extractionsSettled,
  matchCertificate,
  parseCertificate,
  parseDate,
  queueExtraction,
  readCertificate,
  stopExtraction,
} from '../src/modules/documents/extraction/index.ts';
import { api, callerFor, seedUser, tokenFor, useTestEnv, type Roles, type TestEnv } from './helpers.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'certificates');
const pdfBytes = fs.readFileSync(path.join(FIXTURES, 'certificate-typed.pdf'));
const pngBytes = fs.readFileSync(path.join(FIXTURES, 'certificate-scan.png'));

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(() => {
  ({ env, roles } = t);
});
// The OCR worker thread must end, or vitest would not exit.
afterAll(() => stopExtraction());

async function seedCourse(course_name: string, provider: string, ce_hours: number, schoolId: number | null = null) {
  return callerFor(env, schoolId ?? roles.admin.user_id).courses.create({ course_name, description: 'CE', provider, ce_hours });
}

async function seedLicense(userId: number, license_number: string, status: 'Active' | 'Expired' = 'Active') {
  const [row] = await env.db.transaction((tx) =>
    tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number,
        state: 'TX',
        issue_date: '2025-01-01',
        expiration_date: '2027-12-31',
        ce_hours_required: 18,
        status,
      })
      .returning(),
  );
  return row!.license_id;
}

let keySeq = 0;
/** A document with one version, as the upload would leave it (extraction pending). */
async function seedDocument(ownerId: number, mime: string, extra: { completion_id?: number | null } = {}) {
  return env.db.transaction(async (tx) => {
    const [doc] = await tx
      .insert(documents)
      .values({
        owner_id: ownerId,
        category: 'ce_certificate',
        title: mime === 'application/pdf' ? 'certificate.pdf' : 'certificate.png',
        uploaded_by: ownerId,
        completion_id: extra.completion_id ?? null,
      })
      .returning();
    const [version] = await tx
      .insert(documentVersions)
      .values({
        document_id: doc!.document_id,
        version: 1,
        file_name: doc!.title,
        mime_type: mime,
        size: 1,
        sha256: 'x',
        storage_key: `test-${++keySeq}-${Date.now()}`,
        uploaded_by: ownerId,
        extraction_status: 'pending',
      })
      .returning();
    return { documentId: doc!.document_id, versionId: version!.version_id };
  });
}

describe('reading certificates', () => {
  it('reads a typed PDF from its text layer', async () => {
    const r = await readCertificate(pdfBytes, 'application/pdf');
    expect(r.source).toBe('text_layer');
    expect(r.text_confidence).toBe(1);
    expect(r.fields.course_name.value).toBe('Fair Housing Essentials');
    expect(r.fields.provider.value).toBe('Realty Academy of Texas');
    expect(r.fields.hours.value).toBe(3);
    expect(r.fields.completion_date.value).toBe('2026-03-03');
    expect(r.fields.holder_name.value).toBe('Jane Q. Smith');
    expect(r.fields.license_number.value).toBe('SA-123456');
    expect(r.fields.hours.confidence).toBeGreaterThan(0.9);
  });

  it('reads a scanned PNG by OCR', async () => {
    const r = await readCertificate(pngBytes, 'image/png');
    expect(r.source).toBe('ocr');
    expect(r.text_confidence).toBeGreaterThan(0.6);
    expect(r.fields.course_name.value).toBe('Contract Law Update 2026');
    expect(r.fields.hours.value).toBe(4);
    expect(r.fields.completion_date.value).toBe('2026-02-14');
    expect(r.fields.license_number.value).toBe('TX-778812');
    for (const f of Object.values(r.fields)) expect(f.confidence).toBeLessThanOrEqual(1);
  }, 20_000);

  it('reads a photo turned a quarter', async () => {
    const sharp = (await import('sharp')).default;
    const turned = await sharp(pngBytes).rotate(90).png().toBuffer();
    const r = await readCertificate(turned, 'image/png');
    expect(r.fields.hours.value).toBe(4);
    expect(r.fields.completion_date.value).toBe('2026-02-14');
  }, 30_000);

  it('refuses a PDF without text or image, and other types', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const blank = await PDFDocument.create();
    blank.addPage();
    await expect(readCertificate(Buffer.from(await blank.save()), 'application/pdf')).rejects.toThrow(/no text layer/);
    await expect(readCertificate(Buffer.from('hello'), 'text/plain')).rejects.toThrow(/PDF, PNG and JPEG/);
  });

  it('normalises date formats to YYYY-MM-DD', () => {
    expect(parseDate('March 3, 2026')).toBe('2026-03-03');
    expect(parseDate('03/03/2026')).toBe('2026-03-03');
    expect(parseDate('2026-03-03')).toBe('2026-03-03');
    expect(parseDate('3 Mar 2026')).toBe('2026-03-03');
    expect(parseDate('3rd of March, 2026')).toBe('2026-03-03');
    expect(parseDate('Sept. 14th 2025')).toBe('2025-09-14');
    expect(parseDate('31/12/2025')).toBe('2025-12-31');
    expect(parseDate('2026-02-30')).toBeNull();
  });

  it('prefers labelled values and gives guesses a lower confidence', () => {
    const f = parseCertificate([
      { text: 'Valid until 12/31/2027', confidence: 1 },
      { text: 'Date of Completion: 01/15/2026', confidence: 0.9 },
      { text: 'Total: 2.5 hours', confidence: 1 },
    ]);
    expect(f.completion_date).toEqual({ value: '2026-01-15', confidence: 0.9 });
    expect(f.hours.value).toBe(2.5);
    expect(f.course_name).toEqual({ value: null, confidence: 0 });
  });
});

function fieldsOf(values: Partial<Record<keyof CertificateFields, string | number | null>>): CertificateFields {
  const f = (v: string | number | null | undefined) => ({ value: v ?? null, confidence: v == null ? 0 : 0.9 });
  return {
    course_name: f(values.course_name) as CertificateFields['course_name'],
    provider: f(values.provider) as CertificateFields['provider'],
    hours: f(values.hours) as CertificateFields['hours'],
    completion_date: f(values.completion_date) as CertificateFields['completion_date'],
    holder_name: f(values.holder_name) as CertificateFields['holder_name'],
    license_number: f(values.license_number) as CertificateFields['license_number'],
  };
}

describe('matching', () => {
  let fairHousing: number;
  let contractLaw: number;
  beforeAll(async () => {
    fairHousing = (await seedCourse('Fair Housing Essentials', 'Realty Academy of Texas', 3)).course_id;
    contractLaw = (await seedCourse('Contract Law Update 2026', 'Lone Star Real Estate School', 4)).course_id;
    await seedCourse('Fair Housing Advanced', 'Another School', 6);
    await seedCourse('Ethics in Real Estate Practice', 'National Realty Institute', 3);
  });

  it('links the course by name (despite OCR slips), the license by number, else the only active one', async () => {
    const agent = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const first = await seedLicense(agent.user_id, `SA-${Date.now()}`);
    const second = await seedLicense(agent.user_id, `SB-${Date.now()}`, 'Expired');
    const [n] = await env.db.select({ n: licenses.license_number }).from(licenses).where(eq(licenses.license_id, second));

    const exact = await matchCertificate(env.db, fieldsOf({ course_name: 'Fair Housing Essentials', license_number: n!.n }), agent.user_id);
    expect(exact).toMatchObject({ course_id: fairHousing, license_id: second, user_id: agent.user_id });
    expect(exact.course_match).toBeGreaterThan(0.9);

    const slipped = await matchCertificate(env.db, fieldsOf({ course_name: 'Contract Lavv Updale 2026', hours: 9 }), agent.user_id);
    expect(slipped).toMatchObject({ course_id: contractLaw, license_id: first, hours: 4 });

    const none = await matchCertificate(env.db, fieldsOf({ course_name: 'Underwater Basket Weaving' }), roles.admin.user_id);
    expect(none).toMatchObject({ course_id: null, license_id: null });
  });

  it('reads the fixtures into the right course', async () => {
    const pdf = await readCertificate(pdfBytes, 'application/pdf');
    expect((await matchCertificate(env.db, pdf.fields, roles.agent.user_id)).course_id).toBe(fairHousing);
  });
});

describe('the background queue and the REST paths', () => {
  let course: { course_id: number };
  let licenseId: number;
  beforeAll(async () => {
    course = await seedCourse('Fair Housing Essentials 2', 'Realty Academy of Texas', 3, roles.school.user_id);
    licenseId = await seedLicense(roles.agent.user_id, 'SA-123456');
  });

  it('writes the reading to the version and serves it to those who may see the document', async () => {
    const { documentId, versionId } = await seedDocument(roles.agent.user_id, 'application/pdf');
    const pending = await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.agent.token });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: 'pending', extraction: null });

    queueExtraction(env.db, versionId, async () => pdfBytes);
    await extractionsSettled();
    const res = await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.agent.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('done');
    expect(res.body.extraction.fields.hours.value).toBe(3);
    expect(res.body.extraction.suggestion).toMatchObject({ license_id: licenseId, completion_date: '2026-03-03', hours: 3 });
    expect(res.body.extraction.suggestion.course_id).not.toBeNull();

    expect((await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.broker.token })).status).toBe(200);
    expect((await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.admin.token })).status).toBe(200);
    // Another Agent, a School with no linked completion, a missing document: 404.
    const other = await seedUser(env, 'Agent');
    expect((await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: await tokenFor(env, other.user_id) })).status).toBe(
      404,
    );
    expect((await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.school.token })).status).toBe(404);
    expect((await api(env, 'GET', `/api/documents/999999/extraction`, { token: roles.admin.token })).status).toBe(404);
  });

  it('marks a failed reading with its message', async () => {
    const { documentId, versionId } = await seedDocument(roles.agent.user_id, 'application/pdf');
    queueExtraction(env.db, versionId, async () => Buffer.from('%PDF-1.4 not really'));
    await extractionsSettled();
    const res = await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.agent.token });
    expect(res.body).toMatchObject({ status: 'failed', extraction: null });
    expect(res.body.error).toMatch(/could not be read|no text layer/);
  });

  it('stopping drops the readings not started (they stay pending) and later ones run', async () => {
    const dropped = await seedDocument(roles.agent.user_id, 'application/pdf');
    queueExtraction(env.db, dropped.versionId, async () => pdfBytes);
    await stopExtraction();
    const later = await seedDocument(roles.agent.user_id, 'application/pdf');
    queueExtraction(env.db, later.versionId, async () => pdfBytes);
    await extractionsSettled();
    const status = async (versionId: number) =>
      (await env.db.select().from(documentVersions).where(eq(documentVersions.version_id, versionId)))[0]!.extraction_status;
    expect(await status(dropped.versionId)).toBe('pending');
    expect(await status(later.versionId)).toBe('done');
  });

  it('records a Pending completion from the confirmed values and links the certificate, once', async () => {
    const { documentId } = await seedDocument(roles.agent.user_id, 'application/pdf');
    const body = { course_id: course.course_id, license_id: licenseId, hours: 3, completion_date: '2026-03-03' };
    const other = await seedUser(env, 'Agent');
    const otherToken = await tokenFor(env, other.user_id);
    expect((await api(env, 'POST', `/api/documents/${documentId}/completion`, { token: otherToken, body })).status).toBe(404);
    expect((await api(env, 'POST', `/api/documents/${documentId}/completion`, { token: roles.school.token, body })).status).toBe(403);
    // The completion rules apply (hours over the course's): 400, nothing changed.
    const tooMany = await api(env, 'POST', `/api/documents/${documentId}/completion`, {
      token: roles.agent.token,
      body: { ...body, hours: 9 },
    });
    expect(tooMany.status).toBe(400);

    const res = await api(env, 'POST', `/api/documents/${documentId}/completion`, { token: roles.agent.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: roles.agent.user_id, course_id: course.course_id, status: 'Pending', hours: 3 });
    const [doc] = await env.db.select().from(documents).where(eq(documents.document_id, documentId));
    expect(doc).toMatchObject({ completion_id: res.body.completion_id, license_id: licenseId });
    const logged = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'documents'), eq(auditLogs.target_id, documentId)));
    expect(logged.map((l) => l.action)).toEqual(['update_link_completion']);

    expect((await api(env, 'POST', `/api/documents/${documentId}/completion`, { token: roles.agent.token, body })).status).toBe(409);

    // The reviewer (the course's School) now sees the certificate beside the completion, and may read its extraction.
    const certs = await api(env, 'GET', `/api/completions/${res.body.completion_id}/certificates`, { token: roles.school.token });
    expect(certs.status).toBe(200);
    expect(certs.body).toEqual([
      {
        document_id: documentId,
        title: 'certificate.pdf',
        category: 'ce_certificate',
        current_version: 1,
        mime_type: 'application/pdf',
        file_name: 'certificate.pdf',
      },
    ]);
    expect((await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.school.token })).status).toBe(200);
    expect((await api(env, 'GET', `/api/completions/${res.body.completion_id}/certificates`, { token: otherToken })).status).toBe(404);
    const [stored] = await env.db.select().from(completions).where(eq(completions.completion_id, res.body.completion_id));
    expect(stored!.status).toBe('Pending');
  });

  it('lets a Broker record for its brokerage’s Agent, and answers an empty list when nothing is linked', async () => {
    const { documentId } = await seedDocument(roles.agent.user_id, 'image/png');
    const res = await api(env, 'POST', `/api/documents/${documentId}/completion`, {
      token: roles.broker.token,
      body: { course_id: course.course_id, hours: 2, completion_date: '2026-01-10' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(roles.agent.user_id);
    const [doc] = await env.db.select().from(documents).where(eq(documents.document_id, documentId));
    expect(doc!.license_id).toBeNull();

    const plain = await callerFor(env, roles.agent.user_id).completions.create({
      course_id: course.course_id,
      completion_date: '2025-12-01',
      hours: 1,
    });
    expect(await callerFor(env, roles.agent.user_id).certificates.forCompletion({ id: plain.completion_id })).toEqual([]);
  });
});
