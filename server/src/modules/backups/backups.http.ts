import type { FileRoutes } from '../../http/routes.ts';

/** Backup download and upload (filled in by the operations issue). */
export const backupsFileRoutes: FileRoutes = { register: () => {}, paths: {} };
