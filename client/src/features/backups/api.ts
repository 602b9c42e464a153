/**
 * The Backup & Restore screen's calls: the backups list (with the cards' figures), create, delete and restore
 * with their toasts; each change refreshes the list.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { BACKUP_STRINGS, type BackupPageQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';

export function useBackupsPage(input: BackupPageQuery) {
  return trpc.admin.backups.page.useQuery(input, { placeholderData: keepPreviousData });
}

/** Refreshes the backups list and its cards (an upload or a download-free change). */
export function useRefreshBackups() {
  const utils = trpc.useUtils();
  return () => {
    void utils.admin.backups.invalidate();
  };
}

export function useCreateBackup(onCreated: () => void) {
  const refresh = useRefreshBackups();
  return trpc.admin.backups.create.useMutation({
    onSuccess: () => {
      notify.success(BACKUP_STRINGS.created);
      onCreated();
    },
    onError: (err) => notify.failure(err, BACKUP_STRINGS.createFailed),
    // A failed backup is listed too.
    onSettled: refresh,
  });
}

export function useDeleteBackup() {
  const refresh = useRefreshBackups();
  return trpc.admin.backups.delete.useMutation({
    onSuccess: () => {
      notify.success(BACKUP_STRINGS.deleted);
      refresh();
    },
    onError: (err) => notify.failure(err, BACKUP_STRINGS.deleteFailed),
  });
}

/** Restore: every screen's data may have changed (and a restore of users may have ended this session). */
export function useRestoreBackup() {
  const utils = trpc.useUtils();
  return trpc.admin.backups.restore.useMutation({
    onSuccess: () => {
      notify.success(BACKUP_STRINGS.restored);
      void utils.invalidate();
    },
    onError: (err) => notify.failure(err, BACKUP_STRINGS.restoreFailed),
  });
}
