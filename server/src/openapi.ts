import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { roleMay } from '@lm/shared';
import { appRouter } from './router.ts';
import { ERROR_CODES, type AppErrorCode } from './base/errors.ts';
import type { ProcedureMeta } from './core/trpc.ts';
import { fileRoutePaths } from './routes.ts';

/**
 * The OpenAPI document of /api (docs/api.md). trpc-to-openapi generates the paths; this module then
 * makes the error side true, in one place:
 *   - one `Error` schema, the body toErrorBody() really sends: {error, code, issues?: [{path, message}]};
 *   - per operation, every status it can answer, derived from the procedure (errorCodesOf below);
 *   - public operations (publicProcedure, no `security` on a plain route) carry `security: []`.
 * server/test/contract checks every answer of the running server against this document.
 */

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: unknown; $ref?: string }>;
}

/** The response component name and description of each error code. */
const ERROR_RESPONSES: Record<AppErrorCode, { name: string; description: string }> = {
  BAD_REQUEST: {
    name: 'BadRequest',
    description: 'Invalid input (or a body that is not a JSON object): `error` says what is wrong, `issues` names each field',
  },
  UNAUTHORIZED: { name: 'Unauthorized', description: 'Not signed in, or the token expired or was revoked' },
  FORBIDDEN: { name: 'Forbidden', description: 'Signed in, but your role may not do this' },
  NOT_FOUND: { name: 'NotFound', description: 'No such object, or it is outside your scope' },
  CONFLICT: { name: 'Conflict', description: 'Conflicts with existing data (a duplicate, or an object still in use)' },
  PAYLOAD_TOO_LARGE: { name: 'PayloadTooLarge', description: 'The request body is larger than 1 MiB' },
  UNSUPPORTED_MEDIA_TYPE: { name: 'UnsupportedMediaType', description: 'Send the request body as application/json' },
  TOO_MANY_REQUESTS: {
    name: 'TooManyRequests',
    description: 'Throttled or locked out; the Retry-After header gives the seconds to wait',
  },
  INSUFFICIENT_STORAGE: {
    name: 'InsufficientStorage',
    description: 'The server\'s disk is full: the change was not saved (docs/security.md "Faults")',
  },
  SERVICE_UNAVAILABLE: { name: 'ServiceUnavailable', description: 'Maintenance mode: only Admins may use the API' },
  INTERNAL_SERVER_ERROR: { name: 'InternalServerError', description: 'Unexpected server error (no details are sent)' },
};

const BODY_METHODS = new Set<Method>(['post', 'put', 'patch']);

/**
 * The error codes an operation can answer: from its method and inputs (400, 413, 415), its builder
 * (401 signed in; 403 a role check; 503 maintenance unless Admin only), a path id (404), and the codes
 * its meta.errors names for its service (409, 404 for ids in the body, 429...). Always 500.
 */
export function errorCodesOf(meta: ProcedureMeta, method: Method, op: Operation, path: string): AppErrorCode[] {
  const codes = new Set<AppErrorCode>(['INTERNAL_SERVER_ERROR']);
  if (BODY_METHODS.has(method)) {
    codes.add('BAD_REQUEST').add('PAYLOAD_TOO_LARGE').add('UNSUPPORTED_MEDIA_TYPE');
  } else if ((op.parameters?.length ?? 0) > 0) {
    codes.add('BAD_REQUEST');
  }
  const access = meta.access;
  if (access?.authed) {
    codes.add('UNAUTHORIZED');
    if (access.roles) codes.add('FORBIDDEN');
    // 503 in maintenance mode, unless every role of the operation may use the app then (the policy's 'system.maintenance').
    if (!access.roles || !access.roles.every((r) => roleMay(r, 'system.maintenance'))) codes.add('SERVICE_UNAVAILABLE');
    // 429: the user's fair share of calls in flight, or an action's creation quota (core/fair-share.ts).
    codes.add('TOO_MANY_REQUESTS');
  }
  if (path.includes('{')) codes.add('NOT_FOUND');
  for (const c of meta.errors ?? []) codes.add(c);
  return [...codes].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
}

const errorSchema = {
  type: 'object',
  description: 'Every error answer of the API (4xx and 5xx). Never a stack trace.',
  required: ['error', 'code'],
  additionalProperties: false,
  properties: {
    error: { type: 'string', description: 'A human message, safe to show to the user' },
    code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Machine-readable; matches the HTTP status' },
    issues: {
      type: 'array',
      description: 'Validation errors (400): one per invalid field; path is dot-separated ("" for the whole body)',
      items: {
        type: 'object',
        required: ['path', 'message'],
        additionalProperties: false,
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

function withErrors(op: Operation, codes: AppErrorCode[]) {
  const success = Object.fromEntries(Object.entries(op.responses).filter(([s]) => Number(s) < 400));
  const errors = Object.fromEntries(
    codes.map((c) => [String(ERROR_CODES[c].status), { $ref: `#/components/responses/${ERROR_RESPONSES[c].name}` }]),
  );
  op.responses = { ...success, ...errors };
}

function procedureMetas(): Map<string, ProcedureMeta> {
  const out = new Map<string, ProcedureMeta>();
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>;
  for (const proc of Object.values(procedures)) {
    const meta = proc._def.meta;
    if (meta?.openapi && meta.openapi.enabled !== false) {
      out.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
    }
  }
  return out;
}

function build(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'License Manager API',
    description:
      'REST API of License Manager. Sign in with POST /api/auth/login to get a token, then send it as ' +
      '`Authorization: Bearer <token>`. Errors are `{ error, code, issues? }` (the `Error` schema) with a matching ' +
      'HTTP status; each operation lists the statuses it can answer.',
    version: '1.0.0',
    baseUrl: '/api',
    docsUrl: '/api/docs',
    securitySchemes: { Authorization: { type: 'http', scheme: 'bearer', description: 'Token from POST /api/auth/login' } },
    paths: fileRoutePaths as ZodOpenApiPathsObject,
  });

  const metas = procedureMetas();
  const plainPaths = new Set(Object.keys(fileRoutePaths));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<Method, Operation>) as Array<[Method, Operation]>) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const meta = metas.get(`${method} ${path}`);
      if (meta) {
        if (!meta.access?.authed) op.security = [];
        withErrors(op, errorCodesOf(meta, method, op, path));
      } else if (plainPaths.has(path)) {
        // Plain Fastify routes (routes.ts) list their own statuses; give them the Error body and a 500.
        if (!op.security || op.security.length === 0) op.security = [];
        for (const [status, res] of Object.entries(op.responses)) {
          if (Number(status) >= 400) res.content = errorContent;
        }
        op.responses['500'] = { $ref: `#/components/responses/${ERROR_RESPONSES.INTERNAL_SERVER_ERROR.name}` };
      }
    }
  }

  const components = (doc.components ??= {});
  const schemas = Object.fromEntries(Object.entries(components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  components.schemas = { ...schemas, Error: errorSchema as never };
  components.responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES).map((r) => [r.name, { description: r.description, content: errorContent }]),
  );
  return doc;
}

let cached: OpenAPIObject | undefined;

/** The OpenAPI document: every REST procedure plus the plain Fastify routes (health, file downloads). */
export function openApiDocument(): OpenAPIObject {
  cached ??= build();
  return cached;
}
