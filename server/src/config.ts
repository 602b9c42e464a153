import net from 'node:net';
import path from 'node:path';
import { ROOT } from './paths.ts';
import { AppError } from './base/errors.ts';
import type { LogFormat } from './core/log.ts';

/** Every environment variable the server reads (README lists them for operators). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The SQLite file (the default backend). */
  databasePath: string;
  /** postgres://… selects PostgreSQL instead (docs/architecture.md "Data layer"). */
  databaseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  /** The app's address as people reach it (links in e-mails), without a trailing slash. */
  publicUrl: string;
  /** Origins allowed by CORS; empty means CORS is off (same-origin only). */
  corsOrigins: string[];
  /** Where the built client lives; served at / with history fallback. */
  clientDist: string;
  production: boolean;
  /** Start the reminder scheduler (off in tests, which call it directly). */
  scheduler: boolean;
  /**
   * Which reverse proxies to believe about the client address and protocol (X-Forwarded-For/-Proto):
   * false (none), a number of hops, or the proxies' addresses/CIDRs. Never "any" (docs/security.md).
   */
  trustProxy: false | number | string[];
  /** LOG_FORMAT: `json` lines, or `pretty` for a person (the default when stdout is a terminal; core/log.ts). */
  logFormat: LogFormat;
  /**
   * LOGIN_CHALLENGE_SECRET: signs the sign-in challenges (docs/security.md "Sign-in"); every instance on one database
   * needs the same one. Unset: a random secret per process (one instance).
   */
  loginChallengeSecret?: string | undefined;
  /**
   * API_KEY_RATE_LIMIT requests per API_KEY_RATE_WINDOW seconds for each API key (default 600 per 60; docs/api.md
   * "Rate limits"), shared by every instance on PostgreSQL.
   */
  apiKeyRateLimit: { max: number; windowSeconds: number };
  /**
   * WEBHOOK_ALLOW_PRIVATE=true: webhook URLs may point to private, loopback and link-local addresses (tests, a
   * receiver on the same network). Off: refused at create and at every send (docs/security.md "Webhooks").
   */
  webhookAllowPrivate: boolean;
  /** WEBHOOK_WORKER=off: this instance queues webhook deliveries but does not send them (another instance does). */
  webhookWorker: boolean;
  /**
   * BACKUP_UPLOAD_LIMIT_MB: the largest backup zip an upload may send (default 8192 MB), apart from Settings › File
   * Uploads (documents and imports); a bigger one is restored from a file on the server (`npm run db:restore`).
   */
  backupUploadLimitMb: number;
}

const TRUST_PROXY_HELP =
  'TRUST_PROXY must be false, the number of proxies in front of the server (e.g. 1), or their addresses (e.g. 10.0.0.5,10.1.0.0/16 or loopback)';

/** Parses TRUST_PROXY. `true` is refused: it would believe any client's X-Forwarded-For. */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') {
    throw new AppError(
      'BAD_REQUEST',
      `TRUST_PROXY=true is no longer accepted: it believed any client's X-Forwarded-For, so anyone could pick their address. ${TRUST_PROXY_HELP}.`,
    );
  }
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(item)) continue;
    const [address, bits, ...rest] = item.split('/');
    const family = net.isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !okBits || rest.length > 0)
      throw new AppError('BAD_REQUEST', `TRUST_PROXY: "${item}" is not an address or CIDR. ${TRUST_PROXY_HELP}.`);
  }
  return list;
}

/** Parses LOG_FORMAT: unset, pretty on a terminal and JSON otherwise (a service, journald, a file). */
export function parseLogFormat(value: string | undefined, isTTY: boolean): LogFormat {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return isTTY ? 'pretty' : 'json';
  if (v === 'json' || v === 'pretty') return v;
  throw new AppError('BAD_REQUEST', `LOG_FORMAT must be json or pretty (unset: pretty on a terminal, json otherwise), not "${value}"`);
}

/** BACKUP_UPLOAD_LIMIT_MB's default: room for a backup of a million licenses (about 1.1 GB) several times over. */
export const DEFAULT_BACKUP_UPLOAD_LIMIT_MB = 8192;

/** A positive whole number from the environment, or its default when unset. */
function positiveInt(name: string, value: string | undefined, fallback: number): number {
  const v = (value ?? '').trim();
  if (v === '') return fallback;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1_000_000_000)
    throw new AppError('BAD_REQUEST', `${name} must be a whole number of at least 1, not "${value}"`);
  return Number(v);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, isTTY = process.stdout.isTTY === true): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? '127.0.0.1';
  // 0.0.0.0 and :: are "every interface", not an address a browser can open.
  const linkHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    port,
    host,
    dataDir,
    databasePath: path.resolve(env.DATABASE_PATH ?? path.join(dataDir, 'license-manager.db')),
    databaseUrl: env.DATABASE_URL || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://${linkHost}:${port}`).replace(/\/+$/, ''),
    corsOrigins: (env.CORS_ORIGIN ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    clientDist: path.resolve(env.CLIENT_DIST ?? path.join(ROOT, 'client/dist')),
    production: env.NODE_ENV === 'production',
    scheduler: env.SCHEDULER !== 'off',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logFormat: parseLogFormat(env.LOG_FORMAT, isTTY),
    loginChallengeSecret: env.LOGIN_CHALLENGE_SECRET || undefined,
    apiKeyRateLimit: {
      max: positiveInt('API_KEY_RATE_LIMIT', env.API_KEY_RATE_LIMIT, 600),
      windowSeconds: positiveInt('API_KEY_RATE_WINDOW', env.API_KEY_RATE_WINDOW, 60),
    },
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookWorker: env.WEBHOOK_WORKER !== 'off',
    backupUploadLimitMb: positiveInt('BACKUP_UPLOAD_LIMIT_MB', env.BACKUP_UPLOAD_LIMIT_MB, DEFAULT_BACKUP_UPLOAD_LIMIT_MB),
  };
}
