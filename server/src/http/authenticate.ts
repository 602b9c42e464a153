import type { FastifyRequest } from 'fastify';
import type { PolicyAction } from '@lm/shared';
import type { AppServices, AuthedContext } from '../core/context.ts';
import { checkAccess } from '../core/access.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createContextFromRequest } from './context.ts';

export type { AuthedContext } from '../core/context.ts';

/**
 * The same access check as the procedure builders (core/access.ts), for the plain Fastify routes (file
 * downloads and uploads) that the REST adapter cannot serve: signed in, and the caller's role may do the
 * action of the access policy (shared/src/policy.ts; the route lists it in its FileRoutes `access`). Throws AppError.
 */
export async function authenticate(
  deps: { db: Db; config: Config; services: AppServices },
  req: FastifyRequest,
  action: PolicyAction,
): Promise<AuthedContext> {
  return checkAccess(await createContextFromRequest(deps.db, deps.config, deps.services, req), action);
}
