import { router } from '../../core/trpc.ts';

/** Procedures of the users domain (filled in by its issue). */
export const usersRouter = router({});
