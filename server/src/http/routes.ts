/**
 * Plain Fastify routes under /api, beside the REST adapter: what it cannot serve (files, health).
 * Each entry registers its routes and lists its paths for the OpenAPI document. Domains append here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../core/context.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { reportsFileRoutes } from '../modules/reports/reports.http.ts';
import { backupsFileRoutes } from '../modules/backups/backups.http.ts';
import { licensesFileRoutes } from '../modules/licenses/licenses.http.ts';

export interface RouteDeps {
  db: Db;
  config: Config;
  services: AppServices;
}

export interface FileRoutes {
  register: (api: FastifyInstance, deps: RouteDeps) => void;
  /** OpenAPI paths object (keys relative to /api), merged into /api/openapi.json. */
  paths: Record<string, unknown>;
}

const healthRoutes: FileRoutes = {
  register(api, deps) {
    api.get('/health', async () => {
      deps.db.$client.prepare('SELECT 1').get();
      return { status: 'ok', time: new Date().toISOString() };
    });
  },
  paths: {
    '/health': {
      get: {
        tags: ['system'],
        summary: 'Liveness and database check',
        responses: { '200': { description: '{status: "ok", time}' } },
      },
    },
  },
};

export const fileRoutes: FileRoutes[] = [healthRoutes, reportsFileRoutes, backupsFileRoutes, licensesFileRoutes];

export const fileRoutePaths: Record<string, unknown> = Object.assign({}, ...fileRoutes.map((r) => r.paths));
