import { z } from 'zod';
import {
  backupIdInput,
  backupListSchema,
  backupPageOutput,
  backupPageQuery,
  backupSchema,
  createBackupInput,
  restoreBackupInput,
  restoreResultSchema,
  successSchema,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as backups from './backups.service.ts';

const tags = ['backups'];

/**
 * Backups and restore (Admin only). The zip download and the upload are plain routes beside these
 * (backups.http.ts): the REST adapter cannot send or receive files.
 */
export const backupsRouter = router({
  list: policyProcedure('backups.read')
    .meta({ openapi: { method: 'GET', path: '/admin/backups', tags, summary: 'Backups with totals', protect: true } })
    .input(z.object({}).optional())
    .output(backupListSchema)
    .query(({ ctx }) => backups.list(ctx)),

  page: policyProcedure('backups.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/backups/page',
        tags,
        summary:
          "One page of the backups: search (description, creator), status, type; sort created_at (default, newest first), description, size, status, type with order; page, limit; the total and the cards' figures",
        protect: true,
      },
    })
    .input(backupPageQuery)
    .output(backupPageOutput)
    .query(({ ctx, input }) => backups.page(ctx, input)),

  create: policyProcedure('backups.create')
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/backups',
        tags,
        summary: 'Take a backup now (online snapshot + manifest, and stored files with include_files); answers when it is written',
        protect: true,
      },
    })
    .input(createBackupInput)
    .output(backupSchema)
    .mutation(({ ctx, input }) => backups.create(ctx, input)),

  restore: policyProcedure('backups.restore')
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/backups/{id}/restore',
        tags,
        summary: 'Restore the chosen data groups of a completed backup in one transaction (a safety backup is taken first)',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(restoreBackupInput)
    .output(restoreResultSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...flags } = input;
      return backups.restore(ctx, id, flags);
    }),

  delete: policyProcedure('backups.delete')
    .meta({
      openapi: { method: 'DELETE', path: '/admin/backups/{id}', tags, summary: 'Delete a backup and its file', protect: true },
      errors: ['CONFLICT'],
    })
    .input(backupIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => backups.remove(ctx, input.id)),
});
