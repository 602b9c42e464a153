import { roleName, type RoleName } from '@lm/shared';
import type { AuthedContext, Context } from './context.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';
import { isAdmin } from './identity.ts';
import { getSettings } from './settings.ts';

export const MAINTENANCE_MESSAGE = 'The system is under maintenance. Please try again later.';

/** Maintenance mode turns everyone but Admins away (503). */
export async function assertNotInMaintenance(ctx: Pick<Context, 'db'>, user: { role_id: number }): Promise<void> {
  if (!isAdmin(user) && (await getSettings(ctx.db)).maintenance_mode) throw new AppError('SERVICE_UNAVAILABLE', MAINTENANCE_MESSAGE);
}

/**
 * The one access check (docs/security.md): signed in (401), not turned away by maintenance mode (503),
 * and one of `roles` when given (403). Used by the procedure builders (core/trpc.ts), the file routes
 * (http/authenticate.ts) and sign-in (maintenance only).
 */
export async function checkAccess(ctx: Context, roles?: readonly RoleName[]): Promise<AuthedContext> {
  if (!ctx.user || !ctx.session) throw unauthorized();
  await assertNotInMaintenance(ctx, ctx.user);
  if (roles && !roles.includes(roleName(ctx.user.role_id))) throw forbidden();
  return ctx as AuthedContext;
}
