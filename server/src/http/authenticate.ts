import type { FastifyRequest } from 'fastify';
import { roleName, type RoleName } from '@lm/shared';
import type { AppServices, Context } from '../core/context.ts';
import { createContextFromRequest } from '../core/context.ts';
import { AppError, forbidden, unauthorized } from '../core/errors.ts';
import { getSettings } from '../core/settings.ts';
import { MAINTENANCE_MESSAGE } from '../core/trpc.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AuthSession, AuthUser } from '../modules/auth/sessions.ts';

export type AuthedContext = Context & { user: AuthUser; session: AuthSession };

/**
 * The same session, maintenance and role checks as the procedure builders, for the plain Fastify
 * routes (file downloads and uploads) that the REST adapter cannot serve. Throws AppError.
 */
export function authenticate(
  deps: { db: Db; config: Config; services: AppServices },
  req: FastifyRequest,
  roles?: RoleName[],
): AuthedContext {
  const ctx = createContextFromRequest(deps.db, deps.config, deps.services, req);
  if (!ctx.user || !ctx.session) throw unauthorized();
  if (ctx.user.role_id !== 1 && getSettings(ctx.db).maintenance_mode) throw new AppError('SERVICE_UNAVAILABLE', MAINTENANCE_MESSAGE);
  if (roles && !roles.includes(roleName(ctx.user.role_id))) throw forbidden();
  return ctx as AuthedContext;
}
