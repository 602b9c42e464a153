import { router } from '../../core/trpc.ts';

/** Procedures of the payments domain (filled in by its issue). */
export const paymentsRouter = router({});
