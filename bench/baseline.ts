/**
 * The bare baseline of `npm run bench:api` (bench/api.ts, docs/performance.md "API throughput"): the same work
 * as the product's list, dashboard and license-write endpoints, on the same data, without tRPC, the REST adapter,
 * zod or Drizzle: plain Fastify and prepared statements (better-sqlite3 on SQLite; node-postgres named statements
 * on PostgreSQL, a pool of 10 as the product has). Per request it looks the session up by the token's hash with its
 * user (and applies the product's expiry, idle and touch rules), runs the product's own SQL (copied from what
 * Drizzle sends) and answers JSON in the product's shapes, at the product's REST paths and, for the lists, at
 * /trpc/<procedure>?input=... in tRPC's envelope. Writes: one transaction inserting (or updating) the license and
 * its audit row, then the license read back with its holder's names (BEGIN IMMEDIATE and synchronous=FULL on
 * SQLite as the product commits; SERIALIZABLE with retries on PostgreSQL).
 *
 * Not for production: no validation beyond what keeps the bench honest, Admin scope only.
 *   BASELINE_DB=<file>  or  DATABASE_URL=postgres://...;  HOST, PORT.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import Database from 'better-sqlite3';
import pg from 'pg';
import { complianceOf, licenseStatusOn, localDateString, type LicenseStatus, type TopicMissing } from '@lm/shared';

type Row = Record<string, unknown>;

/** The engine-specific part: run one of the statements below by name. */
interface Store {
  all(name: StatementName, params: unknown[]): Promise<Row[]>;
  /** One transaction: `fn` gets a runner bound to it. */
  transaction<T>(fn: (run: (name: StatementName, params: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const LICENSE_COLUMNS = `"licenses"."license_id", "licenses"."user_id", "users"."first_name", "users"."last_name", "licenses"."license_number", "licenses"."state", "licenses"."license_type", "licenses"."issue_date", "licenses"."expiration_date", "licenses"."status", "licenses"."ce_hours_required", "licenses"."ce_hours_completed", "licenses"."cycle_start_date", "licenses"."renewed_at", "licenses"."created_at", "licenses"."updated_at", "licenses"."ce_topics_missing"`;

/** The product's statements, as Drizzle sends them (placeholders `?`; numbered for PostgreSQL; the page LIMIT as
 * db/sql.ts limitPlaceholder writes it). */
const STATEMENTS = {
  settings: `select "key", "value" from "settings"`,
  session: `select "sessions"."session_id", "sessions"."last_seen_at", "sessions"."expires_at", "sessions"."revoked_at", "users"."user_id", "users"."email", "users"."first_name", "users"."last_name", "users"."role_id", "users"."brokerage_id", "users"."is_active", "users"."deleted_at" from "sessions" inner join "users" on "users"."user_id" = "sessions"."user_id" where "sessions"."token_hash" = ?`,
  touch: `update "sessions" set "last_seen_at" = ? where ("sessions"."session_id" = ? and "sessions"."last_seen_at" < ?)`,
  licenses: `select ${LICENSE_COLUMNS} from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" order by "licenses"."expiration_date" asc, "licenses"."license_id" asc limit (? + 0) offset ?`,
  usersCount: `select count(*) as "n" from "users" where "users"."deleted_at" is null`,
  users: `select "users"."user_id", "users"."email", "users"."first_name", "users"."last_name", "users"."role_id", "users"."brokerage_id", "brokerages"."name" as "brokerage_name", "users"."phone_number", "users"."address", "users"."city", "users"."state", "users"."zip_code", "users"."is_active", "users"."created_at", "users"."last_login" from "users" left join "brokerages" on "brokerages"."brokerage_id" = "users"."brokerage_id" where "users"."deleted_at" is null order by "users"."last_name" COLLATE NOCASE asc, "users"."first_name" COLLATE NOCASE asc, "users"."user_id" asc limit (? + 0) offset ?`,
  payments: `select "payments"."payment_id", "payments"."user_id", "users"."first_name", "users"."last_name", "payments"."license_id", "licenses"."license_number", "payments"."amount_cents", "payments"."payment_type", "payments"."payment_method", "payments"."status", "payments"."description", "payments"."payment_date", "payments"."created_by", "payments"."created_at", "payments"."updated_at" from "payments" inner join "users" on "users"."user_id" = "payments"."user_id" left join "licenses" on "licenses"."license_id" = "payments"."license_id" order by "payments"."payment_date" desc, "payments"."payment_id" desc limit (? + 0) offset ?`,
  countUsers: `select count(*) as "n" from "users" where "users"."deleted_at" is null`,
  countLicenses: `select count(*) as "n" from "licenses"`,
  countExpiring: `select count(*) as "n" from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" where ("licenses"."status" IN (?, ?) AND "licenses"."expiration_date" >= ? AND "licenses"."expiration_date" <= ?)`,
  // The compliance summary (shared/src/compliance.ts), one count per state as the product's prepared counts.
  countExpired: `select count(*) as "n" from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" where "licenses"."expiration_date" < ?`,
  countComplete: `select count(*) as "n" from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" where ("licenses"."expiration_date" >= ? AND ("licenses"."ce_hours_completed" >= "licenses"."ce_hours_required" AND "licenses"."ce_topic_hours_missing" = 0))`,
  countAtRisk: `select count(*) as "n" from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" where ("licenses"."expiration_date" >= ? AND "licenses"."expiration_date" <= ? AND NOT ("licenses"."ce_hours_completed" >= "licenses"."ce_hours_required" AND "licenses"."ce_topic_hours_missing" = 0))`,
  countOnTrack: `select count(*) as "n" from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" where ("licenses"."expiration_date" > ? AND NOT ("licenses"."ce_hours_completed" >= "licenses"."ce_hours_required" AND "licenses"."ce_topic_hours_missing" = 0))`,
  countCourses: `select count(*) as "n" from "courses"`,
  countCompletions: `select count(*) as "n" from "completions"`,
  countPending: `select count(*) as "n" from "completions" where "completions"."status" = ?`,
  insertLicense: `insert into "licenses" ("user_id", "license_number", "state", "license_type", "issue_date", "expiration_date", "status", "ce_hours_required", "ce_hours_completed", "cycle_start_date", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
  storedLicense: `select * from "licenses" where "licenses"."license_id" = ?`,
  updateStatus: `update "licenses" set "status" = ?, "updated_at" = ? where "licenses"."license_id" = ? returning *`,
  insertAudit: `insert into "audit_logs" ("timestamp", "user_id", "action", "target_table", "target_id", "ip_address", "old_values", "new_values") values (?, ?, ?, ?, ?, ?, ?, ?)`,
  licenseWithHolder: `select ${LICENSE_COLUMNS} from "licenses" inner join "users" on "users"."user_id" = "licenses"."user_id" where "licenses"."license_id" = ?`,
} as const;
type StatementName = keyof typeof STATEMENTS;

function sqliteStore(file: string): Store {
  const db = new Database(file);
  // The product's pragmas (server/src/db/sqlite/driver.ts): WAL, durable commits.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  const prepared = new Map<StatementName, Database.Statement>();
  for (const name of Object.keys(STATEMENTS) as StatementName[]) prepared.set(name, db.prepare(STATEMENTS[name]));
  const run = (name: StatementName, params: unknown[]): Row[] => {
    const s = prepared.get(name)!;
    const values = params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
    if (s.reader) return s.all(...values) as Row[];
    s.run(...values);
    return [];
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    all: async (name, params) => run(name, params),
    // Writes take turns (the product's writer queue); each is synchronous between BEGIN IMMEDIATE and COMMIT here.
    transaction<T>(fn: (r: (name: StatementName, params: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T> {
      const job = async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const out = await fn(async (name, params) => run(name, params));
          db.exec('COMMIT');
          return out;
        } catch (err) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw err;
        }
      };
      const result = queue.then(job, job);
      queue = result.catch(() => undefined);
      return result;
    },
    close: async () => {
      db.close();
    },
  };
}

function pgStore(url: string): Store {
  // Counts as numbers; dates as their text; timestamps as ISO strings, as the product shows them.
  const types = {
    getTypeParser: (oid: number, format?: string) => {
      if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (v: string) => Number(v);
      if (oid === pg.types.builtins.DATE) return (v: string) => v;
      if (oid === pg.types.builtins.TIMESTAMPTZ) return (v: string) => new Date(v).toISOString();
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c TimeZone=UTC', application_name: 'bench-baseline', types });
  pool.on('error', () => undefined);
  const texts = new Map<StatementName, string>();
  for (const name of Object.keys(STATEMENTS) as StatementName[]) {
    let i = 0;
    texts.set(
      name,
      // The product's case-insensitive order (server/src/db/sql.ts caseInsensitive) is lower() on PostgreSQL.
      STATEMENTS[name].replace(/\?/g, () => `$${++i}`).replace(/("\w+"\."\w+") COLLATE NOCASE/g, 'lower($1)'),
    );
  }
  const on = async (c: pg.PoolClient | pg.Pool, name: StatementName, params: unknown[]) =>
    (await c.query({ name, text: texts.get(name)!, values: params })).rows as Row[];
  return {
    all: (name, params) => on(pool, name, params),
    async transaction<T>(fn: (r: (name: StatementName, params: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T> {
      const c = await pool.connect();
      try {
        for (let attempt = 1; ; attempt++) {
          await c.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          try {
            const out = await fn((name, params) => on(c, name, params));
            await c.query('COMMIT');
            return out;
          } catch (err) {
            await c.query('ROLLBACK');
            const code = (err as { code?: string }).code;
            if ((code !== '40001' && code !== '40P01') || attempt >= 30) throw err;
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
          }
        }
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}

const store: Store = process.env.DATABASE_URL ? pgStore(process.env.DATABASE_URL) : sqliteStore(process.env.BASELINE_DB!);

// Settings, read once as the product caches them (core/settings.ts defaults for what is not stored).
const settings = { session_timeout_minutes: 60, default_ce_hours: 0, license_expiry_warning_days: 30 };
for (const { key, value } of (await store.all('settings', [])) as Array<{ key: string; value: string }>) {
  if (key in settings) settings[key as keyof typeof settings] = Number(JSON.parse(value));
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TOUCH_INTERVAL_MS = 30_000;

/** The signed-in user of a request, by the product's rules (server/src/core/sessions.ts), or 401. */
async function signedIn(req: FastifyRequest): Promise<{ user_id: number; role_id: number }> {
  const match = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? '').trim());
  const token = match?.[1];
  if (!token || token.length > 200) throw new HttpError(401, 'Sign in');
  const hash = crypto.createHash('sha256').update(token).digest('hex');
  const [row] = await store.all('session', [hash]);
  if (!row || row.revoked_at || !row.is_active || row.deleted_at) throw new HttpError(401, 'Sign in');
  const now = Date.now();
  const lastSeen = Date.parse(row.last_seen_at as string);
  if (Date.parse(row.expires_at as string) <= now || lastSeen + settings.session_timeout_minutes * 60_000 <= now) {
    throw new HttpError(401, 'Sign in');
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    const seen = new Date(now).toISOString();
    await store.transaction((run) => run('touch', [seen, row.session_id, seen]));
  }
  if (row.role_id !== 1) throw new HttpError(403, 'The baseline serves Admins only');
  return { user_id: row.user_id as number, role_id: row.role_id as number };
}

/** limit and page from the query string (REST) or the JSON input (tRPC). */
function paging(req: FastifyRequest, trpc: boolean): { limit: number; offset: number } {
  const q = req.query as Record<string, string | undefined>;
  const input = trpc
    ? (JSON.parse(q.input ?? '{}') as { limit?: number; page?: number })
    : { limit: Number(q.limit), page: Number(q.page ?? 1) };
  const limit = Math.min(500, Math.max(1, Number(input.limit) || 50));
  const page = Math.max(1, Number(input.page) || 1);
  return { limit, offset: (page - 1) * limit };
}

const today = () => localDateString();
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const ROLE_NAMES: Record<number, string> = { 1: 'Admin', 2: 'Broker', 3: 'Agent', 4: 'School' };

/**
 * A license as the product answers it, on the office's date: the status it reads as and its compliance judgement,
 * from the same shared rules (the answer is the same, so the work is the same).
 */
function asLicense(row: Row | undefined, day = localDateString()): Row | undefined {
  if (!row) return row;
  const stored = row.ce_topics_missing;
  const topics = (typeof stored === 'string' ? JSON.parse(stored) : (stored ?? [])) as TopicMissing[];
  delete row.ce_topics_missing;
  row.compliance = complianceOf(
    {
      expiration_date: row.expiration_date as string,
      ce_hours_required: row.ce_hours_required as number,
      ce_hours_completed: row.ce_hours_completed as number,
      ce_topics_missing: topics,
    },
    day,
  );
  row.status = licenseStatusOn(row.status as LicenseStatus, row.expiration_date as string, day);
  return row;
}

const reads = {
  licenses: async (limit: number, offset: number) => {
    const day = localDateString();
    return (await store.all('licenses', [limit, offset])).map((r) => asLicense(r, day));
  },
  users: async (limit: number, offset: number) => {
    const [counted] = await store.all('usersCount', []);
    const rows = await store.all('users', [limit, offset]);
    const total = Number(counted!.n);
    const page = offset / limit + 1;
    return {
      users: rows.map((r) => ({ ...r, is_active: Boolean(r.is_active), role_name: ROLE_NAMES[r.role_id as number] })),
      pagination: { page, limit, total, pages: Math.ceil(total / limit) },
    };
  },
  payments: async (limit: number, offset: number) =>
    (await store.all('payments', [limit, offset])).map(({ amount_cents, ...r }) => ({
      ...r,
      amount: Math.round(amount_cents as number) / 100,
    })),
};

const app = Fastify({ logger: false });

for (const [name, read] of Object.entries(reads)) {
  app.get(`/api/${name}`, async (req) => {
    await signedIn(req);
    const { limit, offset } = paging(req, false);
    return read(limit, offset);
  });
  app.get(`/trpc/${name}.list`, async (req) => {
    await signedIn(req);
    const { limit, offset } = paging(req, true);
    return { result: { data: await read(limit, offset) } };
  });
}

app.get('/api/dashboard/stats', async (req) => {
  await signedIn(req);
  const n = async (name: StatementName, params: unknown[] = []) => Number((await store.all(name, params))[0]!.n);
  const from = today();
  return {
    role: 'Admin',
    total_users: await n('countUsers'),
    total_licenses: await n('countLicenses'),
    expiring_licenses: await n('countExpiring', ['Active', 'Pending Renewal', from, addDays(from, settings.license_expiry_warning_days)]),
    expiring_window_days: settings.license_expiry_warning_days,
    total_courses: await n('countCourses'),
    total_completions: await n('countCompletions'),
    pending_completions: await n('countPending', ['Pending']),
    compliance: {
      at_risk: await n('countAtRisk', [from, addDays(from, 90)]),
      expired: await n('countExpired', [from]),
      on_track: await n('countOnTrack', [addDays(from, 90)]),
      complete: await n('countComplete', [from]),
    },
  };
});

const auditValues = (actor: number, ip: string, action: string, id: number, old: unknown, next: unknown) => [
  new Date().toISOString(),
  actor,
  action,
  'licenses',
  id,
  ip,
  old === null ? null : JSON.stringify(old),
  JSON.stringify(next),
];

app.post('/api/licenses', async (req) => {
  const user = await signedIn(req);
  const b = req.body as Record<string, unknown>;
  if (typeof b.license_number !== 'string' || typeof b.state !== 'string' || typeof b.user_id !== 'number')
    throw new HttpError(400, 'Bad body');
  const now = new Date().toISOString();
  return store.transaction(async (run) => {
    const [row] = await run('insertLicense', [
      b.user_id,
      b.license_number,
      b.state,
      b.license_type ?? 'Sales',
      b.issue_date,
      b.expiration_date,
      b.status ?? 'Active',
      b.ce_hours_required ?? settings.default_ce_hours,
      0,
      b.issue_date,
      now,
      now,
    ]);
    await run('insertAudit', auditValues(user.user_id, req.ip, 'create', row!.license_id as number, null, row));
    return asLicense((await run('licenseWithHolder', [row!.license_id]))[0]);
  });
});

app.put<{ Params: { id: string } }>('/api/licenses/:id', async (req, reply: FastifyReply) => {
  const user = await signedIn(req);
  const id = Number(req.params.id);
  const b = req.body as Record<string, unknown>;
  if (!Number.isInteger(id) || typeof b.status !== 'string') throw new HttpError(400, 'Bad body');
  const out = await store.transaction(async (run) => {
    const [old] = await run('storedLicense', [id]);
    if (!old) return undefined;
    const [next] = await run('updateStatus', [b.status, new Date().toISOString(), id]);
    await run('insertAudit', auditValues(user.user_id, req.ip, 'update', id, old, next));
    return asLicense((await run('licenseWithHolder', [id]))[0]);
  });
  if (!out) return reply.code(404).send({ error: 'License not found', code: 'NOT_FOUND' });
  return out;
});

app.get('/api/health', async () => ({ status: 'ok' }));

app.setErrorHandler((err, _req, reply) => {
  const status = err instanceof HttpError ? err.status : 500;
  if (status >= 500) console.error(err);
  void reply.code(status).send({ error: err instanceof Error ? err.message : String(err) });
});

const shutdown = async () => {
  await app.close();
  await store.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`Baseline listening on ${process.env.PORT}`);
