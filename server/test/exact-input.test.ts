/**
 * Exact input (docs/security.md "Exact input"): booleans are booleans, numbers are numbers, and every text
 * field of every input schema is built with shared/src/text.ts (no control, format or lone surrogate
 * characters; NFC). The structural check walks every procedure's input, so a new bare z.string() fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dateString, documentUploadFields, emailSchema, isTextSchema, TEXT_MESSAGES } from '@lm/shared';
import { appRouter } from '../src/router.ts';
import { users } from '../src/db/schema/index.ts';
import { api, callerFor, trpcStatus, type Roles, type TestEnv, useTestEnv } from './helpers.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
beforeAll(() => {
  ({ env, roles } = t);
});

interface Def {
  type: string;
  innerType?: Node;
  element?: Node;
  in?: Node;
  out?: Node;
  shape?: Record<string, Node>;
  options?: Node[];
  left?: Node;
  right?: Node;
  valueType?: Node;
  items?: Node[];
  getter?: () => Node;
}
interface Node {
  _zod?: { def: Def };
}

/**
 * Fields that are not text a person reads: secrets compared byte for byte (never normalised), link tokens and the
 * sign-in proof-of-work solution (base64url, verified as such).
 */
const NOT_TEXT = new Set(['password', 'currentPassword', 'newPassword', 'confirmPassword', 'token', 'solution']);
/** Strings with their own strict format (a calendar date; the accounts' e-mail schema refuses invisible characters). */
const OWN_FORMAT = new Set<unknown>([dateString, emailSchema]);

function accepted(node: Node): boolean {
  if (OWN_FORMAT.has(node)) return true;
  const def = node._zod?.def;
  if (!def) return false;
  if (def.type === 'string') return isTextSchema(node);
  if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type))
    return accepted(def.innerType!);
  if (def.type === 'pipe') return accepted(def.out!) || accepted(def.in!);
  return false;
}

/** The bare strings inside a schema, as dotted paths. */
function bareStrings(node: Node, at: string, out: string[], seen = new Set<Node>()): void {
  if (seen.has(node)) return;
  seen.add(node);
  if (OWN_FORMAT.has(node)) return;
  const def = node._zod?.def;
  if (!def) return;
  const key = at.split('.').pop()!;
  switch (def.type) {
    case 'string':
      if (!isTextSchema(node) && !NOT_TEXT.has(key)) out.push(at);
      return;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return bareStrings(def.innerType!, at, out, seen);
    case 'array':
      return bareStrings(def.element!, `${at}[]`, out, seen);
    case 'pipe':
      // A pipe whose result is checked text (or a date) is judged by its result: z.string().pipe(dateString).
      if (accepted(def.out!)) return;
      bareStrings(def.in!, at, out, seen);
      return bareStrings(def.out!, at, out, seen);
    case 'object':
      for (const [k, v] of Object.entries(def.shape!)) bareStrings(v, at ? `${at}.${k}` : k, out, seen);
      return;
    case 'union':
      for (const o of def.options!) bareStrings(o, at, out, seen);
      return;
    case 'intersection':
      bareStrings(def.left!, at, out, seen);
      return bareStrings(def.right!, at, out, seen);
    case 'record':
      return bareStrings(def.valueType!, `${at}[*]`, out, seen);
    case 'tuple':
      def.items!.forEach((i, n) => bareStrings(i, `${at}[${n}]`, out, seen));
      return;
    case 'lazy':
      return bareStrings(def.getter!(), at, out, seen);
    default:
      return;
  }
}

function allInputs(): Array<[string, Node]> {
  const list: Array<[string, Node]> = [];
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: Node[] } }>;
  for (const [path, p] of Object.entries(procedures)) p._def.inputs.forEach((input, i) => list.push([`${path}#${i}`, input]));
  list.push(['POST /api/documents fields', documentUploadFields as unknown as Node]);
  return list;
}

describe('every text field is built with shared/src/text.ts', () => {
  it('no input schema holds a bare z.string()', () => {
    const problems: string[] = [];
    for (const [name, input] of allInputs()) {
      const found: string[] = [];
      bareStrings(input, '', found);
      for (const f of found) problems.push(`${name}: ${f || '(the input itself)'}`);
    }
    expect(problems).toEqual([]);
  });
});

/** Every leaf of an input schema with its path (objects and wrappers walked; a pipe judged by its result). */
function leaves(node: Node, at: string[], out: Array<{ at: string[]; leaf: Node }>): void {
  const def = node._zod?.def;
  if (!def) return;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return leaves(def.innerType!, at, out);
    case 'object':
      for (const [k, v] of Object.entries(def.shape!)) leaves(v, [...at, k], out);
      return;
    case 'pipe':
      // z.preprocess (numberFromText, emptyToUndefined): the schema after the transform is the field's own.
      if (def.in!._zod?.def.type === 'transform') return leaves(def.out!, at, out);
      out.push({ at, leaf: node });
      return;
    default:
      out.push({ at, leaf: node });
  }
}

function setAt(path: string[], value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let o = root;
  path.forEach((k, i) => {
    if (i === path.length - 1) o[k] = value;
    else o = o[k] = {} as Record<string, unknown>;
  });
  return root;
}

interface Parser {
  safeParse: (v: unknown) => { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}
/** The messages the input schema gives for `value` at `path` (other fields' issues ignored). */
function issuesAt(input: Node, path: string[], value: unknown): string[] {
  const r = (input as unknown as Parser).safeParse(setAt(path, value));
  if (r.success) return [];
  return r.error!.issues.filter((i) => i.path.map(String).join('.') === path.join('.')).map((i) => i.message);
}

type ProcedureDef = { _def: { inputs: Node[]; type: string } };
function fields(kind: (leaf: Node) => boolean): Array<{ name: string; input: Node; at: string[]; leaf: Node; type: string }> {
  const found: Array<{ name: string; input: Node; at: string[]; leaf: Node; type: string }> = [];
  for (const [path, p] of Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>)) {
    const input = p._def.inputs[0];
    if (!input) continue;
    const list: Array<{ at: string[]; leaf: Node }> = [];
    leaves(input, [], list);
    for (const l of list)
      if (l.at.length && kind(l.leaf)) found.push({ name: `${path}.${l.at.join('.')}`, input, ...l, type: p._def.type });
  }
  return found;
}

const NUL = 'Ann\u0000e';
const RLO = 'invoice\u202Efdp.exe';
const LONE = 'Ann\uD800e';

describe('exact types on every input (schema of each procedure, as tRPC and the REST adapter parse it)', () => {
  it('every boolean field refuses "false", "true", 0 and 1', () => {
    const booleans = fields((l) => l._zod?.def.type === 'boolean');
    expect(booleans.length).toBeGreaterThan(20);
    for (const f of booleans) {
      for (const v of ['false', 'true', 0, 1]) expect(issuesAt(f.input, f.at, v), `${f.name} = ${JSON.stringify(v)}`).not.toEqual([]);
    }
  });

  it('every number field refuses true, "" and "1e1"; z.coerce is left only on query inputs', () => {
    const numbers = fields((l) => l._zod?.def.type === 'number');
    expect(numbers.length).toBeGreaterThan(30);
    for (const f of numbers) {
      const coerce = (f.leaf._zod!.def as { coerce?: boolean }).coerce;
      if (coerce) {
        expect(f.type, `${f.name}: z.coerce outside a query`).toBe('query');
        continue;
      }
      for (const v of [true, '', '1e1', ' 12', [1]]) expect(issuesAt(f.input, f.at, v), `${f.name} = ${JSON.stringify(v)}`).not.toEqual([]);
    }
  });

  it('every text field refuses NUL, U+202E and lone surrogates; single-line fields refuse line breaks', () => {
    const texts = fields((l) => isTextSchema(l));
    expect(texts.length).toBeGreaterThan(40);
    let multi = 0;
    for (const f of texts) {
      for (const v of [NUL, RLO, LONE, 'a\u200Bb', 'a\u2066b\u2069']) {
        expect(issuesAt(f.input, f.at, v), `${f.name} = ${JSON.stringify(v)}`).not.toEqual([]);
      }
      const lines = issuesAt(f.input, f.at, 'AB\r\nCD');
      if (!lines.includes(TEXT_MESSAGES.lineBreak)) multi++;
    }
    // Multi-line: notes, descriptions of several lines, the template body, the office description.
    expect(multi).toBeGreaterThan(0);
    expect(multi).toBeLessThan(10);
  });
});

describe('exact input over REST and tRPC', () => {
  const base = () => ({ password: 'Str0ngPassword', first_name: 'Nina', last_name: 'Newton', role_id: 3, brokerage_id: roles.brokerageId });
  let seq = 0;
  const email = () => `exact.${Date.now()}.${++seq}@test.example`;
  const admin = () => callerFor(env, roles.admin.user_id);
  const stored = async (address: string) => (await env.db.select().from(users).where(eq(users.email, address)))[0];

  it('is_active: "false" answers 400 (users, courses, templates) and stores nothing', async () => {
    const u = email();
    const rest = await api(env, 'POST', '/api/users', { token: roles.admin.token, body: { ...base(), email: u, is_active: 'false' } });
    expect(rest.status).toBe(400);
    expect(rest.body.issues.map((i: { path: string }) => i.path)).toContain('is_active');
    expect(await trpcStatus(admin().users.create({ ...base(), email: u, is_active: 'false' } as never))).toBe(400);
    expect(await stored(u)).toBeUndefined();
    const put = await api(env, 'PUT', `/api/users/${roles.agent.user_id}`, { token: roles.admin.token, body: { is_active: 'false' } });
    expect(put.status).toBe(400);
    expect(await trpcStatus(admin().users.update({ id: roles.agent.user_id, is_active: 'false' } as never))).toBe(400);
    expect((await stored(roles.agent.email))!.is_active).toBe(true);

    const course = { course_name: 'Ethics', description: 'Ethics in practice', provider: 'Academy', ce_hours: 3, is_active: 'false' };
    expect((await api(env, 'POST', '/api/courses', { token: roles.admin.token, body: course })).status).toBe(400);
    expect(await trpcStatus(admin().courses.create(course as never))).toBe(400);

    const template = { name: 'T', subject: 'S', body: 'B', trigger_event: 'license_expiring', is_active: 'false' };
    expect((await api(env, 'POST', '/api/admin/notification-templates', { token: roles.admin.token, body: template })).status).toBe(400);
    expect(await trpcStatus(admin().admin.notificationManagement.create(template as never))).toBe(400);
  });

  it('role_id: true, amount: true and id: true answer 400', async () => {
    const u = email();
    expect((await api(env, 'POST', '/api/users', { token: roles.admin.token, body: { ...base(), email: u, role_id: true } })).status).toBe(
      400,
    );
    expect(await trpcStatus(admin().users.create({ ...base(), email: u, role_id: true } as never))).toBe(400);
    expect(await stored(u)).toBeUndefined();
    const payment = { user_id: roles.agent.user_id, amount: true };
    expect((await api(env, 'POST', '/api/payments', { token: roles.admin.token, body: payment })).status).toBe(400);
    expect(await trpcStatus(admin().payments.create(payment as never))).toBe(400);
    expect(await trpcStatus(admin().users.get({ id: true } as never))).toBe(400);
    expect(await trpcStatus(admin().users.get({ id: String(roles.agent.user_id) } as never))).toBe(200);
    expect((await api(env, 'GET', `/api/users/${roles.agent.user_id}`, { token: roles.admin.token })).status).toBe(200);
    expect((await api(env, 'GET', '/api/users/1e1', { token: roles.admin.token })).status).toBe(400);
  });

  it('a NUL, U+202E or CR/LF in a name answers 400 on both paths; invisible-only names are empty; text is NFC', async () => {
    for (const first_name of [NUL, RLO, 'Nina\r\nBcc: x@evil.example', LONE]) {
      const u = email();
      const rest = await api(env, 'POST', '/api/users', { token: roles.admin.token, body: { ...base(), email: u, first_name } });
      expect(rest.status, JSON.stringify(first_name)).toBe(400);
      expect(rest.body.issues).toContainEqual({ path: 'first_name', message: expect.any(String) });
      expect(await trpcStatus(admin().users.create({ ...base(), email: u, first_name }))).toBe(400);
      expect(await stored(u)).toBeUndefined();
    }
    for (const first_name of ['\u200B', '\u200D\u200C', ' \uFEFF ']) {
      const rest = await api(env, 'POST', '/api/users', { token: roles.admin.token, body: { ...base(), email: email(), first_name } });
      expect(rest.status).toBe(400);
      expect(rest.body.issues).toContainEqual({ path: 'first_name', message: 'First name is required' });
    }
    const u = email();
    const created = await api(env, 'POST', '/api/users', {
      token: roles.admin.token,
      body: { ...base(), email: u, first_name: 'Jose\u0301' },
    });
    expect(created.status).toBe(200);
    expect((await stored(u))!.first_name).toBe('Jos\u00E9');
    // A joiner inside a word is kept (Persian, Indic scripts, emoji sequences need it).
    const persian = await api(env, 'PUT', `/api/users/${created.body.user_id}`, {
      token: roles.admin.token,
      body: { last_name: 'می\u200Cخواهم' },
    });
    expect(persian.status).toBe(200);
  });

  it('multi-line fields take CR/LF and TAB (stored as LF) but not NUL or bidi overrides', async () => {
    const template = { name: `Multi ${Date.now()}`, subject: 'S', trigger_event: 'license_expiring' };
    const ok = await api(env, 'POST', '/api/admin/notification-templates', {
      token: roles.admin.token,
      body: { ...template, body: 'Line one\r\n\tLine two\rLine three' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.body).toBe('Line one\n\tLine two\nLine three');
    for (const body of ['Hello\u0000', 'Hello \u202Egnp.exe', 'Hi \uDC00']) {
      const res = await api(env, 'POST', '/api/admin/notification-templates', {
        token: roles.admin.token,
        body: { ...template, name: `${template.name} x`, body },
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues).toContainEqual({ path: 'body', message: TEXT_MESSAGES.refused });
    }
    const subject = await api(env, 'POST', '/api/admin/notification-templates', {
      token: roles.admin.token,
      body: { ...template, body: 'B', subject: 'A\r\nBcc: x@evil.example' },
    });
    expect(subject.status).toBe(400);
    expect(subject.body.issues).toContainEqual({ path: 'subject', message: TEXT_MESSAGES.lineBreak });
  });

  it('query-string booleans read exactly "true" and "false"', async () => {
    const token = roles.admin.token;
    expect((await api(env, 'GET', '/api/users?is_active=false', { token })).status).toBe(200);
    expect((await api(env, 'GET', '/api/users?is_active=true', { token })).status).toBe(200);
    for (const v of ['1', '0', 'yes', 'False', 'on', '']) {
      const res = await api(env, 'GET', `/api/courses?is_active=${v}`, { token });
      // An empty value is dropped by the adapter (no filter); anything else but true/false is refused.
      expect(res.status, v).toBe(v === '' ? 200 : 400);
    }
    expect(await trpcStatus(admin().notifications.list({ unread_only: '1' } as never))).toBe(400);
    expect(await trpcStatus(admin().notifications.list({ unread_only: true } as never))).toBe(400);
  });
});
