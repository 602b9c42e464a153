import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import {
  BACKUP_GROUP_LABELS,
  BACKUP_GROUPS,
  BACKUP_STRINGS,
  backupBeyondNameWarning,
  backupGroupContents,
  formatBytes,
  type Backup,
  type BackupGroup,
} from '@lm/shared';
import { useRestoreBackup } from './api.ts';
import { formatDateTime } from '../../lib/format.ts';

const ALL = Object.fromEntries(BACKUP_GROUPS.map((g) => [g, true])) as Record<BackupGroup, boolean>;

/**
 * The restore modal (docs/product.md section 2): a warning, one checkbox per data group with what the group contains;
 * when a chosen group holds more than its name says (Licenses also holds the CE rules), Restore asks again in place
 * (docs/decisions.md "Honest screens"); closes on success.
 */
export function RestoreModal({ backup, onClose }: { backup: Backup | null; onClose: () => void }) {
  const restore = useRestoreBackup();
  const [chosen, setChosen] = useState<Record<BackupGroup, boolean>>(ALL);
  /** The second question, once asked (null while choosing). */
  const [asking, setAsking] = useState<string | null>(null);
  const none = BACKUP_GROUPS.every((g) => !chosen[g]);

  const close = () => {
    if (restore.isPending) return;
    setChosen(ALL);
    setAsking(null);
    onClose();
  };

  const onRestore = () => {
    if (!backup || none) return;
    const warning = backupBeyondNameWarning(BACKUP_GROUPS.filter((g) => chosen[g]));
    if (warning && asking === null) {
      setAsking(warning);
      return;
    }
    restore.mutate(
      {
        id: backup.id,
        include_users: chosen.users,
        include_licenses: chosen.licenses,
        include_courses: chosen.courses,
        include_payments: chosen.payments,
        include_documents: chosen.documents,
        include_brokerages: chosen.brokerages,
        include_settings: chosen.settings,
      },
      {
        onSuccess: () => {
          setChosen(ALL);
          setAsking(null);
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened={backup !== null} onClose={close} title={BACKUP_STRINGS.restoreTitle} size="lg" centered>
      {backup && (
        <Stack>
          <Text size="sm">
            <Text span fw={600}>
              {backup.description || `Backup #${backup.id}`}
            </Text>{' '}
            <Text span c="dimmed">
              ({formatDateTime(backup.created_at)}, {formatBytes(backup.size)})
            </Text>
          </Text>
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Warning" role="alert">
            {BACKUP_STRINGS.restoreWarning}
          </Alert>
          {asking === null ? (
            <>
              <Text fw={500} size="sm" id="restore-groups">
                Data to restore
              </Text>
              <Stack gap="xs" role="group" aria-labelledby="restore-groups">
                {BACKUP_GROUPS.map((g) => (
                  <Checkbox
                    key={g}
                    label={BACKUP_GROUP_LABELS[g]}
                    description={backupGroupContents(g)}
                    checked={chosen[g]}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      setChosen((c) => ({ ...c, [g]: checked }));
                    }}
                  />
                ))}
              </Stack>
              {none && (
                <Text c="red" size="sm">
                  {BACKUP_STRINGS.noGroup}
                </Text>
              )}
            </>
          ) : (
            <Alert color="red" variant="light" title="Also restored" role="alert" data-testid="restore-ask-again">
              {asking} Restore anyway?
            </Alert>
          )}
          <Group justify="flex-end">
            {asking === null ? (
              <Button variant="default" onClick={close} disabled={restore.isPending}>
                Cancel
              </Button>
            ) : (
              <Button variant="default" onClick={() => setAsking(null)} disabled={restore.isPending}>
                Back
              </Button>
            )}
            <Button color="orange" onClick={onRestore} disabled={none} loading={restore.isPending}>
              {asking === null ? BACKUP_STRINGS.restoreButton : 'Restore anyway'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
