import { z } from 'zod';
import { settingsEnvelope, settingsUpdateInput } from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as settings from './settings.service.ts';

const tags = ['settings'];

/** System settings (Admin only): GET and PUT /api/admin/settings, POST /api/admin/settings/reset. */
export const settingsRouter = router({
  get: policyProcedure('settings.read')
    .meta({ openapi: { method: 'GET', path: '/admin/settings', tags, summary: 'All system settings (defaults merged)', protect: true } })
    .input(z.object({}).optional())
    .output(settingsEnvelope)
    .query(({ ctx }) => settings.getAll(ctx)),

  update: policyProcedure('settings.update')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/settings',
        tags,
        summary: 'Change system settings ({settings}; omitted fields keep their value)',
        protect: true,
      },
    })
    .input(settingsUpdateInput)
    .output(settingsEnvelope)
    .mutation(({ ctx, input }) => settings.update(ctx, input)),

  reset: policyProcedure('settings.update')
    .meta({
      openapi: { method: 'POST', path: '/admin/settings/reset', tags, summary: 'Reset every setting to its default', protect: true },
    })
    .input(z.object({}).optional())
    .output(settingsEnvelope)
    .mutation(({ ctx }) => settings.reset(ctx)),
});
