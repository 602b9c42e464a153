import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconDownload, IconRestore, IconTrash } from '@tabler/icons-react';
import type { Backup } from '@lm/shared';

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
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Download">
        <ActionIcon
          variant="subtle"
          color="blue"
          aria-label={`Download ${name}`}
          disabled={!ready}
          loading={downloading}
          onClick={() => onDownload(backup)}
        >
          <IconDownload size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Restore">
        <ActionIcon variant="subtle" color="orange" aria-label={`Restore ${name}`} disabled={!ready} onClick={() => onRestore(backup)}>
          <IconRestore size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete">
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${name}`} onClick={() => onDelete(backup)}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
