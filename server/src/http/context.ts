import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { API_KEY_SESSION, type AppServices, type Context } from '../core/context.ts';
import { anonymousActor, apiKeyActor, userActor } from '../core/audit.ts';
import type { ApiKeyCaller, DeviceCookie } from '../core/identity.ts';
import { looksLikeApiKey } from '../core/api-keys.ts';
import { resolveSession } from '../core/sessions.ts';
import { deviceCookieOf } from '../core/sources.ts';

export interface ContextInput {
  db: Db;
  config: Config;
  services: AppServices;
  ip?: string | null;
  userAgent?: string | null;
  token?: string | null;
  device?: DeviceCookie | null;
  channel?: 'trpc' | 'rest' | null;
  /** The request's API key, resolved by the /api hook (http/api-key.ts); never on /trpc. */
  apiKey?: ApiKeyCaller | null;
}

/** The HTTP-free half of context creation: tests call it directly and hand the result to createCaller. */
export async function createContextInner(input: ContextInput): Promise<Context> {
  const ip = input.ip ?? null;
  const key = input.apiKey ?? null;
  // A key is never tried as a session token (on /trpc an API key is simply not signed in).
  const resolved = key
    ? { user: key.user, session: API_KEY_SESSION }
    : input.token && !looksLikeApiKey(input.token)
      ? await resolveSession(input.db, input.token)
      : null;
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
    apiKey: key,
    // The name and e-mail come from the session read above (no query of their own): audit entries keep them.
    actor: key ? apiKeyActor(key, ip) : user ? userActor(user, ip) : anonymousActor(ip),
  };
}

export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return match?.[1] ?? null;
}

const apiKeys = new WeakMap<FastifyRequest, ApiKeyCaller>();

/** Leaves the request's resolved API key for its context (the /api hook, http/api-key.ts). */
export function setApiKey(req: FastifyRequest, key: ApiKeyCaller): void {
  apiKeys.set(req, key);
}

/** Context for a Fastify request (both /trpc and the REST adapter under /api use this). */
export function createContextFromRequest(db: Db, config: Config, services: AppServices, req: FastifyRequest): Promise<Context> {
  return createContextInner({
    db,
    config,
    services,
    ip: req.ip ?? null,
    userAgent: req.headers['user-agent'] ?? null,
    token: bearerToken(req.headers.authorization),
    device: deviceCookieOf(req),
    channel: req.routeOptions?.url?.startsWith('/trpc') ? 'trpc' : 'rest',
    apiKey: apiKeys.get(req) ?? null,
  });
}
