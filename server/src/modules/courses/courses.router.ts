import { router } from '../../core/trpc.ts';

/** Procedures of the courses domain (filled in by its issue). */
export const coursesRouter = router({});
