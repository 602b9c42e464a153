import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { AnyRouter } from '@trpc/server';
import { AppError, toErrorBody } from '../core/errors.ts';

export const NOT_AN_OBJECT_MESSAGE = 'The request body must be a JSON object';

/**
 * Every REST body is a JSON object (docs/api.md). The adapter spreads a body into its input, so an
 * array, string or number would otherwise pass as {} (or as {"0": ...}); refuse it with 400 before
 * any handler runs. A body-less POST is parsed as {} (app.ts) and passes.
 */
function rejectNonObjectBodies(app: FastifyInstance) {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return;
    if (!String(req.headers['content-type'] ?? '').includes('application/json')) return;
    const body: unknown = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('BAD_REQUEST', NOT_AN_OBJECT_MESSAGE);
    }
  });
}

/**
 * Publishes the tRPC routers as REST under the scope's prefix (/api) through trpc-to-openapi.
 * It replaces the adapter's own Fastify plugin for one reason: error bodies. The adapter answers
 * {message, code, issues}; we catch the original error in onError and send toErrorBody() instead,
 * so REST and tRPC share one mapping. Success bodies pass through untouched.
 */
export function registerRestAdapter(
  app: FastifyInstance,
  opts: { router: AnyRouter; prefix: string; createContext: (req: FastifyRequest) => unknown },
) {
  rejectNonObjectBodies(app);
  const errors = new WeakMap<object, unknown>();
  const handler = createOpenApiNodeHttpHandler({
    router: opts.router as never,
    createContext: ({ req }: { req: unknown }) => opts.createContext(req as FastifyRequest),
    onError: ({ error, req }: { error: unknown; req: unknown }) => {
      errors.set(req as object, error);
    },
  } as never);

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    // Fastify would add HEAD, which the adapter answers 204 for any path, signed in or not: no HEAD at all.
    exposeHeadRoute: false,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const url = request.url.startsWith(opts.prefix) ? request.url.slice(opts.prefix.length) || '/' : request.url;
      const req = Object.assign(request, {
        once: request.raw.once.bind(request.raw),
        on: request.raw.on.bind(request.raw),
        off: request.raw.off.bind(request.raw),
        destroy: request.raw.destroy.bind(request.raw),
      });
      request.raw.url = url;
      let status = 200;
      const headers: Record<string, string> = {};
      await new Promise<void>((resolve, reject) => {
        const res = {
          get statusCode() {
            return status;
          },
          set statusCode(v: number) {
            status = v;
          },
          setHeader: (k: string, v: string) => {
            headers[k.toLowerCase()] = v;
          },
          end: (data?: string) => {
            if (status >= 400) {
              const mapped = toErrorBody(errors.get(req) ?? null);
              // Keep the adapter's status when our mapping has nothing better (e.g. its own 404/415).
              const finalStatus = errors.has(req) ? mapped.status : status;
              if (mapped.retryAfter) void reply.header('retry-after', String(mapped.retryAfter));
              void reply.code(finalStatus).type('application/json').send(mapped.body);
            } else {
              void reply.code(status).headers(headers).send(data);
            }
            resolve();
          },
          once: reply.raw.once.bind(reply.raw),
          on: reply.raw.on.bind(reply.raw),
          off: reply.raw.off.bind(reply.raw),
          emit: reply.raw.emit.bind(reply.raw),
          removeListener: reply.raw.removeListener.bind(reply.raw),
          socket: reply.raw.socket,
          headersSent: false,
        };
        Promise.resolve(handler(req as unknown as IncomingMessage, res as unknown as ServerResponse)).catch(reject);
      });
      return reply;
    },
  });
}
