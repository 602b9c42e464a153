import { router } from '../../core/trpc.ts';

/** Procedures of the audit domain (filled in by its issue). */
export const auditRouter = router({});
