import { IconDownload, IconRestore } from '@tabler/icons-react';
import type { Backup } from '@lm/shared';
import { deleteAction, RowActionButtons } from '../../components/row-actions.tsx';

/** Download, restore and delete for one backup; download and restore only when it is completed (docs/product.md section 4). */
export function BackupRowActions({
  backup,
  downloading,
  onDownload,
  onRestore,
  onDelete,
}: {
  backup: Backup;
  downloading: boolean;
  onDownload: (b: Backup) => void;
  onRestore: (b: Backup) => void;
  onDelete: (b: Backup) => void;
}) {
  const ready = backup.status === 'completed';
  const name = backup.description || `backup #${backup.id}`;
  return (
    <RowActionButtons
      actions={[
        {
          label: 'Download',
          name: `Download ${name}`,
          icon: IconDownload,
          color: 'blue',
          disabled: !ready,
          loading: downloading,
          onClick: () => onDownload(backup),
        },
        {
          label: 'Restore',
          name: `Restore ${name}`,
          icon: IconRestore,
          color: 'orange',
          disabled: !ready,
          onClick: () => onRestore(backup),
        },
        deleteAction(() => onDelete(backup), `Delete ${name}`),
      ]}
    />
  );
}
