import { router } from '../../core/trpc.ts';

/** Procedures of the dashboard domain (filled in by its issue). */
export const dashboardRouter = router({});
