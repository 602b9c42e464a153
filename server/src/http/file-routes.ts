import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../core/context.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

export interface RouteDeps {
  db: Db;
  config: Config;
  services: AppServices;
}

/** Plain Fastify routes of one domain (http/routes.ts lists them). */
export interface FileRoutes {
  register: (api: FastifyInstance, deps: RouteDeps) => void;
  /** OpenAPI paths object (keys relative to /api), merged into /api/openapi.json. */
  paths: Record<string, unknown>;
}
