import { router } from '../../core/trpc.ts';

/** Procedures of the admin domain (filled in by its issue). */
export const adminRouter = router({});
