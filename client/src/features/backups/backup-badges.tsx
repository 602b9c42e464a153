import { Badge, Tooltip } from '@mantine/core';
import { BACKUP_TYPE_LABELS, type BackupStatus, type BackupType } from '@lm/shared';

const STATUS: Record<BackupStatus, { color: string; label: string }> = {
  completed: { color: 'green', label: 'Completed' },
  in_progress: { color: 'blue', label: 'In Progress' },
  failed: { color: 'red', label: 'Failed' },
};

export const BACKUP_STATUS_LABELS = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.label])) as Record<
  BackupStatus,
  string
>;

const TYPE_COLOR: Record<BackupType, string> = { manual: 'blue', automatic: 'cyan', safety: 'grape', uploaded: 'orange' };

export function BackupStatusBadge({ status, error }: { status: BackupStatus; error?: string | null }) {
  const badge = (
    <Badge color={STATUS[status].color} variant="light">
      {STATUS[status].label}
    </Badge>
  );
  return error && status === 'failed' ? (
    <Tooltip label={error} multiline maw={320}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

export function BackupTypeBadge({ type }: { type: BackupType }) {
  return (
    <Badge color={TYPE_COLOR[type]} variant="outline">
      {BACKUP_TYPE_LABELS[type]}
    </Badge>
  );
}
