import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { auditLogs, notificationDeliveries } from '../src/db/schema/index.ts';
import { invalidateSettings, writeSettings } from '../src/core/settings.ts';
import { renderTemplate, type Settings } from '@lm/shared';
import { toErrorBody } from '../src/base/errors.ts';
import { api, callerFor, createTestEnv, seedRoles, type TestEnv, roleMatrix, type Roles, useTestEnv } from './helpers.ts';
import { parseEmail } from './outbox.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

/** Every line of a message ends with CRLF: no LF without its CR, no CR without its LF (RFC 5322 2.3). */
function expectCrlfOnly(raw: Buffer | string) {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
  const bareLf = bytes.findIndex((b, i) => b === 0x0a && bytes[i - 1] !== 0x0d);
  const bareCr = bytes.findIndex((b, i) => b === 0x0d && bytes[i + 1] !== 0x0a);
  expect({ bareLf, bareCr }).toEqual({ bareLf: -1, bareCr: -1 });
}

/** Changes System Settings directly (committed, then the cache dropped). */
async function setSettings(values: Partial<Settings>) {
  await env.db.transaction((tx) => writeSettings(tx, values, null));
  invalidateSettings();
}

const BASE = '/api/admin/notification-templates';
let seq = 0;
const validTemplate = (over: Record<string, unknown> = {}) => ({
  name: `Expiry reminder ${++seq}`,
  subject: 'License {{license_number}} expires {{expiration_date}}',
  body: 'Hello {{user_name}},\nyour license {{license_number}} expires on {{expiration_date}}.\n{{app_name}}',
  type: 'email',
  trigger_event: 'license_expiring',
  is_active: true,
  variables: ['user_name'],
  ...over,
});

async function createTemplate(over: Record<string, unknown> = {}) {
  const res = await api(env, 'POST', BASE, { token: roles.admin.token, body: validTemplate(over) });
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string };
}

/** What a failed tRPC call would answer over HTTP. */
async function errorOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const { status, body } = toErrorBody(err);
    return { status, error: body.error };
  }
  throw new Error('expected the call to fail');
}

/** The outbox files, newest last (names start with a timestamp). */
function outbox(e: TestEnv = env): string[] {
  const dir = path.join(e.dir, 'outbox');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort()
    : [];
}

describe('who may use notification templates', () => {
  const calls: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown]> = [
    ['list', 'GET', BASE, undefined],
    ['create', 'POST', BASE, validTemplate()],
    ['update', 'PUT', `${BASE}/999999`, { name: 'x' }],
    ['delete', 'DELETE', `${BASE}/999999`, undefined],
    ['test', 'POST', `${BASE}/999999/test`, { test_email: 'a@b.co' }],
    ['history', 'GET', '/api/admin/notification-history', undefined],
  ];
  roleMatrix(
    t,
    calls.map(([name]) => name).join(', '),
    { admin: [200, 200, 404, 404, 404, 200], broker: 403, agent: 403, school: 403 },
    {
      rest: async (token) => {
        const statuses: number[] = [];
        for (const [, method, url, body] of calls) {
          const payload = body && typeof body === 'object' && 'name' in body && method === 'POST' ? validTemplate() : body;
          const res = await api(env, method, url, { token, body: payload });
          if (res.status === 403) expect(res.body.code, `${method} ${url}`).toBe('FORBIDDEN');
          statuses.push(res.status);
        }
        return statuses;
      },
    },
  );

  it('signed out: 401 on every call', async () => {
    for (const [, method, url, body] of calls) {
      expect((await api(env, method, url, { body })).status).toBe(401);
    }
  });

  it('tRPC: a Broker is refused with FORBIDDEN, signed out with UNAUTHORIZED', async () => {
    await expect(callerFor(env, roles.broker.user_id).admin.notificationManagement.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(env, null).admin.notificationManagement.history()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('REST: template validation', () => {
  it('a template without a subject answers 400 with "Subject is required"', async () => {
    const { subject: _omit, ...noSubject } = validTemplate();
    const res = await api(env, 'POST', BASE, { token: roles.admin.token, body: noSubject });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Subject is required');
    expect(res.body.code).toBe('BAD_REQUEST');
  });

  it('answers each required-field message, trimmed, and changes nothing', async () => {
    const before = (await api(env, 'GET', BASE, { token: roles.admin.token })).body.templates.length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '   ' }, 'name', 'Template name is required'],
      [{ subject: '' }, 'subject', 'Subject is required'],
      [{ body: ' \n ' }, 'body', 'Body is required'],
      [{ trigger_event: '' }, 'trigger_event', 'Trigger event is required'],
      [{ trigger_event: undefined }, 'trigger_event', 'Trigger event is required'],
    ];
    for (const [over, field, message] of cases) {
      const res = await api(env, 'POST', BASE, { token: roles.admin.token, body: validTemplate(over) });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe(message);
      expect(res.body.issues).toContainEqual({ path: field, message });
    }
    const all = await api(env, 'POST', BASE, { token: roles.admin.token, body: {} });
    expect(all.status).toBe(400);
    expect(all.body.issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Template name is required', 'Subject is required', 'Body is required', 'Trigger event is required']),
    );
    const badType = await api(env, 'POST', BASE, { token: roles.admin.token, body: validTemplate({ type: 'fax' }) });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toMatch(/^Type must be one of: email, sms, push/);
    const badTrigger = await api(env, 'POST', BASE, { token: roles.admin.token, body: validTemplate({ trigger_event: 'birthday' }) });
    expect(badTrigger.status).toBe(400);
    expect(badTrigger.body.error).toMatch(/^Trigger event must be one of/);
    const update = await createTemplate();
    const blank = await api(env, 'PUT', `${BASE}/${update.id}`, { token: roles.admin.token, body: { subject: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('Subject is required');
    expect((await api(env, 'GET', BASE, { token: roles.admin.token })).body.templates.length).toBe(before + 1);
  });

  it('a duplicate name (any case) answers 409', async () => {
    const t = await createTemplate();
    const dup = await api(env, 'POST', BASE, { token: roles.admin.token, body: validTemplate({ name: t.name.toUpperCase() }) });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('A notification template with this name already exists');
  });
});

describe('REST: template CRUD', () => {
  it('create, list {templates}, update and delete work, each audited', async () => {
    const created = await api(env, 'POST', BASE, { token: roles.admin.token, body: validTemplate({ name: '  Renewal notice  ' }) });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      name: 'Renewal notice',
      type: 'email',
      trigger_event: 'license_expiring',
      is_active: true,
    });
    // The given variables plus those the subject and body use, once each.
    expect(created.body.variables).toEqual(['user_name', 'license_number', 'expiration_date', 'app_name']);

    const list = await api(env, 'GET', BASE, { token: roles.admin.token });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['templates']);
    expect(list.body.templates).toContainEqual(expect.objectContaining({ id, name: 'Renewal notice' }));

    const updated = await api(env, 'PUT', `${BASE}/${id}`, {
      token: roles.admin.token,
      body: { is_active: false, type: 'sms', body: 'Hi {{first_name}}' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Renewal notice', is_active: false, type: 'sms', body: 'Hi {{first_name}}' });
    expect(updated.body.variables).toEqual(['user_name', 'license_number', 'expiration_date', 'app_name', 'first_name']);

    const deleted = await api(env, 'DELETE', `${BASE}/${id}`, { token: roles.admin.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    const after = await api(env, 'GET', BASE, { token: roles.admin.token });
    expect(after.body.templates.find((t: { id: number }) => t.id === id)).toBeUndefined();
    expect((await api(env, 'DELETE', `${BASE}/${id}`, { token: roles.admin.token })).status).toBe(404);
    expect((await api(env, 'PUT', `${BASE}/${id}`, { token: roles.admin.token, body: { name: 'x' } })).body).toEqual({
      error: 'Notification template not found',
      code: 'NOT_FOUND',
    });

    const actions = (
      await env.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.target_table, 'notification_templates'), eq(auditLogs.target_id, id)))
        .orderBy(asc(auditLogs.log_id))
    ).map((a) => [a.action, a.user_id]);
    expect(actions).toEqual([
      ['create', roles.admin.user_id],
      ['update', roles.admin.user_id],
      ['delete', roles.admin.user_id],
    ]);
  });

  it('tRPC: the same procedures work through the caller', async () => {
    const admin = callerFor(env, roles.admin.user_id).admin.notificationManagement;
    const t = await admin.create({
      name: `tRPC template ${Date.now()}`,
      subject: 'Welcome {{user_name}}',
      body: 'Hello {{user_name}}',
      trigger_event: 'user_registered',
    });
    expect(t).toMatchObject({ type: 'email', is_active: true, variables: ['user_name'] });
    expect((await admin.list()).templates.map((x) => x.id)).toContain(t.id);
    expect(await admin.update({ id: t.id, name: `${t.name} (edited)` })).toMatchObject({ id: t.id, name: `${t.name} (edited)` });
    expect(await errorOf(admin.create({ name: 'x', subject: 'y', body: '', trigger_event: 'payment_due' }))).toEqual({
      status: 400,
      error: 'Body is required',
    });
    expect(await admin.delete({ id: t.id })).toEqual({ success: true });
    await expect(admin.delete({ id: t.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('REST: test send without SMTP_URL (outbox)', () => {
  it('answers 400 "Please enter a valid email address" for a bad or missing address, 404 for an unknown template', async () => {
    const t = await createTemplate();
    for (const test_email of ['not-an-email', 'a@b', '', '   ', 'two words@x.com']) {
      const res = await api(env, 'POST', `${BASE}/${t.id}/test`, { token: roles.admin.token, body: { test_email } });
      expect(res.status, test_email).toBe(400);
      expect(res.body.error).toBe('Please enter a valid email address');
    }
    const missing = await api(env, 'POST', `${BASE}/${t.id}/test`, { token: roles.admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Please enter a valid email address');
    const unknown = await api(env, 'POST', `${BASE}/999999/test`, { token: roles.admin.token, body: { test_email: 'x@y.co' } });
    expect(unknown.status).toBe(404);
  });

  it('writes an .eml addressed to the recipient with the variables rendered, and the history counts it', async () => {
    const t = await createTemplate({ name: 'Outbox check' });
    const before = (await api(env, 'GET', '/api/admin/notification-history', { token: roles.admin.token })).body;
    const filesBefore = outbox();
    // Email notifications switched off: the Admin's explicit test still sends.
    await setSettings({ email_notifications_enabled: false, app_name: 'Acme Licensing' });
    try {
      const res = await api(env, 'POST', `${BASE}/${t.id}/test`, {
        token: roles.admin.token,
        body: { test_email: ' Office.Manager@Example.com ' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        delivery: {
          recipient: 'Office.Manager@Example.com',
          template_name: 'Outbox check',
          channel: 'email',
          status: 'sent',
          transport: 'outbox',
        },
      });
    } finally {
      await setSettings({ email_notifications_enabled: true, app_name: 'Real Estate License Manager' });
    }

    const added = outbox().filter((f) => !filesBefore.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^\d{8}T\d{9}Z-email-\d+\.eml$/);
    const raw = fs.readFileSync(path.join(env.dir, 'outbox', added[0]!), 'utf8');
    expect(raw).toContain('\r\n'); // RFC 822 line ends
    // ...throughout: the body's lines (stored with LF) and the footer's too.
    expectCrlfOnly(fs.readFileSync(path.join(env.dir, 'outbox', added[0]!)));
    const { headers, body, from, to } = await parseEmail(raw);
    // nodemailer writes the domain in lower case (it is case-insensitive).
    expect(to).toEqual(['Office.Manager@example.com']);
    expect(from).toEqual({ name: 'Acme Licensing', address: 'support@example.com' });
    expect(headers.subject).toBe('License SA-1234567 expires 12/31/2026');
    expect(headers.date).toMatch(/\d{4} \d\d:\d\d:\d\d/);
    expect(headers['mime-version']).toBe('1.0');
    expect(headers['content-type']).toMatch(/^text\/plain/);
    expect(body).toContain('Hello Jane Smith,\nyour license SA-1234567 expires on 12/31/2026.\nAcme Licensing');
    expect(body).not.toContain('{{');

    const after = (await api(env, 'GET', '/api/admin/notification-history', { token: roles.admin.token })).body;
    expect(after.total_sent).toBe(before.total_sent + 1);
    // An outbox file is not a delivery: counted in in_outbox, never in successful.
    expect(after.in_outbox).toBe(before.in_outbox + 1);
    expect(after.successful).toBe(before.successful);
    expect(after.failed).toBe(before.failed);
    expect(after.recent[0]).toMatchObject({ recipient: 'Office.Manager@Example.com', template_name: 'Outbox check', status: 'sent' });

    const [row] = await env.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, after.recent[0].id));
    expect(row!.outbox_file).toBe(added[0]);
    const [auditRow] = await env.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.target_table, 'notification_deliveries'), eq(auditLogs.target_id, row!.id)));
    expect(auditRow!.action).toBe('notification_sent');
    expect(auditRow!.user_id).toBe(roles.admin.user_id);
    expect(JSON.parse(auditRow!.new_values!)).toMatchObject({ recipient: 'Office.Manager@Example.com', test: true });
  });

  it('tRPC: sendTest and history answer the same shapes', async () => {
    const admin = callerFor(env, roles.admin.user_id).admin.notificationManagement;
    const t = await createTemplate({ name: 'tRPC test send' });
    const out = await admin.sendTest({ id: t.id, test_email: 'trpc@example.com' });
    expect(out).toMatchObject({ success: true, delivery: { recipient: 'trpc@example.com', status: 'sent' } });
    expect(await errorOf(admin.sendTest({ id: t.id, test_email: 'nope' }))).toEqual({
      status: 400,
      error: 'Please enter a valid email address',
    });
    await admin.sendTest({ id: t.id, test_email: 'trpc2@example.com' });
    const h = await admin.history({ limit: 2 });
    expect(h.recent).toHaveLength(2);
    expect(h.recent.map((d) => d.recipient)).toEqual(['trpc2@example.com', 'trpc@example.com']);
    expect(h.recent[0]).toMatchObject({ template_name: 'tRPC test send', status: 'sent' });
    expect((await admin.history()).recent.length).toBe(Math.min(10, h.total_sent));
    expect(h.total_sent).toBe(h.successful + h.in_outbox + h.failed + h.pending);
    expect(h.in_outbox).toBeGreaterThanOrEqual(2);
    const rest = await api(env, 'GET', '/api/admin/notification-history?limit=0', { token: roles.admin.token });
    expect(rest.status).toBe(400);
  });
});

/** A minimal SMTP server: accepts everything and keeps each message's envelope and data. */
function startSmtpServer() {
  const received: Array<{ from: string; to: string[]; data: string }> = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 test.local ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250-test.local\r\n250 8BITMIME\r\n');
        else if (cmd === 'MAIL') {
          current.from = line;
          socket.write('250 OK\r\n');
        } else if (cmd === 'RCPT') {
          current.to.push(line);
          socket.write('250 OK\r\n');
        } else if (cmd === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (cmd === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise<{ port: number; received: typeof received; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        received,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('template rendering: own properties of the documented variables only', () => {
  it('{{constructor}}, {{__proto__}}, {{toString}} stay as written; documented names are filled', () => {
    const text = '{{constructor}} {{__proto__}} {{toString}} {{hasOwnProperty}} {{ valueOf }} {{user_name}} {{nope}}';
    expect(renderTemplate(text, { user_name: 'Jane' }, 'MM/DD/YYYY')).toBe(
      '{{constructor}} {{__proto__}} {{toString}} {{hasOwnProperty}} {{ valueOf }} Jane {{nope}}',
    );
    // A value under an undocumented name is not used either.
    expect(renderTemplate('{{constructor}} {{secret}}', { constructor: 'x', secret: 'y' }, 'MM/DD/YYYY')).toBe(
      '{{constructor}} {{secret}}',
    );
    // Values inherited from a prototype are not the values' own.
    expect(renderTemplate('{{user_name}}', Object.create({ user_name: 'Inherited' }) as Record<string, string>, 'MM/DD/YYYY')).toBe(
      '{{user_name}}',
    );
  });

  it("calendar dates are written in the office's date format, other values as they are", () => {
    const text = '{{expiration_date}} {{due_date}} {{completion_date}} {{license_number}}';
    const values = { expiration_date: '2026-07-30', due_date: '2026-12-01', completion_date: '2026-11-02', license_number: '2026-07-30' };
    expect(renderTemplate(text, values, 'MM/DD/YYYY')).toBe('07/30/2026 12/01/2026 11/02/2026 2026-07-30');
    expect(renderTemplate(text, values, 'YYYY-MM-DD')).toBe('2026-07-30 2026-12-01 2026-11-02 2026-07-30');
  });

  it('a test send of such a template writes the names as they are, and CRLF throughout (mailparser reads it back)', async () => {
    const t = await createTemplate({ body: 'Hi {{first_name}}\n{{constructor}}|{{__proto__}}|{{toString}}\r\nBye' });
    const filesBefore = outbox();
    const res = await api(env, 'POST', `${BASE}/${t.id}/test`, { token: roles.admin.token, body: { test_email: 'proto@example.com' } });
    expect(res.status).toBe(200);
    const [file] = outbox().filter((f) => !filesBefore.includes(f));
    const raw = fs.readFileSync(path.join(env.dir, 'outbox', file!));
    expectCrlfOnly(raw);
    const { body } = await parseEmail(raw);
    expect(body).toContain('Hi Jane\n{{constructor}}|{{__proto__}}|{{toString}}\nBye\n');
    expect(body).not.toMatch(/function|\[object Object\]/);
  });
});

describe('REST: test send with SMTP_URL', () => {
  it('hands the rendered message to the SMTP server and writes nothing to the outbox', async () => {
    const smtp = await startSmtpServer();
    const smtpEnv = await createTestEnv({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    try {
      const r = await seedRoles(smtpEnv);
      const t = await api(smtpEnv, 'POST', BASE, { token: r.admin.token, body: validTemplate() });
      const res = await api(smtpEnv, 'POST', `${BASE}/${t.body.id}/test`, {
        token: r.admin.token,
        body: { test_email: 'smtp-check@example.com' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        delivery: { status: 'sent', transport: 'smtp', recipient: 'smtp-check@example.com' },
      });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual(['RCPT TO:<smtp-check@example.com>']);
      expectCrlfOnly(smtp.received[0]!.data);
      const { headers, body } = await parseEmail(smtp.received[0]!.data);
      expect(headers.subject).toBe('License SA-1234567 expires 12/31/2026');
      expect(body).toContain('Hello Jane Smith,\nyour license SA-1234567');
      expect(body).toContain('Hello Jane Smith,');
      expect(outbox(smtpEnv)).toEqual([]);
    } finally {
      await smtpEnv.close();
      await smtp.close();
    }
  });

  it('an unreachable SMTP server: success false, the attempt recorded as failed with its error, and counted', async () => {
    const port = await closedPort();
    const smtpEnv = await createTestEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const r = await seedRoles(smtpEnv);
      const t = await api(smtpEnv, 'POST', BASE, { token: r.admin.token, body: validTemplate() });
      const res = await api(smtpEnv, 'POST', `${BASE}/${t.body.id}/test`, { token: r.admin.token, body: { test_email: 'x@example.com' } });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.delivery).toMatchObject({
        status: 'failed',
        transport: 'smtp',
        error: expect.stringMatching(/ECONNREFUSED|connect/i),
      });
      const h = (await api(smtpEnv, 'GET', '/api/admin/notification-history', { token: r.admin.token })).body;
      expect(h).toMatchObject({ total_sent: 1, successful: 0, failed: 1, pending: 0 });
      expect(h.recent[0]).toMatchObject({ recipient: 'x@example.com', status: 'failed' });
      const [auditRow] = await smtpEnv.db.select().from(auditLogs).where(eq(auditLogs.action, 'notification_failed'));
      expect(auditRow?.target_id).toBe(res.body.delivery.id);
    } finally {
      await smtpEnv.close();
    }
  });
});

describe('OpenAPI', () => {
  it('lists the notification paths', async () => {
    const doc = (await api(env, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const p of [
      'GET /admin/notification-templates',
      'POST /admin/notification-templates',
      'PUT /admin/notification-templates/{id}',
      'DELETE /admin/notification-templates/{id}',
      'POST /admin/notification-templates/{id}/test',
      'GET /admin/notification-history',
    ]) {
      expect(listed).toContain(p);
    }
  });
});
