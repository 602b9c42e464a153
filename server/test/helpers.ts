import crypto from 'node:crypto';
/**
 * Test harness: a real database built from the real migrations (a SQLite file; with TEST_DATABASE_URL a
 * PostgreSQL database of its own), the real app (for app.inject on the REST paths) and createCaller for
 * the tRPC path. No mocks.
 */
import yauzl from 'yauzl';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ROLE, type RoleName } from '@lm/shared';
import { loadConfig, type Config } from '../src/config.ts';
import { ENGINE, openDatabase, type Db } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { brokerages, users } from '../src/db/schema/index.ts';
import { createAppServices, type AppServices } from '../src/core/context.ts';
import { createContextInner } from '../src/http/context.ts';
import { hashPassword } from '../src/core/passwords.ts';
import { createCallerFactory } from '../src/core/trpc.ts';
import { appRouter } from '../src/router.ts';
import { createSession } from '../src/core/sessions.ts';
import type { FastifyInstance } from 'fastify';
import { toErrorBody } from '../src/base/errors.ts';
import { backgroundSettled } from '../src/core/background.ts';
import { createTestDatabase } from './pg.ts';

export const TEST_PASSWORD = 'Passw0rd!Test';

export interface TestEnv {
  app: FastifyInstance;
  db: Db;
  config: Config;
  services: AppServices;
  dir: string;
  close: () => Promise<void>;
}

/**
 * The environment variables of a test server: a temp DATA_DIR holding a copy of the run's migrated database
 * (server/test/global-setup.ts; the server's own migration then finds nothing to do) and, on the PostgreSQL pass,
 * a fresh database cloned from the migrated template.
 */
export async function testServerEnv(dir: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const env: Record<string, string> = { DATA_DIR: dir, SCHEDULER: 'off', CLIENT_DIST: path.join(dir, 'no-client') };
  const template = inject('migratedTemplate');
  if (ENGINE !== 'postgres') {
    fs.copyFileSync(template, path.join(dir, 'license-manager.db'));
    return { env, drop: async () => {} };
  }
  const created = await createTestDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!, template);
  return { env: { ...env, DATABASE_URL: created.url }, drop: created.drop };
}

export async function createTestEnv(env: Record<string, string> = {}): Promise<TestEnv> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-test-'));
  const server = await testServerEnv(dir);
  const config = loadConfig({ ...server.env, ...env });
  const db = await openDatabase(config);
  const services = createAppServices();
  const { app } = await buildApp({ config, db, services, logger: false });
  await app.ready();
  return {
    app,
    db,
    config,
    services,
    dir,
    close: async () => {
      // Work after an answer (e-mails, core/background.ts) finishes before its database closes under it.
      await backgroundSettled();
      await app.close();
      await db.close();
      await server.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let cachedHash: Promise<string> | undefined;
function testPasswordHash() {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  return cachedHash;
}

let counter = 0;
export interface SeededUser {
  user_id: number;
  email: string;
  password: string;
  role_id: number;
  brokerage_id: number | null;
}

/** Inserts a user directly (the users domain is tested through its own API). */
export async function seedUser(
  env: Pick<TestEnv, 'db'>,
  role: RoleName,
  fields: Partial<{
    email: string;
    first_name: string;
    last_name: string;
    brokerage_id: number | null;
    is_active: boolean;
    password: string;
  }> = {},
): Promise<SeededUser> {
  counter++;
  const password = fields.password ?? TEST_PASSWORD;
  const hash = fields.password ? await hashPassword(fields.password) : await testPasswordHash();
  const email = fields.email ?? `${role.toLowerCase()}${counter}-${Date.now()}@test.example`;
  const [row] = await env.db.transaction((tx) =>
    tx
      .insert(users)
      .values({
        email,
        password_hash: hash,
        first_name: fields.first_name ?? role,
        last_name: fields.last_name ?? `User${counter}`,
        role_id: ROLE[role],
        brokerage_id: fields.brokerage_id ?? null,
        is_active: fields.is_active ?? true,
      })
      .returning(),
  );
  return { user_id: row!.user_id, email, password, role_id: row!.role_id, brokerage_id: row!.brokerage_id };
}

export async function seedBrokerage(env: Pick<TestEnv, 'db'>, name = `Brokerage ${++counter}`): Promise<number> {
  const [row] = await env.db.transaction((tx) => tx.insert(brokerages).values({ name }).returning());
  return row!.brokerage_id;
}

/** A live session token for a user, without going through login. */
export async function tokenFor(env: Pick<TestEnv, 'db'>, userId: number): Promise<string> {
  return (await env.db.transaction((tx) => createSession(tx, userId, { ip: '127.0.0.1', userAgent: 'vitest' }))).token;
}

const createCaller = createCallerFactory(appRouter);

/** The tRPC path: a caller acting as the user (or signed out with null). */
export function callerFor(env: Pick<TestEnv, 'db' | 'config' | 'services'>, userId: number | null) {
  let context: ReturnType<typeof createContextInner> | undefined;
  // The session is created on the first call, once, and every call of this caller uses it.
  return createCaller(
    () =>
      (context ??= (async () => {
        const token = userId === null ? null : await tokenFor(env, userId);
        return createContextInner({ db: env.db, config: env.config, services: env.services, ip: '127.0.0.1', token });
      })()),
  );
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** The REST path through app.inject. */
export async function api<T = any>(
  env: Pick<TestEnv, 'app'>,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  opts: { token?: string | null; body?: unknown; headers?: Record<string, string>; ip?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await env.app.inject({
    method,
    url,
    headers,
    remoteAddress: opts.ip,
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
  let body: any = res.body;
  if ((res.headers['content-type'] ?? '').toString().includes('application/json') && res.body) body = JSON.parse(res.body);
  return { status: res.statusCode, body, headers: res.headers };
}

export async function login(env: Pick<TestEnv, 'app'>, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await api(env, 'POST', '/api/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** One signed-in user of each role, plus a brokerage for the Broker and Agent. */
export async function seedRoles(env: TestEnv) {
  const brokerageId = await seedBrokerage(env, 'Main Street Realty');
  const admin = await seedUser(env, 'Admin');
  const broker = await seedUser(env, 'Broker', { brokerage_id: brokerageId });
  const agent = await seedUser(env, 'Agent', { brokerage_id: brokerageId });
  const school = await seedUser(env, 'School');
  return {
    brokerageId,
    admin: { ...admin, token: await tokenFor(env, admin.user_id) },
    broker: { ...broker, token: await tokenFor(env, broker.user_id) },
    agent: { ...agent, token: await tokenFor(env, agent.user_id) },
    school: { ...school, token: await tokenFor(env, school.user_id) },
  };
}

/** The HTTP status a tRPC call ends with (200 on success), through the same mapping REST uses. */
export async function trpcStatus(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    return toErrorBody(err).status;
  }
}

export type Roles = Awaited<ReturnType<typeof seedRoles>>;

/**
 * The one per-file setup: a test environment and one signed-in user of each role, created before the
 * file's tests and closed after them. Read `t.env` and `t.roles` inside tests (they exist once beforeAll ran).
 */
export function useTestEnv(vars: Record<string, string> = {}): { env: TestEnv; roles: Roles } {
  const t = {} as { env: TestEnv; roles: Roles };
  beforeAll(async () => {
    t.env = await createTestEnv(vars);
    t.roles = await seedRoles(t.env);
  }, 60_000);
  afterAll(async () => t.env?.close());
  return t;
}

export type RoleKey = 'admin' | 'broker' | 'agent' | 'school';
export const ROLE_KEYS: RoleKey[] = ['admin', 'broker', 'agent', 'school'];

/**
 * The one role-matrix shape: for each role, one test per path (REST through app.inject, tRPC through
 * createCaller) that runs the same actions and expects one status per action. `expected[role]` is a status
 * for every action or one status per action.
 */
export function roleMatrix(
  t: { env: TestEnv; roles: Roles },
  name: string,
  expected: Record<RoleKey, number | number[]>,
  paths: {
    rest?: (token: string, who: RoleKey) => Promise<number[]>;
    trpc?: (caller: ReturnType<typeof callerFor>, who: RoleKey) => Promise<number[]>;
  },
): void {
  const want = (who: RoleKey, n: number) => {
    const e = expected[who];
    return Array.isArray(e) ? e : Array<number>(n).fill(e);
  };
  for (const who of ROLE_KEYS) {
    if (paths.rest) {
      it(`${name}: REST as ${who}`, async () => {
        const got = await paths.rest!(t.roles[who].token, who);
        expect(got).toEqual(want(who, got.length));
      });
    }
    if (paths.trpc) {
      it(`${name}: tRPC as ${who}`, async () => {
        const got = await paths.trpc!(callerFor(t.env, t.roles[who].user_id), who);
        expect(got).toEqual(want(who, got.length));
      });
    }
  }
}

/** The CSV reader of the tests (csv.ts, which e2e imports too). */
export { parseCsv } from './csv.ts';

/** Every entry of a zip (a backup, an audit pack), by name. */
export function readZip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** An upload's file: its form field (`file` unless named), name, bytes and type (application/octet-stream unless given). */
export interface MultipartFile {
  name: string;
  data: Buffer;
  type?: string;
  field?: string;
}

/** A multipart/form-data body for app.inject: the text fields, then the file if there is one. */
export function multipartBody(
  fields: Record<string, string | number>,
  file?: MultipartFile,
): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = `----lmtest${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads a CE certificate through POST /api/documents as `token`'s user (201) and answers its document id. */
export async function uploadCertificate(env: Pick<TestEnv, 'app'>, token: string, name: string, data: Buffer): Promise<number> {
  const { payload, headers } = multipartBody({ category: 'ce_certificate' }, { name, data });
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/documents',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  if (res.statusCode !== 201) throw new Error(`upload of ${name} answered ${res.statusCode}: ${res.body}`);
  return (JSON.parse(res.body) as { document_id: number }).document_id;
}
