/**
 * Certificates read for you, through REST (docs/ocr.md): a certificate uploaded, read in the background and judged
 * against the owner and the catalogue (another person's certificate and an invoice are flagged, a Chromium-printed
 * PDF's words read whole, the completion date chosen over an order date); the completions recorded from it, one or a
 * transcript's several together; who sees the certificate afterwards; readings stored in an older shape read again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import { auditLogs, certificateCompletions, completions, documents, documentVersions, licenses } from '../src/db/schema/index.ts';
import { newStorageKey } from '../src/db/files.ts';
import { extractionsSettled, queueExtraction, readCertificate, stopExtraction } from '../src/modules/documents/extraction/index.ts';
import { api, callerFor, seedUser, tokenFor, useTestEnv, type Roles, type TestEnv, uploadCertificate } from './helpers.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'certificates');
const pdfBytes = fs.readFileSync(path.join(FIXTURES, 'certificate-typed.pdf'));

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(() => {
  ({ env, roles } = t);
});
// The reader's worker thread must end, or vitest would not exit.
afterAll(() => stopExtraction());

async function seedCourse(
  course_name: string,
  provider: string,
  ce_hours: number,
  schoolId: number | null = null,
  approval: { approval_number?: string; approval_state?: string } = {},
) {
  return callerFor(env, schoolId ?? roles.admin.user_id).courses.create({
    course_name,
    description: 'CE',
    provider,
    ce_hours,
    ...approval,
  });
}

async function seedLicense(userId: number, license_number: string, state = 'TX') {
  const [row] = await env.db.transaction((tx) =>
    tx
      .insert(licenses)
      .values({
        user_id: userId,
        license_number,
        state,
        issue_date: '2025-01-01',
        expiration_date: '2027-12-31',
        ce_hours_required: 18,
        status: 'Active',
      })
      .returning(),
  );
  return row!.license_id;
}

/** A document with one version, as the upload would leave it (extraction pending). */
async function seedDocument(ownerId: number, mime: string, extra: { extraction?: string; status?: 'pending' | 'done' } = {}) {
  return env.db.transaction(async (tx) => {
    const [doc] = await tx
      .insert(documents)
      .values({
        owner_id: ownerId,
        category: 'ce_certificate',
        title: mime === 'application/pdf' ? 'certificate.pdf' : 'certificate.png',
        uploaded_by: ownerId,
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
        storage_key: newStorageKey(),
        uploaded_by: ownerId,
        extraction_status: extra.status ?? 'pending',
        extraction: extra.extraction ?? null,
      })
      .returning();
    return { documentId: doc!.document_id, versionId: version!.version_id, storageKey: version!.storage_key };
  });
}

/** Uploads a certificate through POST /api/documents, waits for its reading and answers GET .../extraction's body. */
async function uploadAndRead(token: string, data: Buffer, name = 'certificate.pdf') {
  const documentId = await uploadCertificate(env, token, name, data);
  await extractionsSettled();
  const read = await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token });
  expect(read.status).toBe(200);
  expect(read.body.status).toBe('done');
  return { documentId, extraction: read.body.extraction };
}

/**
 * A one-page certificate drawn with pdf-lib, a line per entry. `ligatures`: each line is drawn as Chromium prints
 * it, in separate text pieces split where a ligature glyph (fi, ff, ffi, fl) stands, each piece placed exactly
 * where the previous ended: a text layer whose items are "Paci" "fi" "c".
 */
async function certificatePdf(lines: string[], opts: { ligatures?: boolean } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font: PDFFont = await pdf.embedFont(StandardFonts.Helvetica);
  const size = 14;
  let y = 720;
  for (const line of lines) {
    if (line) {
      const pieces = opts.ligatures ? line.split(/(ffi|ffl|ff|fi|fl)/).filter(Boolean) : [line];
      let x = 72;
      for (const piece of pieces) {
        page.drawText(piece, { x, y, size, font });
        x += font.widthOfTextAtSize(piece, size);
      }
    }
    y -= 30;
  }
  return Buffer.from(await pdf.save());
}

describe('a certificate read and judged (REST)', () => {
  let jane: { user_id: number; token: string };
  let fairHousing: number;
  beforeAll(async () => {
    const user = await seedUser(env, 'Agent', { first_name: 'Jane', last_name: 'Smith', brokerage_id: roles.brokerageId });
    jane = { user_id: user.user_id, token: await tokenFor(env, user.user_id) };
    await seedLicense(jane.user_id, 'SA-123456');
    fairHousing = (
      await seedCourse('Fair Housing Essentials', 'Realty Academy of Texas', 3, roles.school.user_id, {
        approval_number: 'TREC 0012-345',
        approval_state: 'TX',
      })
    ).course_id;
    await seedCourse('Effective Office Finance', 'Pacific Certification Office', 2);
  });

  it('confirms what a second source agrees with, and prefills the completion', async () => {
    const { extraction } = await uploadAndRead(jane.token, pdfBytes);
    expect(extraction.kind).toBe('certificate');
    expect(extraction.fields.course_name).toMatchObject({ value: 'Fair Housing Essentials', check: 'confirmed' });
    expect(extraction.fields.hours).toMatchObject({ value: 3, check: 'confirmed' });
    expect(extraction.fields.holder_name).toMatchObject({ value: 'Jane Q. Smith', check: 'confirmed' });
    expect(extraction.fields.license_number).toMatchObject({ value: 'SA-123456', check: 'confirmed' });
    expect(extraction.suggestion).toMatchObject({
      course_id: fairHousing,
      course_provider: 'Realty Academy of Texas',
      hours: 3,
      completion_date: '2026-03-03',
      user_id: jane.user_id,
    });
    expect(extraction.warnings).toEqual([]);
  });

  it('flags another person’s certificate in words (must-show 2)', async () => {
    const data = await certificatePdf([
      'Realty Academy of Texas',
      'Certificate of Completion',
      'This certifies that',
      'Maria Gonzalez',
      'has successfully completed the course',
      'Fair Housing Essentials',
      'Credit Hours: 3',
      'Date of Completion: March 3, 2026',
      'License #: SA-555555',
    ]);
    const { extraction } = await uploadAndRead(jane.token, data);
    expect(extraction.fields.holder_name).toMatchObject({ value: 'Maria Gonzalez', check: 'check' });
    expect(extraction.fields.license_number).toMatchObject({ value: 'SA-555555', check: 'check' });
    expect(extraction.warnings).toContainEqual({
      code: 'other_person',
      message: 'The name on the certificate is Maria Gonzalez, not Jane Smith',
    });
    expect(extraction.warnings.map((w: { code: string }) => w.code)).toContain('other_license');
    // Not attached to the uploader's license on a number that is not his.
    expect(extraction.suggestion.license_id).toBeNull();
  });

  it('flags an invoice as not a certificate and prefills no course or hours (must-show 2)', async () => {
    const data = await certificatePdf([
      'Realty Academy of Texas',
      'INVOICE',
      'Invoice #: 10442',
      'Order Date: February 20, 2026',
      'Bill To: Jane Smith',
      'Item: Fair Housing Essentials (3 CE hours)',
      'Amount: $39.00',
      'Total Due: $39.00',
    ]);
    const { extraction } = await uploadAndRead(jane.token, data);
    expect(extraction.kind).toBe('invoice');
    expect(extraction.warnings[0]).toEqual({ code: 'invoice', message: 'This looks like an invoice, not a certificate' });
    expect(extraction.suggestion).toMatchObject({ course_id: null, hours: null, completion_date: null });
    expect(Object.values(extraction.fields).some((f) => (f as { check: string }).check === 'confirmed')).toBe(false);
  });

  it('reads a Chromium-printed PDF’s words whole, ligatures and all (must-show 3)', async () => {
    const data = await certificatePdf(
      [
        'Certificate of Completion',
        'This certifies that',
        'Jane Smith',
        'has successfully completed the course',
        'Effective Office Finance',
        'Provider: Pacific Certification Office',
        'Credit Hours: 2',
        'Date of Completion: March 9, 2026',
      ],
      { ligatures: true },
    );
    const { extraction } = await uploadAndRead(jane.token, data);
    expect(extraction.text).toContain('This certifies that');
    expect(extraction.text).toContain('Pacific Certification Office');
    // No word split at a ligature ("Paci fi c", "O ffi ce").
    expect(extraction.text).not.toMatch(/\s(ffi|ffl|ff|fi|fl)\s/);
    expect(extraction.fields.course_name.value).toBe('Effective Office Finance');
    expect(extraction.fields.provider.value).toBe('Pacific Certification Office');
    expect(extraction.suggestion.course_name).toBe('Effective Office Finance');
    // The PDF really splits these words: its text items are "This certi" "fi" "es that", as a Chromium print's are.
    const pdf = await getDocumentProxy(new Uint8Array(data));
    const items = (await (await pdf.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : ''));
    expect(items).toEqual(expect.arrayContaining(['This certi', 'fi', 'es that', 'cation O', 'ffi', 'ce']));
  });

  it('prefills the completion date, not an order date printed above it (must-show 3)', async () => {
    const data = await certificatePdf([
      'Realty Academy of Texas',
      'Order Date: January 5, 2026',
      'Certificate of Completion',
      'This certifies that',
      'Jane Smith',
      'has successfully completed the course',
      'Fair Housing Essentials',
      'Credit Hours: 3',
      'Date of Completion: February 14, 2026',
    ]);
    const { extraction } = await uploadAndRead(jane.token, data);
    expect(extraction.fields.completion_date).toMatchObject({ value: '2026-02-14', check: 'confirmed' });
    expect(extraction.suggestion.completion_date).toBe('2026-02-14');
  });
});

describe('PDFs printed by Chromium (the committed fixtures, REST)', () => {
  const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
  async function holder(first_name: string, last_name: string, license_number: string) {
    const user = await seedUser(env, 'Agent', { first_name, last_name, brokerage_id: roles.brokerageId });
    await seedLicense(user.user_id, license_number);
    return tokenFor(env, user.user_id);
  }

  it('reads a Chromium print with ligatures whole and confirms it against the catalogue (must-show 3)', async () => {
    const token = await holder('Clifford', 'Huffman', 'SA-660142');
    const course = await seedCourse('Ethics in Financing and Offers', 'Pacific Realty Institute', 3, roles.school.user_id, {
      approval_number: 'CE-4471',
      approval_state: 'TX',
    });
    const { extraction } = await uploadAndRead(token, fixture('chromium-ligatures.pdf'));
    for (const words of [
      'Pacific Realty Institute',
      'Office of Continuing Education',
      'This certifies that',
      'Clifford Huffman',
      'affidavit of fulfillment',
    ]) {
      expect(extraction.text).toContain(words);
    }
    expect(extraction.text).not.toMatch(/\s(ffi|ffl|ff|fi|fl)\s/);
    expect(extraction.fields.course_name).toMatchObject({ value: 'Ethics in Financing and Offers', check: 'confirmed' });
    expect(extraction.fields.holder_name).toMatchObject({ value: 'Clifford Huffman', check: 'confirmed' });
    // The completion date, not the later "Given this 16th day of October".
    expect(extraction.fields.completion_date).toMatchObject({ value: '2026-10-14', check: 'confirmed' });
    expect(extraction.suggestion).toMatchObject({ course_id: course.course_id, hours: 3, completion_date: '2026-10-14' });
    expect(extraction.warnings).toEqual([]);
  });

  it('prefills the completion date of a page with an order date and a print date (must-show 3)', async () => {
    const token = await holder('Maria', 'Gonzalez', '0654321');
    const course = await seedCourse('Legal Update I: Fiduciary Duties', 'Lone Star Real Estate School', 4, roles.school.user_id, {
      approval_number: '44120',
      approval_state: 'TX',
    });
    const { extraction } = await uploadAndRead(token, fixture('order-date.pdf'));
    expect(extraction.fields.completion_date).toMatchObject({ value: '2026-09-18', check: 'confirmed' });
    expect(extraction.suggestion).toMatchObject({ course_id: course.course_id, completion_date: '2026-09-18', hours: 4 });
    expect(extraction.fields.holder_name.check).toBe('confirmed');
  });
});

describe('course approval numbers (REST)', () => {
  it('a course carries its approval number and state, checked and normalised', async () => {
    const body = { course_name: 'Mold Awareness', description: 'CE', provider: 'Gulf School', ce_hours: 2 };
    const created = await api(env, 'POST', '/api/courses', {
      token: roles.admin.token,
      body: { ...body, approval_number: ' CE-4471 ', approval_state: 'tx' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ approval_number: 'CE-4471', approval_state: 'TX' });
    const id = created.body.course_id as number;
    const cleared = await api(env, 'PUT', `/api/courses/${id}`, {
      token: roles.admin.token,
      body: { approval_number: '', approval_state: null },
    });
    expect(cleared.body).toMatchObject({ approval_number: null, approval_state: null });
    const bad = await api(env, 'PUT', `/api/courses/${id}`, { token: roles.admin.token, body: { approval_state: 'Texas' } });
    expect(bad.status).toBe(400);
    const plain = await api(env, 'POST', '/api/courses', { token: roles.admin.token, body });
    expect(plain.body).toMatchObject({ approval_number: null, approval_state: null });
  });
});

describe('readings and the REST paths', () => {
  let course: { course_id: number };
  let licenseId: number;
  beforeAll(async () => {
    course = await seedCourse('Fair Housing Essentials 2', 'Realty Academy of Texas', 3, roles.school.user_id);
    // The fixture's number, in another state than Jane's license of the same number.
    licenseId = await seedLicense(roles.agent.user_id, 'SA-123456', 'CA');
  });

  it('reads the committed fixture from its text layer', async () => {
    const r = await readCertificate(pdfBytes, 'application/pdf');
    expect(r.source).toBe('text_layer');
    expect(r.fields.course_name.value).toBe('Fair Housing Essentials');
    expect(r.fields.hours.value).toBe(3);
    expect(r.fields.completion_date.value).toBe('2026-03-03');
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
    expect(res.body.extraction.fields.hours).toMatchObject({ value: 3 });
    expect(res.body.extraction.suggestion).toMatchObject({ license_id: licenseId, completion_date: '2026-03-03', hours: 3 });

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

  it('reads again, once, a reading stored in an older shape', async () => {
    const old = JSON.stringify({ source: 'text_layer', text_confidence: 1, fields: {}, suggestion: {}, text: '', duration_ms: 1 });
    const { documentId, versionId, storageKey } = await seedDocument(roles.agent.user_id, 'application/pdf', {
      status: 'done',
      extraction: old,
    });
    await env.db.files.put(storageKey, Readable.from([pdfBytes]), { maxBytes: 1_000_000 });
    const first = await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.agent.token });
    expect(first.body).toMatchObject({ status: 'pending', extraction: null });
    await extractionsSettled();
    const again = await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: roles.agent.token });
    expect(again.body.status).toBe('done');
    expect(again.body.extraction.kind).toBe('certificate');
    const [row] = await env.db.select().from(documentVersions).where(eq(documentVersions.version_id, versionId));
    expect(JSON.parse(row!.extraction!).warnings).toBeDefined();
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
    expect(await env.db.select().from(certificateCompletions).where(eq(certificateCompletions.document_id, documentId))).toEqual([
      { document_id: documentId, completion_id: res.body.completion_id },
    ]);
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

describe('a transcript’s completions recorded together', () => {
  let schoolB: { user_id: number; token: string };
  let ofSchoolA: number;
  let ofSchoolB: number;
  let licenseId: number;
  let agent: { user_id: number; token: string };
  beforeAll(async () => {
    const b = await seedUser(env, 'School');
    schoolB = { user_id: b.user_id, token: await tokenFor(env, b.user_id) };
    ofSchoolA = (await seedCourse('Agency Law Today', 'School A', 3, roles.school.user_id)).course_id;
    ofSchoolB = (await seedCourse('Mold and Moisture', 'School B', 2, schoolB.user_id)).course_id;
    const a = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    agent = { user_id: a.user_id, token: await tokenFor(env, a.user_id) };
    licenseId = await seedLicense(agent.user_id, `TR-${Date.now()}`);
  });

  const completionsOf = async (userId: number) => env.db.select().from(completions).where(eq(completions.user_id, userId));

  it('refuses the whole transcript when one entry is refused, naming it; nothing is written', async () => {
    const { documentId } = await seedDocument(agent.user_id, 'application/pdf');
    const res = await api(env, 'POST', `/api/documents/${documentId}/completions`, {
      token: agent.token,
      body: {
        entries: [
          { course_id: ofSchoolA, license_id: licenseId, hours: 3, completion_date: '2026-02-01' },
          { course_id: ofSchoolB, license_id: licenseId, hours: 5, completion_date: '2026-02-02' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Entry 2: .*Nothing was recorded$/);
    expect(await completionsOf(agent.user_id)).toEqual([]);
    expect(await env.db.select().from(certificateCompletions).where(eq(certificateCompletions.document_id, documentId))).toEqual([]);
    const empty = await api(env, 'POST', `/api/documents/${documentId}/completions`, { token: agent.token, body: { entries: [] } });
    expect(empty.status).toBe(400);
  });

  it('records every entry as a Pending completion, links each, and each course’s School sees the transcript', async () => {
    const { documentId } = await seedDocument(agent.user_id, 'application/pdf');
    const entries = [
      { course_id: ofSchoolA, license_id: licenseId, hours: 3, completion_date: '2026-02-01' },
      { course_id: ofSchoolB, license_id: licenseId, hours: 2, completion_date: '2026-02-02' },
    ];
    // A School records nothing here (403); another Agent finds no such document (404).
    expect((await api(env, 'POST', `/api/documents/${documentId}/completions`, { token: schoolB.token, body: { entries } })).status).toBe(
      403,
    );
    expect(
      (await api(env, 'POST', `/api/documents/${documentId}/completions`, { token: roles.agent.token, body: { entries } })).status,
    ).toBe(404);

    const res = await api(env, 'POST', `/api/documents/${documentId}/completions`, { token: roles.broker.token, body: { entries } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body.map((c: { course_id: number; status: string; user_id: number }) => [c.course_id, c.status, c.user_id])).toEqual([
      [ofSchoolA, 'Pending', agent.user_id],
      [ofSchoolB, 'Pending', agent.user_id],
    ]);
    const ids = res.body.map((c: { completion_id: number }) => c.completion_id) as number[];
    const links = await env.db.select().from(certificateCompletions).where(eq(certificateCompletions.document_id, documentId));
    expect(links.map((l) => l.completion_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const [doc] = await env.db.select().from(documents).where(eq(documents.document_id, documentId));
    expect(doc).toMatchObject({ completion_id: ids[0], license_id: licenseId });
    const created = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'completions'), inArray(auditLogs.target_id, ids)));
    expect(created.map((l) => l.action)).toEqual(['create', 'create']);
    const linked = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'documents'), eq(auditLogs.target_id, documentId)));
    expect(linked.map((l) => l.action)).toEqual(['update_link_completion']);

    // School B's course is the second entry: it finds the transcript through the link, beside its completion.
    const certs = await api(env, 'GET', `/api/completions/${ids[1]}/certificates`, { token: schoolB.token });
    expect(certs.status).toBe(200);
    expect(certs.body.map((c: { document_id: number }) => c.document_id)).toEqual([documentId]);
    expect((await api(env, 'GET', `/api/documents/${documentId}/extraction`, { token: schoolB.token })).status).toBe(200);
    expect((await api(env, 'GET', `/api/documents/${documentId}`, { token: schoolB.token })).status).toBe(200);
    // School A through the first completion (documents.completion_id) too; a School with neither course does not.
    expect((await api(env, 'GET', `/api/completions/${ids[0]}/certificates`, { token: roles.school.token })).body).toHaveLength(1);
    const schoolC = await seedUser(env, 'School');
    expect((await api(env, 'GET', `/api/documents/${documentId}`, { token: await tokenFor(env, schoolC.user_id) })).status).toBe(404);

    // Once recorded, the transcript is linked: recording again, one or all, answers 409.
    expect((await api(env, 'POST', `/api/documents/${documentId}/completions`, { token: agent.token, body: { entries } })).status).toBe(
      409,
    );
    expect((await api(env, 'POST', `/api/documents/${documentId}/completion`, { token: agent.token, body: entries[0] })).status).toBe(409);
  });

  it('applies the completion rules across entries (the same course twice on one date is a duplicate)', async () => {
    const { documentId } = await seedDocument(agent.user_id, 'application/pdf');
    const entry = { course_id: ofSchoolA, hours: 1, completion_date: '2026-03-05' };
    const res = await api(env, 'POST', `/api/documents/${documentId}/completions`, {
      token: agent.token,
      body: { entries: [entry, entry] },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^Entry 2: /);
    expect((await completionsOf(agent.user_id)).filter((c) => c.completion_date === '2026-03-05')).toEqual([]);
  });
});
