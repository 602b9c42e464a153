import type { ReactNode } from 'react';
import { Code, Drawer, SimpleGrid, Stack, Text } from '@mantine/core';
import { backupFileName, formatBytes, type Backup } from '@lm/shared';
import { formatDateTime } from '../../lib/format.ts';
import { BackupStatusBadge, BackupTypeBadge } from './backup-badges.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

/** One backup file in full: who took it and when, what it holds, its file and why it failed. */
export function BackupDrawer({ backup, onClose }: { backup: Backup | null; onClose: () => void }) {
  return (
    <Drawer
      opened={backup !== null}
      onClose={onClose}
      title={backup ? backup.description || `Backup #${backup.id}` : ''}
      position="right"
      size="md"
    >
      {backup && (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Field label="Status">
              <BackupStatusBadge status={backup.status} />
            </Field>
            <Field label="Type">
              <BackupTypeBadge type={backup.type} />
            </Field>
            <Field label="Created">{formatDateTime(backup.created_at, '', { seconds: true })}</Field>
            <Field label="Completed">{formatDateTime(backup.completed_at, 'N/A', { seconds: true })}</Field>
            <Field label="Created By">{backup.created_by_name ?? 'Unknown'}</Field>
            <Field label="Size">{formatBytes(backup.size)}</Field>
            <Field label="Stored Files">{backup.include_files ? 'Included' : 'Not included'}</Field>
            <Field label="File">{backup.status === 'completed' ? <Code>{backupFileName(backup.id)}</Code> : 'N/A'}</Field>
          </SimpleGrid>
          {backup.error && <Field label="Error">{backup.error}</Field>}
        </Stack>
      )}
    </Drawer>
  );
}
