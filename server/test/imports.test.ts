/**
 * Imports over REST (issue #28, docs/decisions.md "Imports"): a messy 200-row roster previews 195 to create and 5
 * errors naming row, column and reason and writes nothing; the commit writes the 195 (people, the brokerage,
 * licenses with their state's hours) with one audit entry; the same file again creates nothing; an XLSX with a
 * formula and a date cell imports the same way and undo removes it, refusing after a later edit; bad files answer
 * 400/413; a School's completions credit CE exactly as a single completion; a Broker stays in its brokerage; an
 * Agent gets 403.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import {
  auditLogs,
  brokerages,
  completions,
  deletions,
  licenses,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from '../src/db/schema/index.ts';
import { refreshCeCache } from '../src/modules/licenses/ce-ledger.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { outboxEmails } from './outbox.ts';
import { api, callerFor, parseCsv, seedUser, useTestEnv, type Roles, type TestEnv, multipartBody } from './helpers.ts';
import { BAD_ROWS, completionsCsv, ROSTER_HEADERS, rosterCells, rosterCsv, rosterRows } from './imports-fixtures.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;

beforeAll(async () => {
  ({ env, roles } = t);
  const admin = callerFor(env, roles.admin.user_id);
  await admin.ceRules.create({ state: 'TX', license_type: 'Sales', hours_required: 30, cycle_years: 2 });
  await admin.ceRules.create({ state: 'TX', license_type: 'Broker', hours_required: 45, cycle_years: 2 });
});

async function upload(token: string, kind: string, name: string, data: Buffer, extra: Record<string, string> = {}) {
  const { payload, headers } = multipartBody({ kind, ...extra }, { name, data });
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/imports',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

const count = async (table: typeof users | typeof licenses | typeof brokerages | typeof completions) =>
  (await env.db.select({ n: sql<number>`count(*)` }).from(table))[0]!.n;
const world = async () => ({
  users: Number(await count(users)),
  licenses: Number(await count(licenses)),
  brokerages: Number(await count(brokerages)),
  completions: Number(await count(completions)),
});

describe('roster CSV', () => {
  // The fixture of test-data/imports/, written by imports-fixtures.ts from the same builder.
  const rows = rosterRows('demo');
  const file = fs.readFileSync(path.join(import.meta.dirname, '../../test-data/imports/roster-200-messy.csv'));
  let importId: number;

  it('the fixture file is the builder’s (regenerate: npx tsx server/test/imports-fixtures.ts)', () => {
    expect(file.equals(rosterCsv(rows))).toBe(true);
  });

  it('previews 195 to create and 5 errors with row, column and reason, writing nothing', async () => {
    const before = await world();
    const res = await upload(roles.admin.token, 'roster', 'office roster.csv', file);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    importId = res.body.import_id;
    expect(res.body.counts).toEqual({ create: 195, update: 0, unchanged: 0, error: 5 });
    expect(res.body.columns.map((c: { name: string }) => c.name)).toEqual(ROSTER_HEADERS);
    expect(res.body.mapping).toMatchObject({
      'Given name': 'first_name',
      Surname: 'last_name',
      'E-mail': 'email',
      Mobile: 'phone_number',
      'Office Name': 'brokerage',
      'Lic No': 'license_number',
      St: 'state',
      Type: 'license_type',
      Issued: 'issue_date',
      'Exp. Date': 'expiration_date',
      Status: 'status',
      'CE Hours': 'ce_hours_required',
    });
    const errors = await api(env, 'GET', `/api/imports/${importId}?filter=error&page_size=50`, { token: roles.admin.token });
    expect(errors.status).toBe(200);
    expect(errors.body.total_rows).toBe(5);
    for (const r of errors.body.rows) {
      const want = BAD_ROWS[r.row]!;
      expect(want, `row ${r.row}`).toBeDefined();
      expect(r.errors[0].column).toBe(want.column);
      expect(r.errors[0].message).toMatch(want.reason);
    }
    expect(await world()).toEqual(before);
  });

  it('the mapping can change and the preview is recomputed', async () => {
    const res = await api(env, 'GET', `/api/imports/${importId}`, { token: roles.admin.token });
    const mapping = { ...res.body.mapping, Mobile: null, 'Lic No': null };
    const changed = await api(env, 'PUT', `/api/imports/${importId}`, { token: roles.admin.token, body: { mapping } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.mapping.Mobile).toBeNull();
    expect(changed.body.counts.error).toBeGreaterThan(5);
    const bad = await api(env, 'PUT', `/api/imports/${importId}`, {
      token: roles.admin.token,
      body: { mapping: { ...mapping, St: 'nope' } },
    });
    expect(bad.status).toBe(400);
    const back = await api(env, 'PUT', `/api/imports/${importId}`, { token: roles.admin.token, body: { mapping: res.body.mapping } });
    expect(back.body.counts).toEqual({ create: 195, update: 0, unchanged: 0, error: 5 });
  });

  it('commit writes the 195: people, the brokerage, licenses with their state rule’s hours; one audit entry', async () => {
    const before = await world();
    const res = await api(env, 'POST', `/api/imports/${importId}/commit`, { token: roles.admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'committed', written: 195, counts: { create: 195, error: 5 } });
    const after = await world();
    expect(after.users - before.users).toBe(195);
    expect(after.licenses - before.licenses).toBe(195);
    expect(after.brokerages - before.brokerages).toBe(1);
    const [b] = await env.db.select().from(brokerages).where(eq(brokerages.name, rows[0]!.brokerage));
    expect(b).toBeDefined();
    const person = (
      await env.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${rows[1]!.email.toLowerCase()}`)
    )[0]!;
    expect(person).toMatchObject({ first_name: rows[1]!.first, last_name: rows[1]!.last, brokerage_id: b!.brokerage_id, role_id: 3 });
    const held = await env.db.select().from(licenses).where(eq(licenses.user_id, person.user_id));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ license_number: rows[1]!.number, state: 'TX', license_type: 'Sales', ce_hours_required: 30 });
    expect(held[0]!.issue_date).toBe('2024-02-02');
    const broker = (await env.db.select().from(licenses).where(eq(licenses.license_number, rows[5]!.number)))[0]!;
    expect(broker).toMatchObject({ license_type: 'Broker', ce_hours_required: 45 });
    const entries = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'import_committed'), eq(auditLogs.target_id, importId)));
    expect(entries).toHaveLength(1);
    const again = await api(env, 'POST', `/api/imports/${importId}/commit`, { token: roles.admin.token });
    expect(again.status).toBe(409);
  });

  it('the same file imported again creates nothing: 195 unchanged', async () => {
    const res = await upload(roles.admin.token, 'roster', 'office roster.csv', file);
    expect(res.status).toBe(201);
    expect(res.body.counts).toEqual({ create: 0, update: 0, unchanged: 195, error: 5 });
    const before = await world();
    const commit = await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.admin.token });
    expect(commit.body.written).toBe(0);
    expect(await world()).toEqual(before);
  });

  it('a changed cell is an update, and undo restores it', async () => {
    const edited = rosterRows('demo');
    edited[3]!.expires = '2028-01-31';
    edited[4]!.phone = '(555) 999-0000';
    const res = await upload(roles.admin.token, 'roster', 'roster v2.csv', rosterCsv(edited, ','));
    expect(res.body.counts).toEqual({ create: 0, update: 2, unchanged: 193, error: 5 });
    const commit = await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.admin.token });
    expect(commit.body.counts.update).toBe(2);
    const lic = (await env.db.select().from(licenses).where(eq(licenses.license_number, edited[3]!.number)))[0]!;
    expect(lic.expiration_date).toBe('2028-01-31');
    const undo = await api(env, 'POST', `/api/imports/${res.body.import_id}/undo`, { token: roles.admin.token });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(undo.body.restored).toBe(2);
    const back = (await env.db.select().from(licenses).where(eq(licenses.license_number, edited[3]!.number)))[0]!;
    expect(back.expiration_date).toBe(lic.issue_date.replace('2024', '2027'));
  });

  it('errors.csv gives the rejected rows with their columns and a reason', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: `/api/imports/${importId}/errors.csv`,
      headers: { authorization: `Bearer ${roles.admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    const parsed = parseCsv(res.body);
    expect(parsed[0]).toEqual(['Row', ...ROSTER_HEADERS, 'Reason']);
    expect(parsed.slice(1).map((r) => Number(r[0]))).toEqual(Object.keys(BAD_ROWS).map(Number));
    expect(parsed[1]![parsed[0]!.length - 1]).toMatch(/^E-mail: /);
  });

  it('lists past imports with who, when, file and counts', async () => {
    const res = await api(env, 'GET', '/api/imports?kind=roster', { token: roles.admin.token });
    expect(res.status).toBe(200);
    const item = res.body.imports.find((i: { import_id: number }) => i.import_id === importId);
    expect(item).toMatchObject({ file_name: 'office roster.csv', status: 'committed', created_by: roles.admin.user_id });
    expect(item.counts.create).toBe(195);
  });

  it('the template lists the kind’s columns', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/api/imports/template/roster.csv',
      headers: { authorization: `Bearer ${roles.admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(parseCsv(res.body)[0]).toContain('License Number');
  });
});

async function xlsxOf(rows: string[][], extra?: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Notes').addRow(['not this one']);
  const ws = wb.addWorksheet('Roster');
  ws.addRow(ROSTER_HEADERS);
  for (const r of rows) ws.addRow(r);
  extra?.(ws);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('roster XLSX and undo', () => {
  it('imports the same way (formula and date cells read as values), and undo removes what it created', async () => {
    const rows = rosterCells(rosterRows('xlsx', 20, { bad: false }));
    const data = await xlsxOf(rows, (ws) => {
      ws.getCell('L2').value = { formula: '20+4', result: 24 } as ExcelJS.CellFormulaValue;
      ws.getCell('J2').value = new Date(Date.UTC(2027, 4, 31));
      ws.getCell('I3').value = 45658; // an Excel serial: 2025-01-01
    });
    const before = await world();
    const res = await upload(roles.admin.token, 'roster', 'roster.xlsx', data, { sheet: 'Roster' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.counts).toEqual({ create: 20, update: 0, unchanged: 0, error: 0 });
    const commit = await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.admin.token });
    expect(commit.body.written).toBe(20);
    const first = (await env.db.select().from(licenses).where(eq(licenses.license_number, 'XLSX-000000')))[0]!;
    expect(first).toMatchObject({ ce_hours_required: 24, expiration_date: '2027-05-31' });
    expect((await env.db.select().from(licenses).where(eq(licenses.license_number, 'XLSX-000001')))[0]!.issue_date).toBe('2025-01-01');
    expect((await world()).users - before.users).toBe(20);
    const undo = await api(env, 'POST', `/api/imports/${res.body.import_id}/undo`, { token: roles.admin.token });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(await world()).toEqual(before);
    const list = await api(env, 'GET', '/api/imports', { token: roles.admin.token });
    expect(list.body.imports.find((i: { import_id: number }) => i.import_id === res.body.import_id).status).toBe('undone');
  });

  it('announces what it made to webhooks, as single creates do, and its undo leaves tombstones for a sync', async () => {
    const [endpoint] = await env.db.transaction((tx) =>
      tx
        .insert(webhookEndpoints)
        .values({
          url: 'https://93.184.216.34/hook',
          events: '["user.created","license.created","import.committed"]',
          secret: `whsec_${'A'.repeat(43)}=`,
          enabled: true,
        })
        .returning({ id: webhookEndpoints.id }),
    );
    try {
      const rows = rosterCells(rosterRows('hook', 3, { bad: false }));
      const res = await upload(roles.admin.token, 'roster', 'roster.xlsx', await xlsxOf(rows), { sheet: 'Roster' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.admin.token });
      const sent = await env.db
        .select({ event: webhookDeliveries.event, payload: webhookDeliveries.payload })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpoint_id, endpoint!.id));
      const events = sent.map((d) => d.event).sort();
      expect(events).toEqual(['import.committed', ...Array(3).fill('license.created'), ...Array(3).fill('user.created')]);
      const license = sent.find((d) => d.event === 'license.created')!;
      expect(JSON.parse(license.payload).data).toMatchObject({ license_number: expect.stringMatching(/^HOOK-/) });

      const undo = await api(env, 'POST', `/api/imports/${res.body.import_id}/undo`, { token: roles.admin.token });
      expect(undo.status, JSON.stringify(undo.body)).toBe(200);
      const tombstones = await env.db
        .select()
        .from(deletions)
        .where(inArray(deletions.resource, ['licenses', 'users']));
      const ids = (resource: string) => tombstones.filter((d) => d.resource === resource).map((d) => d.object_id);
      const made = sent.filter((d) => d.event !== 'import.committed').map((d) => JSON.parse(d.payload).data);
      for (const l of made.filter((d) => d.license_id)) expect(ids('licenses')).toContain(l.license_id);
      for (const u of made.filter((d) => !d.license_id)) expect(ids('users')).toContain(u.user_id);
    } finally {
      await env.db.transaction((tx) => tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint!.id)));
    }
  });

  it('undo refuses, naming the row, when something it wrote changed since', async () => {
    const res = await upload(roles.admin.token, 'roster', 'roster.xlsx', await xlsxOf(rosterCells(rosterRows('edit', 3, { bad: false }))), {
      sheet: 'Roster',
    });
    expect(res.status).toBe(201);
    await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.admin.token });
    const [person] = await env.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'edit.agent1@office.example'`);
    const edit = await api(env, 'PUT', `/api/users/${person!.user_id}`, { token: roles.admin.token, body: { first_name: 'Edited' } });
    expect(edit.status).toBe(200);
    const before = await world();
    const undo = await api(env, 'POST', `/api/imports/${res.body.import_id}/undo`, { token: roles.admin.token });
    expect(undo.status).toBe(409);
    expect(undo.body.error).toMatch(/row 3 /);
    expect(await world()).toEqual(before);
  });
});

describe('welcome e-mails', () => {
  it('go to new people only when the import says so', async () => {
    const quiet = rosterRows('quiet', 2, { bad: false });
    const loud = rosterRows('loud', 2, { bad: false });
    const a = await upload(roles.admin.token, 'roster', 'quiet.csv', rosterCsv(quiet));
    await api(env, 'POST', `/api/imports/${a.body.import_id}/commit`, { token: roles.admin.token });
    const b = await upload(roles.admin.token, 'roster', 'loud.csv', rosterCsv(loud), { send_welcome: 'true' });
    await api(env, 'POST', `/api/imports/${b.body.import_id}/commit`, { token: roles.admin.token });
    await backgroundSettled();
    expect(await outboxEmails(env.dir, quiet[0]!.email.toLowerCase())).toHaveLength(0);
    expect(await outboxEmails(env.dir, loud[0]!.email.toLowerCase())).toHaveLength(1);
  });
});

describe('files refused', () => {
  it('a PNG named .csv, an empty file, a header alone, an empty first sheet: 400 with a message', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const before = await world();
    const a = await upload(roles.admin.token, 'roster', 'people.csv', png);
    expect(a.status).toBe(400);
    expect(a.body.error).toMatch(/PNG/);
    const b = await upload(roles.admin.token, 'roster', 'people.csv', Buffer.alloc(0));
    expect(b.status).toBe(400);
    expect(b.body.error).toMatch(/empty/);
    const c = await upload(roles.admin.token, 'roster', 'people.csv', Buffer.from('Email;First\n'));
    expect(c.status).toBe(400);
    const d = await upload(roles.admin.token, 'roster', 'people.pdf', Buffer.from('%PDF-1.4'));
    expect(d.status).toBe(400);
    const f = await upload(roles.admin.token, 'roster', 'people.xlsx', await xlsxOf(rosterCells(rosterRows('sheet', 2, { bad: false }))));
    expect(f.status).toBe(400);
    expect(f.body.error).toMatch(/no data rows/);
    const many = Buffer.from(`Email\n${'a@b.example\n'.repeat(50_001)}`);
    const g = await upload(roles.admin.token, 'roster', 'many.csv', many);
    expect(g.status).toBe(400);
    expect(g.body.error).toMatch(/more than 50,000 rows/);
    const e = await upload(roles.admin.token, 'payments', 'people.csv', rosterCsv(rosterRows('kind', 2, { bad: false })));
    expect(e.status).toBe(400);
    expect(await world()).toEqual(before);
  });

  it('a zip bomb named .xlsx: 400/413 before it is unpacked', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('<?xml version="1.0"?><Types/>'), '[Content_Types].xml');
    zip.addBuffer(Buffer.alloc(250 * 1024 * 1024), 'xl/worksheets/sheet1.xml');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const bomb = Buffer.concat(chunks);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await upload(roles.admin.token, 'roster', 'roster.xlsx', bomb);
    expect([400, 413]).toContain(res.status);
    expect(res.body.error).toMatch(/zip bomb|unpacks/);
  });
});

describe('who may import what', () => {
  it('an Agent gets 403', async () => {
    const res = await upload(roles.agent.token, 'roster', 'r.csv', rosterCsv(rosterRows('agent', 2, { bad: false })));
    expect(res.status).toBe(403);
    expect((await api(env, 'GET', '/api/imports', { token: roles.agent.token })).status).toBe(403);
    expect((await upload(roles.school.token, 'roster', 'r.csv', rosterCsv(rosterRows('school', 2, { bad: false })))).status).toBe(403);
    expect(
      (
        await upload(
          roles.broker.token,
          'completions',
          'c.csv',
          completionsCsv([{ email: 'x@y.example', course: 'X', date: '2025-01-01' }]),
        )
      ).status,
    ).toBe(403);
  });

  it('a Broker imports into its own brokerage only', async () => {
    const own = rosterRows('brk', 3, { bad: false, brokerage: '' });
    const other = rosterRows('brk2', 2, { bad: false, brokerage: 'Main Street Realty Elsewhere' });
    const res = await upload(roles.broker.token, 'roster', 'mine.csv', rosterCsv([...own, ...other]));
    expect(res.status).toBe(201);
    expect(res.body.counts).toEqual({ create: 3, update: 0, unchanged: 0, error: 2 });
    const errors = await api(env, 'GET', `/api/imports/${res.body.import_id}?filter=error`, { token: roles.broker.token });
    expect(errors.body.rows[0].errors[0]).toMatchObject({ column: 'Office Name', message: expect.stringMatching(/not your brokerage/) });
    await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.broker.token });
    const [p] = await env.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'brk.agent0@office.example'`);
    expect(p!.brokerage_id).toBe(roles.broker.brokerage_id);
    // Another's import is not found.
    expect((await api(env, 'GET', `/api/imports/${res.body.import_id}`, { token: roles.school.token })).status).toBe(404);
  });
});

describe('completions', () => {
  let seq = 0;
  async function holderWithLicense(): Promise<{ userId: number; licenseId: number; email: string; number: string }> {
    const person = await seedUser(env, 'Agent', { brokerage_id: roles.brokerageId });
    const number = `CMP-${++seq}-${Date.now()}`;
    const licenseId = await env.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(licenses)
        .values({
          user_id: person.user_id,
          license_number: number,
          state: 'TX',
          issue_date: '2024-01-01',
          expiration_date: '2027-01-01',
          ce_hours_required: 30,
        })
        .returning();
      await refreshCeCache(tx, row!.license_id);
      return row!.license_id;
    });
    return { userId: person.user_id, licenseId, email: person.email, number };
  }
  const courseOf = (schoolId: number, name: string) =>
    callerFor(env, schoolId).courses.create({ course_name: name, description: 'CE', provider: 'Academy', ce_hours: 4 });
  const ledgerOf = async (licenseId: number) => (await callerFor(env, roles.admin.user_id).licenses.transcript({ id: licenseId })).current;

  it('a School’s completions CSV credits CE exactly as single completions do; another School’s course is refused', async () => {
    const course = await courseOf(roles.school.user_id, `Ethics ${Date.now()}`);
    const otherSchool = await seedUser(env, 'School');
    const foreign = await courseOf(otherSchool.user_id, `Foreign ${Date.now()}`);
    const single = await holderWithLicense();
    const imported = await holderWithLicense();
    const byNumber = await holderWithLicense();
    await callerFor(env, roles.school.user_id).completions.create({
      course_id: course.course_id,
      license_id: single.licenseId,
      user_id: single.userId,
      completion_date: '2025-03-05',
      hours: 3,
    });
    const csv = completionsCsv([
      { email: imported.email, license: imported.number, state: 'TX', course: course.course_name, date: '03/05/2025', hours: '3' },
      { license: byNumber.number, state: 'TX', course: course.course_name, date: '5 Mar 2025' },
      { email: imported.email, license: imported.number, state: 'TX', course: foreign.course_name, date: '2025-03-05' },
      { email: 'nobody@nowhere.example', course: course.course_name, date: '2025-03-05' },
    ]);
    const res = await upload(roles.school.token, 'completions', 'lms export.csv', csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 2 });
    expect(res.body.rows[2].errors[0]).toMatchObject({ column: 'Course Title', message: expect.stringMatching(/not one of your courses/) });
    expect(res.body.rows[3].errors[0]).toMatchObject({ column: 'Email Address' });
    const before = await world();
    expect(before.completions).toBeGreaterThan(0);
    const commit = await api(env, 'POST', `/api/imports/${res.body.import_id}/commit`, { token: roles.school.token });
    expect(commit.status, JSON.stringify(commit.body)).toBe(200);
    expect(commit.body.written).toBe(2);
    const a = await ledgerOf(single.licenseId);
    const b = await ledgerOf(imported.licenseId);
    expect(b.completed).toBe(a.completed);
    expect(b.completed).toBe(3);
    expect((await ledgerOf(byNumber.licenseId)).completed).toBe(4);
    const [c] = await env.db.select().from(completions).where(eq(completions.user_id, imported.userId));
    expect(c).toMatchObject({ status: 'Approved', hours: 3, license_id: imported.licenseId, course_id: course.course_id });
    // Again: nothing new, the recorded ones are unchanged.
    const again = await upload(roles.school.token, 'completions', 'lms export.csv', csv);
    expect(again.body.counts).toEqual({ create: 0, update: 0, unchanged: 2, error: 2 });
    // Undo removes them and the ledger follows.
    const undo = await api(env, 'POST', `/api/imports/${res.body.import_id}/undo`, { token: roles.school.token });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect((await ledgerOf(imported.licenseId)).completed).toBe(0);
    const left = await env.db
      .select()
      .from(completions)
      .where(inArray(completions.user_id, [imported.userId, byNumber.userId]));
    expect(left).toHaveLength(0);
  });
});
