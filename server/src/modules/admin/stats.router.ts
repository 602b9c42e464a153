import { router } from '../../core/trpc.ts';

/** Procedures for admin statistics (GET /admin/stats) (filled in by its issue). */
export const statsRouter = router({});
