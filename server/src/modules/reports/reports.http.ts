import type { FileRoutes } from '../../http/routes.ts';

/** CSV exports: GET /api/reports/{name}/export (filled in by the insight issue). */
export const reportsFileRoutes: FileRoutes = { register: () => {}, paths: {} };
