/**
 * tRPC init and the procedure builders every domain router uses:
 *   publicProcedure      anyone
 *   authedProcedure      signed in (401 otherwise); maintenance mode answers 503 to non-Admins
 *   roleProcedure(...)   signed in with one of the roles (403 otherwise)
 *   adminProcedure       roleProcedure('Admin')
 * Errors are shaped once, by toErrorBody(), for both /trpc and the REST adapter.
 */
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { RoleName } from '@lm/shared';
import type { AuthedContext, Context } from './context.ts';
import { toErrorBody, type AppErrorCode } from './errors.ts';
import { checkAccess } from './access.ts';

export { MAINTENANCE_MESSAGE } from './access.ts';
export type { AuthedContext } from './context.ts';

/**
 * Procedure meta: `openapi` (REST path, trpc-to-openapi) plus what the OpenAPI document derives each
 * operation's error statuses from (server/src/http/openapi.ts, docs/api.md):
 *   access  set by the builders below: who may call (never set it by hand)
 *   errors  codes the service may answer beyond those the builder and input imply, e.g. CONFLICT,
 *           NOT_FOUND for an id in the body, FORBIDDEN for an ownership rule, TOO_MANY_REQUESTS
 */
export type ProcedureMeta = OpenApiMeta<{
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

export const authedProcedure = t.procedure.meta({ access: { authed: true } }).use(async ({ ctx, next }) => {
  await checkAccess(ctx);
  return next<SignedIn>({});
});

export function roleProcedure(...roles: RoleName[]) {
  return t.procedure.meta({ access: { authed: true, roles } }).use(async ({ ctx, next }) => {
    await checkAccess(ctx, roles);
    return next<SignedIn>({});
  });
}

export const adminProcedure = roleProcedure('Admin');
