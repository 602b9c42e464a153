import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Actor } from './audit.ts';
import { resolveSession, type AuthSession, type AuthUser } from '../modules/auth/sessions.ts';
import { deviceCookieOf, type DeviceCookie } from '../modules/auth/sources.ts';

/** Long-lived, per-app collaborators shared by every request of one server instance. */
export interface AppServices {
  /** Applies settings.log_level to the running server log; set by buildApp (app.ts). */
  setLogLevel?: (level: string) => void;
}

export function createAppServices(): AppServices {
  return {};
}

/** Everything a procedure may use. Built per request, or by tests with createContextInner. */
export interface Context {
  db: Db;
  config: Config;
  services: AppServices;
  ip: string | null;
  userAgent: string | null;
  /** The browser's device cookie (sign-in reads and sets it); null for createCaller. */
  device: DeviceCookie | null;
  /** How the request came: 'trpc' (the web app), 'rest' (API clients), null for createCaller. */
  channel: 'trpc' | 'rest' | null;
  user: AuthUser | null;
  session: AuthSession | null;
  /** The actor of audit entries written during this request. */
  actor: Actor;
}

export interface ContextInput {
  db: Db;
  config: Config;
  services: AppServices;
  ip?: string | null;
  userAgent?: string | null;
  token?: string | null;
  device?: DeviceCookie | null;
  channel?: 'trpc' | 'rest' | null;
}

/** The HTTP-free half of context creation: tests call it directly and hand the result to createCaller. */
export function createContextInner(input: ContextInput): Context {
  const ip = input.ip ?? null;
  const resolved = input.token ? resolveSession(input.db, input.token) : null;
  const user = resolved?.user ?? null;
  return {
    db: input.db,
    config: input.config,
    services: input.services,
    ip,
    userAgent: input.userAgent ?? null,
    device: input.device ?? null,
    channel: input.channel ?? null,
    user,
    session: resolved?.session ?? null,
    actor: { userId: user?.user_id ?? null, ip },
  };
}

export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return match?.[1] ?? null;
}

/** Context for a Fastify request (both /trpc and the REST adapter under /api use this). */
export function createContextFromRequest(db: Db, config: Config, services: AppServices, req: FastifyRequest): Context {
  return createContextInner({
    db,
    config,
    services,
    ip: req.ip ?? null,
    userAgent: req.headers['user-agent'] ?? null,
    token: bearerToken(req.headers.authorization),
    device: deviceCookieOf(req),
    channel: req.routeOptions?.url?.startsWith('/trpc') ? 'trpc' : 'rest',
  });
}
