import { can, type PolicyAction } from '@lm/shared';
import type { AuthedContext, Context } from './context.ts';
import type { AuthUser } from './identity.ts';
import { AppError, forbidden, unauthorized } from '../base/errors.ts';
import { getSettings } from './settings.ts';
import { assertKeyMay } from './api-keys.ts';

export const MAINTENANCE_MESSAGE = 'The system is under maintenance. Please try again later.';

/** Maintenance mode turns away everyone the policy does not let in (503; 'system.maintenance': Admins). */
export async function assertNotInMaintenance(ctx: Pick<Context, 'db'>, user: Pick<AuthUser, 'role_id'>): Promise<void> {
  if (!can(user, 'system.maintenance') && (await getSettings(ctx.db)).maintenance_mode) {
    throw new AppError('SERVICE_UNAVAILABLE', MAINTENANCE_MESSAGE);
  }
}

/**
 * The one access check (docs/security.md "Access policy"): signed in (401), not turned away by maintenance mode
 * (503), and the caller's role may do `action` (403; the policy of shared/src/policy.ts), and an API key's scope
 * allows it (403). Used by the procedure
 * builders (core/trpc.ts), the file routes (http/authenticate.ts) and sign-in (maintenance only).
 */
export async function checkAccess(ctx: Context, action: PolicyAction): Promise<AuthedContext> {
  if (!ctx.user || !ctx.session) throw unauthorized();
  await assertNotInMaintenance(ctx, ctx.user);
  if (!can(ctx.user, action)) throw forbidden();
  // An API key's scope (a read key: no writes) and what only a person may do (docs/decisions.md "API keys").
  if (ctx.apiKey) assertKeyMay(ctx.apiKey, action);
  return ctx as AuthedContext;
}
