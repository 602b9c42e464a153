import { router } from '../../core/trpc.ts';
import { statsRouter } from './stats.router.ts';
import { notificationManagementRouter } from '../notification-management/notification-management.router.ts';
import { backupsRouter } from '../backups/backups.router.ts';
import { settingsRouter } from '../settings/settings.router.ts';

/** Everything under /api/admin, composed from the domains that own it. */
export const adminRouter = router({
  stats: statsRouter,
  notificationManagement: notificationManagementRouter,
  backups: backupsRouter,
  settings: settingsRouter,
});
