import { router } from '../../core/trpc.ts';

/** Procedures of the licenses domain (filled in by its issue). */
export const licensesRouter = router({});
