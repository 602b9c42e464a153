/**
 * Builds the Fastify app without listening, so tests drive it with app.inject() and server.ts starts it.
 *   /trpc   tRPC (the browser client), http/trpc.ts
 *   /api    the same routers as REST (http/rest.ts), plus health, the OpenAPI document, the
 *           reference page and file routes
 *   /       the built client with history fallback for deep links
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.ts';
import { closeDatabase, openDatabase, type Db } from './db/client.ts';
import { appRouter, type AppRouter } from './router.ts';
import { createAppServices, type AppServices, type Context } from './core/context.ts';
import { createContextFromRequest } from './http/context.ts';
import { apiKeyHook } from './http/api-key.ts';
import { AppError, toErrorBody } from './base/errors.ts';
import { effectiveLogLevel, getSettings } from './core/settings.ts';
import { loggerOptions } from './core/log.ts';
import { registerRestAdapter } from './http/rest.ts';
import { batchRefusal, MAX_BATCH_CALLS, registerTrpcTransport, type TrpcOptions } from './http/trpc.ts';
import { openApiDocument } from './openapi.ts';
import { fileRoutes } from './routes.ts';
import { deviceCookieHeader } from './core/sources.ts';
import { loginGate } from './modules/auth/login-gate.ts';
import { requeuePendingExtractions } from './modules/documents/documents.service.ts';
import { stopExtraction } from './modules/documents/extraction/index.ts';

export const BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  config: Config;
  /** An open database; when omitted the app opens config.databasePath and closes it on shutdown. */
  db?: Db;
  logger?: FastifyServerOptions['logger'];
  services?: AppServices;
}

export interface App {
  app: FastifyInstance;
  db: Db;
  services: AppServices;
}

/** Maps Fastify's own errors (parsing, limits) and anything thrown by routes to the one error body. */
function errorReply(err: FastifyError | Error) {
  const code = (err as FastifyError).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return toErrorBody(new AppError('PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MiB'));
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return toErrorBody(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json'));
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
    return toErrorBody(new AppError('BAD_REQUEST', 'Malformed JSON in request body'));
  }
  const status = (err as FastifyError).statusCode;
  if (status && status >= 400 && status < 500 && !(err instanceof AppError)) {
    return { status, body: { error: err.message || 'Bad request', code: 'BAD_REQUEST' } };
  }
  return toErrorBody(err);
}

/**
 * The security headers of pages (docs/security.md "Proxies and headers"), through @fastify/helmet on every answer
 * but the JSON ones (API_HEADERS below). /api/docs sets Swagger UI's CSP over it; a document download its sandbox CSP.
 */
const helmetOptions: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets CSS variables through style attributes and <style> tags.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      // The Documents drawer previews a PDF from a blob: URL of bytes it fetched with the session token.
      frameSrc: ["'self'", 'blob:'],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  // Sent in the onSend hook, only on answers that went out over HTTPS.
  hsts: false,
};

/**
 * The JSON answers (/api and /trpc, but /api/docs: Swagger UI's page) are never a page: they carry the headers of
 * OWASP's REST Security Cheat Sheet ("Security headers") instead of helmet's page set, docs/security.md "Proxies and
 * headers": a CSP that lets them load and be framed by nothing, nosniff, no framing, and Cross-Origin-Resource-Policy
 * so that another site cannot embed them. Helmet's document headers (COOP, Origin-Agent-Cluster, Referrer-Policy,
 * X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies, X-XSS-Protection) mean nothing on
 * JSON. These routes opt out of @fastify/helmet with its route option (`helmet: false`), which also spares building
 * helmet's middleware on every API call (docs/performance.md "API throughput"); an onRoute hook marks them
 * (`apiAnswer` in the route config) and the first onRequest hook sets these.
 */
export const API_CSP = "default-src 'none';frame-ancestors 'none'";
export const API_HEADERS = {
  'content-security-policy': API_CSP,
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;
declare module 'fastify' {
  interface FastifyContextConfig {
    /** A JSON answer's route: API_HEADERS instead of helmet's. */
    apiAnswer?: boolean;
  }
}
/** A path (or route pattern) of the API: /api or /trpc and what is under them. */
const API_PATH = /^\/(api|trpc)(\/|\?|$)/;
const answersJson = (url: string) => API_PATH.test(url) && !url.startsWith('/api/docs');

/**
 * Permissions-Policy beside helmet's headers (docs/security.md "Proxies and headers"): the app uses no device, sensor,
 * payment or capture API, so every one is denied to the page and any frame; fullscreen stays for the app's own
 * document preview.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'bluetooth=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** The /trpc options: context from the request, retry-after on a refused sign-in, failures logged. */
export function trpcOptions(createContext: (req: FastifyRequest) => Promise<Context>, log: FastifyBaseLogger): TrpcOptions<AppRouter> {
  return {
    router: appRouter,
    // docs/security.md "Bounded work per request": at most 10 calls a batch (http/trpc.ts refuses more first).
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: ({ req }) => createContext(req),
    // A refused sign-in (429) tells when to retry, as on the REST path.
    responseMeta: ({ errors }) => {
      const retryAfter = Math.max(0, ...errors.map((e) => toErrorBody(e).retryAfter ?? 0));
      return retryAfter > 0 ? { headers: { 'retry-after': String(retryAfter) } } : {};
    },
    onError: ({ error, path: p }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error, path: p }, 'trpc procedure failed');
    },
  };
}

/**
 * One log line per request instead of Fastify's two ("incoming request", then "request completed" with only the
 * status): the completed line carries the request's method, URL and peer too (docs/performance.md "API
 * throughput"). Errors, unknown routes and the rest are logged as Fastify does.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  const ownsDb = !options.db;
  const db = options.db ?? (await openDatabase(config));
  const services = options.services ?? createAppServices();

  const app = Fastify({
    logger: options.logger ?? loggerOptions(effectiveLogLevel(await getSettings(db)), config.logFormat),
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT,
    // A hop count trusts the nearest N peers (Fastify 5 refuses bare numbers: they cannot check the peer
    // is a proxy); README says to use it only when the proxy is the only way in.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(config.trustProxy)
        : config.trustProxy,
    routerOptions: { maxParamLength: 5000 },
  });
  // Settings › System › log_level takes effect at once (modules/settings calls this after a change).
  services.setLogLevel = (level) => {
    app.log.level = level;
  };

  // A JSON body may be empty (POST /licenses/{id}/renew, DELETE): read it as {}.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('BAD_REQUEST', 'Malformed JSON in request body'), undefined);
    }
  });

  // docs/security.md "Proxies and headers": first of the onRequest hooks, so refused and failed answers carry them too.
  // The JSON routes opt out of helmet (its route option, set before helmet's onRoute hook reads it) for API_HEADERS.
  app.addHook('onRoute', (route) => {
    if (route.helmet === undefined && answersJson(route.url)) {
      route.helmet = false;
      route.config = { ...route.config, apiAnswer: true };
    }
  });
  await app.register(helmet, helmetOptions);
  // The hooks every request runs are callback hooks: no promise of their own (docs/performance.md "API throughput").
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.config.apiAnswer) void reply.headers(API_HEADERS);
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    done();
  });

  // docs/security.md "Proxies and headers": HSTS only over HTTPS (directly, or through a trusted proxy's
  // X-Forwarded-Proto: request.protocol honours TRUST_PROXY); no caching of any API answer (they may
  // carry a signed-in user's data); the device cookie of a sign-in.
  app.addHook('onSend', (req, reply, _payload, done) => {
    if (req.protocol === 'https') void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (API_PATH.test(req.url) && !reply.hasHeader('cache-control')) {
      void reply.header('cache-control', 'no-store');
    }
    const cookie = deviceCookieHeader(req);
    if (cookie) void reply.header('set-cookie', cookie);
    done();
  });

  // docs/security.md "The sign-in gate": strangers' sign-ins beyond a few in flight are refused before any work,
  // unless they carry a solved challenge (read once the body is).
  const gate = loginGate(db, config);
  app.addHook('onRequest', gate.onRequest);
  app.addHook('preValidation', gate.preValidation);

  if (config.corsOrigins.length > 0) {
    const cors = (await import('@fastify/cors')).default;
    await app.register(cors, { origin: config.corsOrigins, credentials: false });
  }

  app.setErrorHandler((err, req, reply) => {
    const { status, body, retryAfter } = errorReply(err as FastifyError);
    if (status >= 500) req.log.error({ err }, 'request failed');
    if (retryAfter) void reply.header('retry-after', String(retryAfter));
    // docs/security.md "Certificates and uploads": the rest of a body refused as too large is not read.
    if (status === 413) void reply.header('connection', 'close');
    void reply.code(status).type('application/json').send(body);
  });

  const createContext = (req: Parameters<typeof createContextFromRequest>[3]) => createContextFromRequest(db, config, services, req);

  await registerTrpcTransport(app, { prefix: '/trpc', trpcOptions: trpcOptions(createContext, app.log), refuseBatch: batchRefusal });

  await app.register(
    async (api) => {
      // The adapter insists on a JSON content type for bodies; a body-less POST or DELETE is fine.
      api.addHook('onRequest', (req, _reply, done) => {
        if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method) && !req.headers['content-type']) {
          req.headers['content-type'] = 'application/json';
        }
        done();
      });
      // docs/api.md "API keys": Authorization: Bearer lmk_… on every /api route, with its rate limit.
      api.addHook('onRequest', apiKeyHook({ db, config, services }));
      api.get('/openapi.json', async () => openApiDocument());
      await api.register(swagger, { mode: 'static', specification: { document: openApiDocument() as never } });
      await api.register(swaggerUi, {
        routePrefix: '/docs',
        staticCSP: true,
        // Its default CSP upgrades plain requests, which breaks the page on an HTTP-only office server.
        transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/g, ''),
        uiConfig: { url: '/api/openapi.json' } as never,
      });
      for (const routes of fileRoutes) routes.register(api, { db, config, services });
      registerRestAdapter(api, { router: appRouter, prefix: '/api', createContext });
    },
    { prefix: '/api' },
  );

  const indexHtml = path.join(config.clientDist, 'index.html');
  const hasClient = fs.existsSync(indexHtml);
  if (hasClient) {
    // docs/performance.md "Assets": content-hashed files under /assets never change, so caches keep them a year;
    // index.html names them and is revalidated on every visit. Brotli and gzip copies are made at build time.
    await app.register(fastifyStatic, {
      root: config.clientDist,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(path.join(config.clientDist, 'assets') + path.sep);
        void reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    if (url.startsWith('/api') || url.startsWith('/trpc') || req.method !== 'GET' || !hasClient || path.extname(url)) {
      void reply
        .code(404)
        .type('application/json')
        .send({ error: `No route for ${req.method} ${url}`, code: 'NOT_FOUND' });
      return;
    }
    // History fallback: deep links like /licenses load the app, which routes on the client.
    void reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });

  // CE certificates still waiting to be read when the server stopped go back to the reader (docs/decisions.md "Documents").
  app.addHook('onReady', async () => {
    await requeuePendingExtractions(db).catch((err: unknown) => app.log.error({ err }, 're-queueing certificate reading failed'));
  });

  app.addHook('onClose', async () => {
    await stopExtraction();
    if (ownsDb) await closeDatabase(db);
  });

  return { app, db, services };
}
