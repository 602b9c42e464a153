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
  CONFLICT: {
    name: 'Conflict',
    description:
      'Conflicts with existing data (a duplicate, or an object still in use), or an Idempotency-Key reused for another request or still in progress',
  },
  PRECONDITION_FAILED: {
    name: 'PreconditionFailed',
    description: "If-Match does not match the object's current ETag: it changed since you read it; nothing was changed",
  },
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
  // An Idempotency-Key reused for another request, or still in progress (http/idempotency.ts).
  if (method === 'post' && access?.authed) codes.add('CONFLICT');
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

interface Published {
  /** The router path ('licenses.get'), the operationId's source. */
  path: string;
  meta: ProcedureMeta;
}

function procedureMetas(): Map<string, Published> {
  const out = new Map<string, Published>();
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>;
  for (const [path, proc] of Object.entries(procedures)) {
    const meta = proc._def.meta;
    if (meta?.openapi && meta.openapi.enabled !== false) {
      out.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, { path, meta });
    }
  }
  return out;
}

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : capital(w))).join('');

/** A procedure's operationId: its router path in camelCase ('licenses.get' -> 'licensesGet'). Stable as long as the name is. */
export const operationIdOfProcedure = (path: string): string => camel(path.split('.'));

/**
 * A plain route's operationId: its path's fixed words in camelCase, prefixed by the method unless GET
 * ('GET /licenses/export' -> 'licensesExport', 'POST /documents/{id}/versions' -> 'postDocumentsVersions').
 */
export function operationIdOfPlainRoute(method: Method, path: string): string {
  const words = path
    .replace(/\{[^}]+\}/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method === 'get' ? camel(words) : camel([method, ...words]);
}

/** Every tag an operation may use, defined once at the top of the document with what it holds. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Sign-in, sign-out, the current user, passwords and sessions',
  users: 'People: Admins, Brokers, Agents and Schools, in your scope',
  brokerages: 'Brokerages and their people',
  licenses: 'Real-estate licenses: their holders, dates, status, CE hours and compliance; renewals and adjustments',
  courses: 'CE courses offered by schools',
  completions: 'Course completions, their review and the CE credit they give',
  'ce-rules': "Each state's CE rule: hours per cycle and required topics",
  payments: 'Payments: fees, dues and what was paid',
  documents: 'Uploaded documents and certificates, their versions and downloads',
  reports: 'Reports and their CSV exports',
  dashboard: 'Figures for the dashboard',
  audit: 'The audit log: who changed what',
  audit_logs: 'The audit log export',
  notifications: "Each user's notification centre, preferences and calendar feed",
  'notification-management': 'Notification templates and the delivery history (Admin)',
  notification_templates: 'Notification templates export (Admin)',
  notification_history: 'Notification delivery history export (Admin)',
  settings: 'Office settings',
  backups: 'Backups and restores (Admin)',
  system: 'Health and system information',
  imports: 'Bulk imports from CSV and Excel files',
  'api-keys': 'API keys for integrations',
  webhooks: 'Webhook endpoints and their deliveries',
  deletions: 'Tombstones of deleted objects, for a sync',
};

/** The two ways to call a protected operation: both are `Authorization: Bearer <token>` (docs/api.md "Authentication"). */
const SECURITY_SCHEMES = {
  Authorization: {
    type: 'http',
    scheme: 'bearer',
    description: 'A session token from POST /api/auth/login (a person; expires with the session)',
  },
  ApiKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key created under Settings › Integrations (an integration; limited to its scopes and brokerage)',
  },
} as const;
const PROTECTED: Array<Record<string, string[]>> = [{ Authorization: [] }, { ApiKey: [] }];

const etagHeader = {
  description: 'A strong validator of this answer: send it back in If-None-Match (GET) or If-Match (PUT/PATCH)',
  schema: { type: 'string' },
};
const ifNoneMatch = {
  in: 'header',
  name: 'If-None-Match',
  required: false,
  description: 'The ETag of a copy you hold: 304 Not Modified (no body) while it is still current',
  schema: { type: 'string' },
};
const ifMatch = {
  in: 'header',
  name: 'If-Match',
  required: false,
  description: "The ETag you read (GET): 412 and nothing changes when the object changed since ('*' matches any)",
  schema: { type: 'string' },
};
const idempotencyKey = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'A unique key (1-255 visible ASCII characters, e.g. a UUID) per intended change: the same key with the same body within 24 hours answers the first answer again and changes nothing; with another body 409',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const replayedHeader = {
  description: "'true' when this is the stored answer of an earlier request with the same Idempotency-Key",
  schema: { type: 'string', enum: ['true'] },
};

/** An example license as GET /licenses/{id} answers it. */
const LICENSE_EXAMPLE = {
  license_id: 42,
  user_id: 7,
  first_name: 'Dana',
  last_name: 'Lopez',
  license_number: 'SA-1048576',
  state: 'CA',
  license_type: 'Sales',
  issue_date: '2025-03-01',
  expiration_date: '2027-03-01',
  status: 'Active',
  ce_hours_required: 45,
  ce_hours_completed: 12,
  cycle_start_date: '2025-03-01',
  renewed_at: null,
  created_at: '2025-03-01T16:20:00.000Z',
  updated_at: '2026-01-15T09:02:11.000Z',
  compliance: {
    state: 'on_track',
    hours_remaining: 33,
    topics_missing: [{ topic: 'Ethics', hours: 3 }],
    days_left: 450,
  },
};
const LICENSE_CREATE_EXAMPLE = {
  user_id: 7,
  license_number: 'SA-1048576',
  state: 'CA',
  license_type: 'Sales',
  issue_date: '2025-03-01',
  expiration_date: '2027-03-01',
};

/** Examples on the main operations (docs/api.md): "method path" -> the request body's and the answer's. */
const EXAMPLES: Record<string, { request?: unknown; response: unknown }> = {
  'get /licenses': { response: [LICENSE_EXAMPLE] },
  'get /licenses/{id}': { response: LICENSE_EXAMPLE },
  'post /licenses': { request: LICENSE_CREATE_EXAMPLE, response: LICENSE_EXAMPLE },
};

type MediaObject = { schema?: unknown; example?: unknown };
type Content = Record<string, MediaObject>;

function addExamples(op: Operation, key: string) {
  const example = EXAMPLES[key];
  if (!example) return;
  const json = (op.responses['200']?.content as Content | undefined)?.['application/json'];
  if (json) json.example = example.response;
  const body = (op.requestBody as { content?: Content } | undefined)?.content?.['application/json'];
  if (body && example.request) body.example = example.request;
}

/**
 * The conditional and idempotent requests of the REST adapter (http/rest.ts), per operation: GET of one object
 * answers an ETag and 304; a PUT/PATCH whose service checks If-Match takes it; a signed-in POST takes an
 * Idempotency-Key.
 */
function addRequestHeaders(op: Operation, method: Method, path: string, meta: ProcedureMeta) {
  const ok = op.responses['200'] as { headers?: Record<string, unknown> } | undefined;
  if (method === 'get' && /\{\w+\}$/.test(path)) {
    op.parameters = [...(op.parameters ?? []), ifNoneMatch];
    if (ok) ok.headers = { ...ok.headers, ETag: etagHeader };
    op.responses['304'] = {
      description: 'Not modified: the copy named in If-None-Match is current',
      headers: { ETag: etagHeader },
    } as never;
  }
  if ((method === 'put' || method === 'patch') && meta.errors?.includes('PRECONDITION_FAILED')) {
    op.parameters = [...(op.parameters ?? []), ifMatch];
  }
  if (method === 'post' && meta.access?.authed) {
    op.parameters = [...(op.parameters ?? []), idempotencyKey];
    if (ok) ok.headers = { ...ok.headers, 'Idempotent-Replayed': replayedHeader };
  }
}

function build(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'License Manager API',
    description:
      'REST API of License Manager. Sign in with POST /api/auth/login to get a token (or use an API key), then send it as ' +
      '`Authorization: Bearer <token>`. Writes take an `Idempotency-Key`; GETs of one object answer an `ETag`; lists ' +
      'take `updated_since` (docs/api.md). Errors are `{ error, code, issues? }` (the `Error` schema) with a matching ' +
      'HTTP status; each operation lists the statuses it can answer.',
    version: '1.0.0',
    baseUrl: '/api',
    docsUrl: '/api/docs',
    securitySchemes: SECURITY_SCHEMES as never,
    paths: fileRoutePaths as ZodOpenApiPathsObject,
  });

  const metas = procedureMetas();
  const plainPaths = new Set(Object.keys(fileRoutePaths));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<Method, Operation>) as Array<[Method, Operation]>) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const published = metas.get(`${method} ${path}`);
      const withId = op as Operation & { operationId?: string; description?: string; summary?: string };
      if (published) {
        const { meta } = published;
        withId.operationId = operationIdOfProcedure(published.path);
        op.security = meta.access?.authed ? PROTECTED : [];
        withErrors(op, errorCodesOf(meta, method, op, path));
        addRequestHeaders(op, method, path, meta);
        addExamples(op, `${method} ${path}`);
      } else if (plainPaths.has(path)) {
        // Plain Fastify routes (routes.ts) list their own statuses; give them the Error body and a 500.
        withId.operationId ??= operationIdOfPlainRoute(method, path);
        op.security = !op.security || op.security.length === 0 ? [] : PROTECTED;
        for (const [status, res] of Object.entries(op.responses)) {
          if (Number(status) >= 400) res.content = errorContent;
        }
        op.responses['500'] = { $ref: `#/components/responses/${ERROR_RESPONSES.INTERNAL_SERVER_ERROR.name}` };
      }
      // Path parameters are always required (OpenAPI 3); the summary doubles as the description.
      for (const param of (op.parameters ?? []) as Array<{ in?: string; required?: boolean }>) {
        if (param.in === 'path') param.required = true;
      }
      if (withId.summary && !withId.description) withId.description = withId.summary;
    }
  }

  const components = (doc.components ??= {});
  const schemas = Object.fromEntries(Object.entries(components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  components.schemas = { ...schemas, Error: errorSchema as never };
  // Only the error responses some operation names (a component nobody uses is noise to the linters).
  const used = JSON.stringify(doc.paths);
  components.responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES)
      .filter((r) => used.includes(`"#/components/responses/${r.name}"`))
      .map((r) => [r.name, { description: r.description, content: errorContent }]),
  );
  // The reference page is /api/docs on this server (externalDocs would need an absolute URL).
  delete (doc as { externalDocs?: unknown }).externalDocs;
  doc.security = PROTECTED;
  doc.info.contact = { name: 'License Manager' };
  doc.tags = usedTags(doc).map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `Operations of ${name.replace(/[-_]/g, ' ')}`,
  }));
  return doc;
}

/** Every tag an operation of the document uses, in the order of first use. */
function usedTags(doc: OpenAPIObject): string[] {
  const tags = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, { tags?: string[] }>)) {
      if (op && typeof op === 'object') for (const t of op.tags ?? []) tags.add(t);
    }
  }
  return [...tags];
}

let cached: OpenAPIObject | undefined;

/** The OpenAPI document: every REST procedure plus the plain Fastify routes (health, file downloads). */
export function openApiDocument(): OpenAPIObject {
  cached ??= build();
  return cached;
}
