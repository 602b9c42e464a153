import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { appRouter } from '../router.ts';
import { fileRoutePaths } from './routes.ts';

let cached: OpenAPIObject | undefined;

/** The OpenAPI document: every REST procedure plus the plain Fastify routes (health, file downloads). */
export function openApiDocument(): OpenAPIObject {
  cached ??= generateOpenApiDocument(appRouter, {
    title: 'License Manager API',
    description:
      'REST API of License Manager. Sign in with POST /api/auth/login to get a token, then send it as ' +
      '`Authorization: Bearer <token>`. Errors are `{ error, code, issues? }` with a matching HTTP status.',
    version: '1.0.0',
    baseUrl: '/api',
    docsUrl: '/api/docs',
    securitySchemes: { Authorization: { type: 'http', scheme: 'bearer', description: 'Token from POST /api/auth/login' } },
    paths: fileRoutePaths as ZodOpenApiPathsObject,
  });
  return cached;
}
