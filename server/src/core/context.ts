import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Actor } from './audit.ts';
import type { ApiKeyCaller, AuthSession, AuthUser, DeviceCookie } from './identity.ts';

/** Long-lived, per-app collaborators shared by every request of one server instance. */
export interface AppServices {
  /** Applies settings.log_level to the running server log; set by buildApp (app.ts). */
  setLogLevel?: (level: string) => void;
}

export function createAppServices(): AppServices {
  return {};
}

/** Everything a procedure may use. Built per request (http/context.ts), or by tests with createContextInner. */
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
  /**
   * The API key of a REST call made with one (core/api-keys.ts): `user` is then the user the key acts as and
   * `session` is API_KEY_SESSION (no session row). Absent or null for a person.
   */
  apiKey?: ApiKeyCaller | null;
  /** The actor of audit entries written during this request, with the signed-in user's name and e-mail as of its start. */
  actor: Actor;
  /**
   * A REST PUT/PATCH's `If-Match` header (http/rest.ts sets it): the update compares it with the object's ETag inside
   * its transaction (`assertIfMatch`, http/etag.ts) and answers 412 when they differ. Absent everywhere else.
   */
  ifMatch?: string;
}

/** The session of a key's calls: no session row has this id, so nothing a session does touches a real one. */
export const API_KEY_SESSION: Readonly<AuthSession> = Object.freeze({ session_id: -1 });

/** A context whose caller is signed in: what authed procedures and the file routes receive. */
export type AuthedContext = Context & { user: AuthUser; session: AuthSession };

/** What a background job gets (jobs.ts starts them). */
export interface JobDeps {
  app: FastifyInstance;
  db: Db;
  config: Config;
  services: AppServices;
}
