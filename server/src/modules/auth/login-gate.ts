/**
 * The sign-in gate (docs/security.md "The sign-in gate"). It decides on the routed procedure, never on the URL's
 * spelling: Fastify has matched the route before onRequest hooks run, so a REST request names its procedure in the
 * route's config (http/rest.ts: the procedure's own route, or the catch-all's lenient match), and a /trpc request in
 * its path parameter as tRPC decodes it (once more than Fastify did), split into the calls of a batch. Every spelling
 * that reaches auth.login is gated; every other one is 404 (the routers' own answer).
 *
 * A sign-in from a source not known for any account (no known device cookie, no address that signed in before) takes
 * one of GATE_SLOTS places. With every place taken it is refused 429 at once (no counter, no hash), unless its body
 * carries a solved sign-in challenge (login-proof.ts): then it goes on without a place. A source known for some
 * account passes; the login service then asks whether it is known for the account being tried (core/sources.ts
 * resolveSource) and counts it as a stranger when it is not. So strangers cannot fill the server with work, and the
 * owner on a new device still gets in by solving a challenge.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, or } from 'drizzle-orm';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { knownSources } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { RestRouteConfig } from '../../http/rest.ts';
import { HASH_BUSY_MESSAGE } from '../../core/passwords.ts';
import { DEVICE_COOKIE_PATTERN, hashDevice, KNOWN_SOURCE_DAYS, readDeviceCookie } from '../../core/sources.ts';
import { looksSolved } from './login-proof.ts';

/** Sign-in requests from unknown sources in flight at once; beyond this they are refused. */
export const GATE_SLOTS = 16;
/** With the gate full, a sign-in body up to this size is read to look for a solved challenge; a larger one is refused. */
export const MAX_GATED_BODY = 16 * 1024;
export const SIGN_IN_PROCEDURE = 'auth.login';
/** The route of the /trpc transport (http/trpc.ts). */
const TRPC_ROUTE = '/trpc/:path';

/** A request routed to the sign-in procedure: its transport and the procedure path of each call. */
export interface SignInRequest {
  trpc: boolean;
  batch: boolean;
  paths: string[];
}

/** The sign-in calls of a routed request, or null when it calls no sign-in. */
export function signInRequest(req: FastifyRequest): SignInRequest | null {
  const route = req.routeOptions;
  if (route.url === TRPC_ROUTE) {
    const raw = (req.params as { path?: string } | undefined)?.path;
    // Most calls name other procedures in plain text: nothing to decode.
    if (raw === undefined || (!raw.includes('%') && !raw.includes(SIGN_IN_PROCEDURE))) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return null; // tRPC cannot decode it either: no procedure is called
    }
    const paths = decoded.split(',');
    return paths.includes(SIGN_IN_PROCEDURE) ? { trpc: true, batch: /[?&]batch=1(&|$)/.test(req.url), paths } : null;
  }
  const config = route.config as RestRouteConfig | undefined;
  const procedure = config?.procedure ?? config?.procedureOf?.(req) ?? null;
  return procedure === SIGN_IN_PROCEDURE ? { trpc: false, batch: false, paths: [procedure] } : null;
}

/**
 * A stranger's sign-in refused at the gate (its address over its limit, or every place taken) is answered after this
 * long (a timer, no work): a flood that waits for its answers (keep-alive connections) then sends at most one request
 * per connection per second. At most TARPIT_MAX wait at once; beyond that the answer is immediate.
 */
export const TARPIT_MS = 1_000;
const TARPIT_MAX = 2_000;

/** The one answer to an attempt over a limit, for known and unknown e-mails alike (docs/security.md "Same answer"). */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** How long the gate trusts its answer to "known for some account?" (a new known source waits at most this long). */
const KNOWN_CACHE_MS = 5_000;
const KNOWN_CACHE_MAX = 10_000;

/**
 * Addresses over their sign-in limit (`source:<address>`, auth.service.ts), per database, with the time the limit
 * lapses: their next sign-ins are refused at the gate with no database work, unless they carry a solved challenge.
 */
const addressesOverLimit = new WeakMap<Db, Map<string, number>>();

/** Called by the login service when an unknown source's address is over its limit until `until` (epoch ms). */
export function noteAddressOverLimit(db: Db, ip: string, until: number): void {
  let map = addressesOverLimit.get(db);
  if (!map) addressesOverLimit.set(db, (map = new Map()));
  if (map.size >= KNOWN_CACHE_MAX) {
    const now = Date.now();
    for (const [key, end] of map) if (end <= now) map.delete(key);
    if (map.size >= KNOWN_CACHE_MAX) map.clear();
  }
  map.set(ip, until);
}

function overLimitUntil(db: Db, ip: string, now: number): number | null {
  const map = addressesOverLimit.get(db);
  const until = map?.get(ip);
  if (until === undefined) return null;
  if (until > now) return until;
  map!.delete(ip);
  return null;
}

const knownCaches = new WeakMap<Db, Map<string, unknown>>();

/** A sign-in succeeded (a source may be newly known): the gate asks the database again (login and sign-in links call it). */
export function forgetKnownSources(db: Db): void {
  knownCaches.get(db)?.clear();
}

/** Known for some account (the fast path); whether it is known for the account being tried is the login service's. */
async function knownForSomeAccount(db: Db, req: FastifyRequest): Promise<boolean> {
  const since = new Date(Date.now() - KNOWN_SOURCE_DAYS * 86_400_000).toISOString();
  const device = readDeviceCookie(req.headers.cookie);
  const matches = [and(eq(knownSources.kind, 'address'), eq(knownSources.value, req.ip))];
  if (device && DEVICE_COOKIE_PATTERN.test(device)) {
    matches.push(and(eq(knownSources.kind, 'device'), eq(knownSources.value, hashDevice(device))));
  }
  const rows = await db
    .select({ id: knownSources.id })
    .from(knownSources)
    .where(and(or(...matches), gt(knownSources.last_used_at, since)))
    .limit(1);
  return rows.length > 0;
}

/** Every sign-in call of the body carries a solved challenge (signature and solution only: cheap). */
async function allSolved(config: Pick<Config, 'loginChallengeSecret'>, signIn: SignInRequest, body: unknown): Promise<boolean> {
  let input: unknown = body;
  if (signIn.trpc) {
    if (typeof body !== 'string') return false;
    try {
      input = JSON.parse(body);
    } catch {
      return false;
    }
  }
  const field = (value: unknown) => (value && typeof value === 'object' ? (value as { solution?: unknown }).solution : undefined);
  if (!signIn.batch) return looksSolved(config, field(input));
  if (!input || typeof input !== 'object') return false;
  for (const [i, path] of signIn.paths.entries()) {
    if (path === SIGN_IN_PROCEDURE && !(await looksSolved(config, field((input as Record<string, unknown>)[i])))) return false;
  }
  return true;
}

interface Refusal {
  signIn: SignInRequest;
  message: string;
  retryAfter: number;
  /** Answered after TARPIT_MS. */
  slow: boolean;
}

/** The refusal, shaped as each transport's clients read errors (the REST body, or tRPC's envelope per call). */
function refuse(reply: FastifyReply, { signIn, message, retryAfter }: Refusal): FastifyReply {
  void reply.code(429).header('retry-after', String(retryAfter)).header('cache-control', 'no-store').type('application/json');
  if (!signIn.trpc) return reply.send({ error: message, code: 'TOO_MANY_REQUESTS' });
  const error = {
    error: {
      message,
      code: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, appCode: 'TOO_MANY_REQUESTS', issues: null, path: SIGN_IN_PROCEDURE },
    },
  };
  return reply.send(signIn.batch ? signIn.paths.map(() => error) : error);
}

/**
 * The gate's two hooks (app.ts): `onRequest` (before the body is read: known sources pass, strangers take a place or,
 * with none left, wait for their body unless it is too large) and `preValidation` (the body read: a stranger without a
 * place passes only with a solved challenge). One function for both transports.
 */
export function loginGate(db: Db, config: Pick<Config, 'loginChallengeSecret'>) {
  let inFlight = 0;
  let tarpitted = 0;
  const held = new WeakMap<FastifyRequest, Refusal>();
  const answer = async (reply: FastifyReply, refusal: Refusal) => {
    if (!refusal.slow || tarpitted >= TARPIT_MAX) return refuse(reply, refusal);
    tarpitted++;
    try {
      await new Promise((resolve) => setTimeout(resolve, TARPIT_MS));
    } finally {
      tarpitted--;
    }
    return refuse(reply, refusal);
  };
  // "Known for some account?" by address and device cookie, for KNOWN_CACHE_MS: a flood costs no database read each.
  const known = new Map<string, { known: boolean; at: number }>();
  knownCaches.set(db, known);
  const isKnown = async (req: FastifyRequest, now: number) => {
    const key = `${req.ip}\u0000${readDeviceCookie(req.headers.cookie) ?? ''}`;
    const hit = known.get(key);
    if (hit && now - hit.at < KNOWN_CACHE_MS) return hit.known;
    const answer = await knownForSomeAccount(db, req);
    if (known.size >= KNOWN_CACHE_MAX) known.clear();
    known.set(key, { known: answer, at: now });
    return answer;
  };
  const gateSignIn = async (req: FastifyRequest, reply: FastifyReply, signIn: SignInRequest) => {
    const now = Date.now();
    if (await isKnown(req, now)) return;
    const until = overLimitUntil(db, req.ip, now);
    let refusal: Refusal;
    if (until !== null) {
      refusal = { signIn, message: tooManyAttemptsMessage(until - now), retryAfter: Math.ceil((until - now) / 1000), slow: true };
    } else if (inFlight < GATE_SLOTS) {
      inFlight++;
      reply.raw.once('close', () => inFlight--);
      return;
    } else refusal = { signIn, message: HASH_BUSY_MESSAGE, retryAfter: 1, slow: true };
    // Refused unless the body carries a solved challenge: read it when it is small, else refuse now.
    const length = Number(req.headers['content-length']);
    if (!(length > 0 && length <= MAX_GATED_BODY)) return answer(reply, refusal);
    held.set(req, refusal);
  };
  const checkHeld = async (req: FastifyRequest, reply: FastifyReply, refusal: Refusal) => {
    if (await allSolved(config, refusal.signIn, req.body)) return;
    return answer(reply, refusal);
  };
  // Callback hooks: every other request passes without a promise of its own (docs/performance.md "API throughput").
  return {
    onRequest(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) {
      const signIn = signInRequest(req);
      if (signIn === null) return done();
      gateSignIn(req, reply, signIn).then(() => done(), done);
    },
    preValidation(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) {
      const refusal = held.get(req);
      if (refusal === undefined) return done();
      checkHeld(req, reply, refusal).then(() => done(), done);
    },
  };
}
