import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getTRPCErrorFromUnknown, TRPCError, type AnyProcedure, type AnyRouter } from '@trpc/server';
import {
  acceptsRequestBody,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  normalizePath,
  unwrapZodType,
  type OpenApiMethod,
  type OpenApiProcedureRecord,
} from 'trpc-to-openapi';
import { AppError, toErrorBody } from '../base/errors.ts';
import type { Context } from '../core/context.ts';
import type { ProcedureMeta } from '../core/trpc.ts';
import { etagOf, IF_MATCH_UNSUPPORTED_MESSAGE, noneMatch } from './etag.ts';
import { callerOf, claimKey, IDEMPOTENCY_HEADER, idempotencyKeyOf, REPLAYED_HEADER, requestHash, settleKey } from './idempotency.ts';

export const NOT_AN_OBJECT_MESSAGE = 'The request body must be a JSON object';

/**
 * Every REST body is a JSON object (docs/api.md). The adapter spreads a body into its input, so an
 * array, string or number would otherwise pass as {} (or as {"0": ...}); refuse it with 400 before
 * any handler runs. A body-less POST is parsed as {} (app.ts) and passes.
 */
function rejectNonObjectBodies(app: FastifyInstance) {
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return done();
    if (!String(req.headers['content-type'] ?? '').includes('application/json')) return done();
    const body: unknown = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return done(new AppError('BAD_REQUEST', NOT_AN_OBJECT_MESSAGE));
    }
    done();
  });
}

type Input = Record<string, unknown>;
type Params = Record<string, string | undefined>;

/** One published procedure, with everything its calls need worked out once, at start-up. */
interface RestProcedure {
  /** The router path ('licenses.list'): tRPC's `path` for the call and the log. */
  path: string;
  type: 'query' | 'mutation';
  procedure: AnyProcedure;
  /** POST, PUT, PATCH: the input comes from the JSON body; GET, DELETE: from the query string. */
  useBody: boolean;
  /** The input schema is void-like: the procedure gets no input at all. */
  noInput: boolean;
  /** Query keys whose schema is an array (or an optional one): a single value becomes [value]. */
  arrayKeys: string[];
  /** The published path, as the OpenAPI document has it ('/licenses/{id}'). */
  openapiPath: string;
  /** POST: an Idempotency-Key header is honoured (http/idempotency.ts). */
  idempotent: boolean;
  /** GET of one object (the path ends in a parameter): answers an ETag and honours If-None-Match (http/etag.ts). */
  etag: boolean;
  /** PUT/PATCH whose service checks If-Match (meta.errors names PRECONDITION_FAILED); If-Match elsewhere is a 400. */
  ifMatch: boolean;
}

function isArraySchema(schema: unknown): boolean {
  const def = (schema as { _zod?: { def?: { type?: string; innerType?: unknown } } })._zod?.def;
  if (def?.type === 'array') return true;
  return def?.type === 'optional' && (def.innerType as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'array';
}

/**
 * The per-procedure facts trpc-to-openapi worked out on every call, computed once. Query strings and path
 * parameters arrive as text: the shared schemas declare `z.coerce` for their numbers (docs/architecture.md
 * "The REST adapter"; server/test/rest-coercion.test.ts checks every published input).
 */
function describeProcedure(path: string, procedure: AnyProcedure, method: OpenApiMethod, openapiPath: string): RestProcedure {
  const useBody = acceptsRequestBody(method);
  const { inputParser } = getInputOutputParsers(procedure as never);
  const unwrapped = unwrapZodType(inputParser, true);
  const arrayKeys: string[] = [];
  if (!useBody && instanceofZodTypeObject(unwrapped)) {
    for (const [key, shape] of Object.entries(unwrapped.shape)) if (isArraySchema(shape)) arrayKeys.push(key);
  }
  const meta = procedure._def.meta as ProcedureMeta | undefined;
  return {
    path,
    type: procedure._def.type as 'query' | 'mutation',
    procedure,
    useBody,
    noInput: instanceofZodTypeLikeVoid(unwrapped),
    arrayKeys,
    openapiPath,
    idempotent: method === 'POST',
    etag: method === 'GET' && /\{\w+\}$/.test(openapiPath),
    ifMatch: (method === 'PUT' || method === 'PATCH') && !!meta?.errors?.includes('PRECONDITION_FAILED'),
  };
}

/**
 * The input of a call, as trpc-to-openapi built it: the body (POST, PUT, PATCH) or the query string
 * (repeated keys are arrays, a one-element array is its element, empty values are dropped, array-typed
 * keys always arrays), then the path parameters over it.
 */
function restInput(entry: RestProcedure, body: unknown, query: unknown, params: Params | null): Input | undefined {
  if (entry.noInput) return undefined;
  let input: Input;
  if (entry.useBody) {
    input = { ...(body as Input) };
  } else {
    input = {};
    const q = query as Input;
    for (const key in q) {
      const value = q[key];
      if (value) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
    }
  }
  if (params) for (const key in params) input[key] = params[key];
  for (const key of entry.arrayKeys) {
    const value = input[key];
    if (value !== undefined && !Array.isArray(value)) input[key] = [value];
  }
  return input;
}

/**
 * What a REST route tells the hooks before any body is read (route config): the procedure it calls, or for the
 * catch-all, how to find it. The sign-in gate (modules/auth/login-gate.ts) decides on this, not on the URL's spelling.
 */
export interface RestRouteConfig {
  procedure?: string;
  procedureOf?: (request: FastifyRequest) => string | null;
}
declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends RestRouteConfig {}
}

const unknownRoute = toErrorBody(new TRPCError({ code: 'NOT_FOUND', message: 'Not found' }));

/**
 * Publishes the tRPC routers as REST under the scope's prefix (/api): one Fastify route per procedure
 * with OpenAPI meta (its method, its path with `{id}` as `:id`), so Fastify's router does the matching,
 * and the procedure is called directly with the request's context. Answers: the data as JSON (200), or
 * toErrorBody() of whatever was thrown, the one mapping /trpc uses too. A catch-all answers the rest of
 * the scope as trpc-to-openapi did: its lenient match (any letter case, a trailing slash), else 404.
 * trpc-to-openapi itself only generates the OpenAPI document (openapi.ts).
 */
export function registerRestAdapter(
  app: FastifyInstance,
  opts: { router: AnyRouter; prefix: string; createContext: (req: FastifyRequest) => unknown },
) {
  rejectNonObjectBodies(app);

  async function handle(entry: RestProcedure, params: Params | null, request: FastifyRequest, reply: FastifyReply) {
    // A claimed Idempotency-Key (http/idempotency.ts): the answer, whatever it is, settles it.
    let claimed: { ctx: Context; caller: string; key: string } | null = null;
    const settle = async (status: number, data: unknown) => {
      if (!claimed) return;
      const { ctx, caller, key } = claimed;
      claimed = null;
      await settleKey(ctx.db, caller, key, status, data).catch((err: unknown) =>
        request.log.error({ err, path: entry.path }, 'idempotency key not settled'),
      );
    };
    try {
      if (entry.useBody) {
        const contentType = request.headers['content-type'];
        if (!contentType?.startsWith('application/json')) {
          throw new TRPCError({
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header',
          });
        }
      }
      const input = restInput(entry, request.body, request.query, params);
      const ctx = (await opts.createContext(request)) as Context;
      const ifMatch = request.headers['if-match'];
      if (ifMatch !== undefined && entry.useBody) {
        if (!entry.ifMatch) throw new AppError('BAD_REQUEST', IF_MATCH_UNSUPPORTED_MESSAGE);
        ctx.ifMatch = ifMatch;
      }
      if (entry.idempotent) {
        const key = idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]);
        const caller = key === null ? null : callerOf(ctx);
        if (key !== null && caller !== null) {
          const claim = await claimKey(ctx.db, caller, key, requestHash(request.method, entry.path, input));
          if (claim.kind === 'replay') {
            return reply.code(claim.status).header(REPLAYED_HEADER, 'true').type('application/json').send(claim.body);
          }
          claimed = { ctx, caller, key };
        }
      }
      const data: unknown = await entry.procedure({
        ctx,
        path: entry.path,
        type: entry.type,
        getRawInput: async () => input,
        signal: undefined,
        batchIndex: 0,
      });
      await settle(200, data);
      if (entry.etag) {
        const etag = etagOf(data);
        void reply.header('etag', etag);
        if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      }
      // Fastify serializes an object once; a string (or nothing) would go out as text, so it is JSON-encoded here.
      if (data === undefined || typeof data === 'string') return reply.type('application/json').send(JSON.stringify(data));
      return reply.send(data);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const { status, body, retryAfter } = toErrorBody(error);
      if (status === 500) request.log.error({ err: error, path: entry.path }, 'rest procedure failed');
      await settle(status, body);
      if (retryAfter) void reply.header('retry-after', String(retryAfter));
      return reply.code(status).type('application/json').send(body);
    }
  }

  /** trpc-to-openapi's own match, for what Fastify's exact routes did not take: method -> [path pattern, procedure]. */
  const lenient = new Map<string, Array<{ pattern: RegExp; entry: RestProcedure }>>();

  forEachOpenApiProcedure(opts.router._def.procedures as OpenApiProcedureRecord, ({ path, procedure, meta: { openapi } }) => {
    if (procedure._def.type === 'subscription') return;
    const openapiPath = normalizePath(openapi.path);
    const entry = describeProcedure(path, procedure as unknown as AnyProcedure, openapi.method, openapiPath);
    const url = openapiPath.replace(/\{(\w+)\}/g, ':$1');
    const list = lenient.get(openapi.method) ?? [];
    list.push({ pattern: getPathRegExp(openapiPath), entry });
    lenient.set(openapi.method, list);
    // A plain route (routes.ts) on the same method and path keeps it, as it did before.
    if (app.hasRoute({ method: openapi.method, url: opts.prefix + url })) return;
    const hasParams = url.includes(':');
    app.route({
      method: openapi.method,
      url,
      // Fastify would add HEAD for a GET: no HEAD anywhere under /api, as before.
      exposeHeadRoute: false,
      config: { procedure: path },
      handler: (request, reply) => handle(entry, hasParams ? (request.params as Params) : null, request, reply),
    });
  });

  // Static segments first, as Fastify's router prefers them, so the lenient match agrees with it.
  const staticFirst = (a: string, b: string) => {
    const sa = a.split('/');
    const sb = b.split('/');
    for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
      const pa = sa[i]!.startsWith('{');
      const pb = sb[i]!.startsWith('{');
      if (pa !== pb) return pa ? 1 : -1;
    }
    return 0;
  };
  for (const list of lenient.values()) list.sort((a, b) => staticFirst(a.entry.openapiPath, b.entry.openapiPath));

  const lenientMatch = (request: FastifyRequest): { entry: RestProcedure; params: Params | null } | null => {
    const raw = request.url.startsWith(opts.prefix) ? request.url.slice(opts.prefix.length) || '/' : request.url;
    const path = normalizePath(new URL(raw.startsWith('/') ? `http://127.0.0.1${raw}` : raw).pathname);
    for (const { pattern, entry } of lenient.get(request.method) ?? []) {
      const match = pattern.exec(path);
      if (match) return { entry, params: match.groups ?? null };
    }
    return null;
  };

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    exposeHeadRoute: false,
    config: { procedureOf: (request) => lenientMatch(request)?.entry.path ?? null },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const match = lenientMatch(request);
      if (match) return handle(match.entry, match.params, request, reply);
      return reply.code(unknownRoute.status).type('application/json').send(unknownRoute.body);
    },
  });
}
