/**
 * tRPC init and the procedure builders every domain router uses, each named by its action of the access policy
 * (shared/src/policy.ts, docs/security.md "Access policy"), which says who may:
 *   policyProcedure(action)  a public action: anyone; else signed in (401), not in maintenance mode (503 but for
 *                            'system.maintenance'), and of one of the action's roles (403)
 *   authedProcedure(action)  an action every signed-in role may do: signed in (401) and maintenance only (no 403)
 *   publicProcedure          the bare builder, for tests: a router's procedure without an action fails policy.test.ts
 * Errors are shaped once, by toErrorBody(), for both /trpc and the REST adapter.
 */
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import {
  isOpenToEveryRole,
  isPolicyAction,
  isPublicAction,
  rolesFor,
  type PolicyAction,
  type PublicAction,
  type RoleName,
} from '@lm/shared';
import type { AuthedContext, Context } from './context.ts';
import { AppError, toErrorBody, type AppErrorCode } from '../base/errors.ts';
import { checkAccess } from './access.ts';
import { takeQuota, withFairShare } from './fair-share.ts';

export { MAINTENANCE_MESSAGE } from './access.ts';
export type { AuthedContext } from './context.ts';

/**
 * Procedure meta: `openapi` (REST path, trpc-to-openapi) plus what the OpenAPI document derives each
 * operation's error statuses from (server/src/openapi.ts, docs/api.md):
 *   policy  set by the builders below: the action of the access policy (never set it by hand)
 *   access  set by the builders below: who may call, the action's roles (never set it by hand)
 *   errors  codes the service may answer beyond those the builder and input imply, e.g. CONFLICT,
 *           NOT_FOUND for an id in the body, FORBIDDEN for an ownership rule, TOO_MANY_REQUESTS
 */
export type ProcedureMeta = OpenApiMeta<{
  policy?: PolicyAction;
  access?: { authed: true; roles?: RoleName[] };
  errors?: AppErrorCode[];
}>;

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const { status, body } = toErrorBody(error);
      // No stack, no internal message: only what toErrorBody allows out.
      return {
        message: body.error,
        code: shape.code,
        data: { code: shape.data.code, httpStatus: status, appCode: body.code, issues: body.issues ?? null },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const publicProcedure = t.procedure;

/**
 * checkAccess passes the same context on, proven signed in: `next` gets the narrowed type but no ctx object, so
 * tRPC hands the context on as it is instead of copying its keys into a new one on every call
 * (docs/performance.md "API throughput").
 */
type SignedIn = Pick<AuthedContext, 'user' | 'session'>;

function known(action: PolicyAction): PolicyAction {
  if (!isPolicyAction(action))
    throw new AppError('INTERNAL_SERVER_ERROR', `No access policy for "${String(action)}" (shared/src/policy.ts)`);
  return action;
}

/**
 * Every signed-in call, on /trpc and /api alike: the action's creation quota, then the user's fair share of calls
 * in flight (core/fair-share.ts, docs/security.md "Bounded work per request").
 */
function bounded<T>(ctx: AuthedContext, action: PolicyAction, run: () => Promise<T>): Promise<T> {
  takeQuota(ctx.services, ctx.user, action);
  return withFairShare(ctx.services, ctx.user.user_id, run);
}

/**
 * An action every signed-in role may do (its policy entry lists all four roles): 401 signed out, 503 in
 * maintenance mode, never 403 from the builder (the OpenAPI document declares none).
 */
export function authedProcedure(action: PolicyAction) {
  if (!isOpenToEveryRole(known(action)) || isPublicAction(action)) {
    throw new AppError('INTERNAL_SERVER_ERROR', `authedProcedure('${action}'): not an action of every signed-in role; use policyProcedure`);
  }
  return t.procedure.meta({ policy: action, access: { authed: true } }).use(async ({ ctx, next }) => {
    const authed = await checkAccess(ctx, action);
    return bounded(authed, action, () => next<SignedIn>({}));
  });
}

function gated(action: PolicyAction) {
  return t.procedure.meta({ policy: action, access: { authed: true, roles: [...rolesFor(action)] } }).use(async ({ ctx, next }) => {
    const authed = await checkAccess(ctx, action);
    return bounded(authed, action, () => next<SignedIn>({}));
  });
}

/**
 * The procedure of one action: a public action as publicProcedure (no check); any other one signed in, out of
 * maintenance mode and of one of the action's roles (403), which meta.access lists for the OpenAPI document.
 */
export function policyProcedure(action: PublicAction): typeof t.procedure;
export function policyProcedure(action: Exclude<PolicyAction, PublicAction>): ReturnType<typeof gated>;
export function policyProcedure(action: PolicyAction) {
  return isPublicAction(known(action)) ? t.procedure.meta({ policy: action }) : gated(action);
}
