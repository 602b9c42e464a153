/**
 * API keys on the REST paths (docs/api.md "API keys"): an onRequest hook of every route under /api (the REST
 * adapter's and the plain file routes alike; never /trpc) that takes `Authorization: Bearer lmk_…`, resolves the key
 * (401 at once when unknown or revoked), counts it against its rate limit (RateLimit-Limit, -Remaining, -Reset on
 * every answer; 429 with Retry-After past it) and leaves it on the request for createContextFromRequest, which makes
 * the key's user the caller of the same access check and scope as a person's (core/access.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AppServices } from '../core/context.ts';
import { INVALID_KEY_MESSAGE, looksLikeApiKey, rateLimitedMessage, resolveApiKey, takeKeyRate } from '../core/api-keys.ts';
import { AppError, unauthorized } from '../base/errors.ts';
import { bearerToken, setApiKey } from './context.ts';

export function apiKeyHook(deps: { db: Db; config: Config; services: AppServices }) {
  const withKey = async (req: FastifyRequest, reply: FastifyReply, token: string): Promise<void> => {
    const key = await resolveApiKey(deps.db, token, req.method);
    if (!key) throw unauthorized(INVALID_KEY_MESSAGE);
    const limit = deps.config.apiKeyRateLimit;
    const rate = await takeKeyRate(deps, key.api_key_id, limit);
    void reply.header('ratelimit-limit', String(rate.limit));
    void reply.header('ratelimit-remaining', String(rate.remaining));
    void reply.header('ratelimit-reset', String(rate.reset));
    if (rate.over) throw new AppError('TOO_MANY_REQUESTS', rateLimitedMessage(limit, rate.reset), { retryAfter: rate.reset });
    setApiKey(req, key);
  };
  // A callback hook: a request without a key passes without a promise of its own (docs/performance.md "API throughput").
  return (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const token = bearerToken(req.headers.authorization);
    if (!token || !looksLikeApiKey(token)) return done();
    withKey(req, reply, token).then(() => done(), done);
  };
}
