import { router } from '../../core/trpc.ts';

/** Procedures of the completions domain (filled in by its issue). */
export const completionsRouter = router({});
