/**
 * The sign-in gate (docs/security.md "Fair hashing"). Before a sign-in request is even parsed, one from a
 * source that is not known (no device cookie and no address that signed in to some account before) takes
 * one of GATE_SLOTS places; with every place taken it is answered 429 at once, for almost no work. A flood
 * from strangers therefore cannot queue work in front of everyone else's requests (the signed-in users'
 * calls stay fast), while known sources always pass. Behind the gate, the attempt counters and the
 * priority hash queue apply as before (auth.service.ts login).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, or } from 'drizzle-orm';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { knownSources } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { HASH_BUSY_MESSAGE } from '../../core/passwords.ts';
import { DEVICE_COOKIE_PATTERN, hashDevice, KNOWN_SOURCE_DAYS, readDeviceCookie } from '../../core/sources.ts';

/** Sign-in requests from unknown sources in flight at once; beyond this they are refused. */
export const GATE_SLOTS = 16;

/** The procedures of a sign-in request, or null when it is not one (REST login, or tRPC calls naming auth.login). */
function signInCalls(req: FastifyRequest): number | null {
  if (req.method !== 'POST') return null;
  const url = req.url.split('?')[0]!;
  if (url === '/api/auth/login') return 1;
  if (!url.startsWith('/trpc/')) return null;
  const calls = decodeURIComponent(url.slice('/trpc/'.length)).split(',');
  return calls.includes('auth.login') ? calls.length : null;
}

async function isKnownSource(db: Db, req: FastifyRequest): Promise<boolean> {
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

/** The refusal, shaped as each transport's clients read errors (the REST body, or tRPC's envelope per call). */
function refuse(reply: FastifyReply, url: string, calls: number): FastifyReply {
  void reply.code(429).header('retry-after', '1').header('cache-control', 'no-store').type('application/json');
  if (url.startsWith('/api')) return reply.send({ error: HASH_BUSY_MESSAGE, code: 'TOO_MANY_REQUESTS' });
  const error = {
    error: {
      message: HASH_BUSY_MESSAGE,
      code: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, appCode: 'TOO_MANY_REQUESTS', issues: null, path: 'auth.login' },
    },
  };
  return reply.send(/[?&]batch=1/.test(url) ? Array.from({ length: calls }, () => error) : error);
}

/** Registers the gate as an onRequest hook of the app (app.ts). */
export function loginGate(db: Db) {
  let inFlight = 0;
  return async function gate(req: FastifyRequest, reply: FastifyReply) {
    const calls = signInCalls(req);
    if (calls === null || (await isKnownSource(db, req))) return;
    if (inFlight >= GATE_SLOTS) return refuse(reply, req.url, calls);
    inFlight++;
    reply.raw.once('close', () => inFlight--);
  };
}
