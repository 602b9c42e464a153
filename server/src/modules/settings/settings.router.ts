import { router } from '../../core/trpc.ts';

/** Procedures for system settings (filled in by its issue). */
export const settingsRouter = router({});
