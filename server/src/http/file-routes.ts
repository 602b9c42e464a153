import type { FastifyInstance } from 'fastify';
import type { PolicyAction } from '@lm/shared';
import type { AppServices } from '../core/context.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

export interface RouteDeps {
  db: Db;
  config: Config;
  services: AppServices;
}

/** Plain Fastify routes of one domain (routes.ts lists them). */
export interface FileRoutes {
  register: (api: FastifyInstance, deps: RouteDeps) => void;
  /** OpenAPI paths object (keys relative to /api), merged into /api/openapi.json. */
  paths: Record<string, unknown>;
  /**
   * The action of the access policy (shared/src/policy.ts) of each operation in `paths`, by "METHOD /path" as
   * `paths` writes it (e.g. 'GET /licenses/{id}/transcript/export'): the action its handler gives authenticate(),
   * or a public one. server/test/policy.test.ts checks that every operation has one and that the route answers
   * as the policy says.
   */
  access: Record<string, PolicyAction>;
}
