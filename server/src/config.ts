import path from 'node:path';

/** Every environment variable the server reads (README lists them for operators). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databasePath: string;
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
  /** Trust X-Forwarded-For from a reverse proxy. */
  trustProxy: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://${linkHost}:${port}`).replace(/\/+$/, ''),
    corsOrigins: (env.CORS_ORIGIN ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    clientDist: path.resolve(env.CLIENT_DIST ?? path.join(import.meta.dirname, '../../client/dist')),
    production: env.NODE_ENV === 'production',
    scheduler: env.SCHEDULER !== 'off',
    trustProxy: env.TRUST_PROXY === 'true',
  };
}
