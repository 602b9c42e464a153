import { router } from '../../core/trpc.ts';

/** Procedures of the reports domain (filled in by its issue). */
export const reportsRouter = router({});
