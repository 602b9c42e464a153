import { z } from 'zod';
import { publicSettingsSchema, type PublicSettings } from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import { getSettings } from '../../core/settings.ts';
import { officeTimeZone, today } from '../../core/dates.ts';

/**
 * The settings anyone may read (the signed-out login screen): the office's name and how to reach support, and its
 * calendar (date format, time zone and today's date there), so the browser writes and counts dates as the office does.
 */
export const publicSettingsRouter = router({
  public: policyProcedure('settings.public')
    .meta({
      openapi: {
        method: 'GET',
        path: '/settings/public',
        tags: ['settings'],
        summary: "App name, description, support contacts and the office's date format, time zone and date (no sign-in needed)",
      },
    })
    .input(z.object({}).optional())
    .output(publicSettingsSchema)
    .query(async ({ ctx }): Promise<PublicSettings> => {
      const s = await getSettings(ctx.db);
      return {
        app_name: s.app_name,
        app_description: s.app_description,
        support_email: s.support_email,
        support_phone: s.support_phone,
        date_format: s.date_format,
        time_zone: officeTimeZone(),
        today: today(),
      };
    }),
});
