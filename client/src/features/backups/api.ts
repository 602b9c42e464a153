/**
 * The Backup & Restore screen's calls: the backups list (with the cards' figures), create, delete and restore
 * with their toasts; each change refreshes the list.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { BACKUP_STRINGS, type BackupPageQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

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
    ...mutationOutcome(BACKUP_STRINGS.created, BACKUP_STRINGS.createFailed, onCreated),
    // A failed backup is listed too.
    onSettled: refresh,
  });
}

export function useDeleteBackup() {
  const refresh = useRefreshBackups();
  return trpc.admin.backups.delete.useMutation(mutationOutcome(BACKUP_STRINGS.deleted, BACKUP_STRINGS.deleteFailed, refresh));
}

/** Restore: every screen's data may have changed (and a restore of users may have ended this session). */
export function useRestoreBackup() {
  const utils = trpc.useUtils();
  return trpc.admin.backups.restore.useMutation(
    mutationOutcome(BACKUP_STRINGS.restored, BACKUP_STRINGS.restoreFailed, () => void utils.invalidate()),
  );
}
