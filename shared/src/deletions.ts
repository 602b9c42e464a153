import { z } from 'zod';
import { paginationSchema, updatedSinceParam } from './common.ts';

/** The resources whose deletions a sync can see (GET /api/deletions, docs/api.md "Changes since"). */
export const DELETION_RESOURCES = ['licenses', 'payments', 'users', 'documents', 'courses'] as const;
export type DeletionResource = (typeof DELETION_RESOURCES)[number];

/** GET /deletions: tombstones after `since` (required), oldest first, one page at a time. */
export const deletionListQuery = z.object({
  since: updatedSinceParam,
  resource: z.enum(DELETION_RESOURCES).optional(),
  page: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type DeletionListQuery = z.infer<typeof deletionListQuery>;

export const deletionSchema = z.object({
  resource: z.enum(DELETION_RESOURCES),
  /** The deleted object's id (license_id, payment_id, ...). */
  id: z.number().int(),
  /** ISO 8601 UTC time of the deletion. */
  deleted_at: z.string(),
});
export type Deletion = z.infer<typeof deletionSchema>;

export const deletionPageOutput = z.object({ deletions: z.array(deletionSchema), pagination: paginationSchema });
export type DeletionPage = z.infer<typeof deletionPageOutput>;
