import { router } from '../../core/trpc.ts';

/** Procedures for notification templates, history and test sends (filled in by its issue). */
export const notificationsRouter = router({});
