import { router } from '../../core/trpc.ts';

/** Procedures for backups and restore (filled in by its issue). */
export const backupsRouter = router({});
