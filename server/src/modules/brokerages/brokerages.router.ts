import { router } from '../../core/trpc.ts';

/** Procedures of the brokerages domain (filled in by its issue). */
export const brokeragesRouter = router({});
