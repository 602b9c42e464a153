import { useRef, useState } from 'react';
import { Button, Card, Checkbox, FileButton, Group, Progress, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconArchive, IconCircleCheck, IconDatabase, IconLoader, IconPlus, IconUpload } from '@tabler/icons-react';
import {
  BACKUP_SORT_COLUMNS,
  BACKUP_STATUSES,
  BACKUP_STRINGS,
  BACKUP_TYPE_LABELS,
  BACKUP_TYPES,
  formatBytes,
  type Backup,
  type BackupSortColumn,
  type BackupStatus,
  type BackupType,
} from '@lm/shared';
import { notify } from '../../lib/notify.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { formatDateTime } from '../../lib/format.ts';
import { BACKUP_STATUS_LABELS, BackupStatusBadge, BackupTypeBadge } from './backup-badges.tsx';
import { BackupRowActions } from './backup-row-actions.tsx';
import { BackupDrawer } from './backup-drawer.tsx';
import { RestoreModal } from './restore-modal.tsx';
import { downloadBackup, fileCallMessage, uploadBackup } from './backup-files.ts';
import { useBackupsPage, useCreateBackup, useDeleteBackup, useRefreshBackups } from './api.ts';

export function BackupRestorePage() {
  const [restoring, setRestoring] = useState<Backup | null>(null);
  return (
    <>
      <PageHeader
        title={BACKUP_STRINGS.title}
        description="Back up the database and stored files, download or upload a backup, and restore chosen data."
      />
      <Stack>
        <BackupsView onRestore={setRestoring} />
      </Stack>
      <RestoreModal backup={restoring} onClose={() => setRestoring(null)} />
    </>
  );
}

/**
 * Description, include files, Upload Backup (with its progress, then "checking" while the server validates; a file
 * over the server's limit for backups is refused before sending) and Create Backup (which asks first).
 */
function CreateBar({ uploadLimitMb }: { uploadLimitMb: number | undefined }) {
  const refresh = useRefreshBackups();
  const [description, setDescription] = useState('');
  const create = useCreateBackup(() => setDescription(''));
  const [includeFiles, setIncludeFiles] = useState(true);
  /** The upload under way: its file's name and the percent sent (null when none). */
  const [uploading, setUploading] = useState<{ name: string; percent: number } | null>(null);
  const resetUpload = useRef<() => void>(null);

  const onCreate = async () => {
    if (!(await confirm(BACKUP_STRINGS.createConfirm, { title: BACKUP_STRINGS.createBackup, confirmLabel: 'Create', danger: false })))
      return;
    create.mutate({
      description: description.trim() || `Manual backup ${formatDateTime(new Date().toISOString())}`,
      include_files: includeFiles,
    });
  };

  const onUpload = (file: File | null) => {
    resetUpload.current?.();
    if (!file) return;
    setUploading({ name: file.name, percent: 0 });
    uploadBackup(file, uploadLimitMb, (percent) => setUploading({ name: file.name, percent }), BACKUP_STRINGS.uploadFailed)
      .then(() => {
        notify.success(BACKUP_STRINGS.uploaded);
        refresh();
      })
      .catch((err: unknown) => notify.error(fileCallMessage(err, BACKUP_STRINGS.uploadFailed)))
      .finally(() => setUploading(null));
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Group align="flex-end" wrap="wrap" gap="md">
        <TextInput
          label="Backup description"
          placeholder="e.g. Before the year-end renewals"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          maxLength={500}
          w={320}
        />
        <Checkbox
          label="Include stored files (documents and outbox)"
          checked={includeFiles}
          onChange={(e) => setIncludeFiles(e.currentTarget.checked)}
          mb={8}
        />
        <Group gap="sm" ml="auto">
          <FileButton onChange={onUpload} accept=".zip,application/zip" resetRef={resetUpload}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={uploading !== null}>
                {BACKUP_STRINGS.uploadBackup}
              </Button>
            )}
          </FileButton>
          <Button leftSection={<IconPlus size={16} />} onClick={() => void onCreate()} loading={create.isPending}>
            {BACKUP_STRINGS.createBackup}
          </Button>
        </Group>
      </Group>
      {uploading && (
        <Stack gap={4} mt="md">
          <Text size="sm" c="dimmed" aria-live="polite">
            {uploading.percent < 100 ? BACKUP_STRINGS.uploading(uploading.name, uploading.percent) : BACKUP_STRINGS.uploadChecking}
          </Text>
          <Progress value={uploading.percent} aria-label={BACKUP_STRINGS.uploadProgress} animated />
        </Stack>
      )}
    </Card>
  );
}

const sortKey = (key: string): BackupSortColumn =>
  (BACKUP_SORT_COLUMNS as readonly string[]).includes(key) ? (key as BackupSortColumn) : 'created_at';

function BackupsView({ onRestore }: { onRestore: (b: Backup) => void }) {
  const list = useListState({ sort: 'created_at', order: 'desc', filters: { search: '', status: '', type: '' } });
  const f = list.filters;
  const view = {
    search: f.search || undefined,
    status: (f.status || undefined) as BackupStatus | undefined,
    type: (f.type || undefined) as BackupType | undefined,
    sort: sortKey(list.sort),
    order: list.order,
  };
  const query = useBackupsPage({ ...view, page: list.page, limit: list.limit });
  const remove = useDeleteBackup();
  const [downloading, setDownloading] = useState<number | null>(null);
  const [open, setOpen] = useState<Backup | null>(null);
  const totals = query.data?.totals;

  const onDownload = (b: Backup) => {
    setDownloading(b.id);
    downloadBackup(b.id, BACKUP_STRINGS.downloadFailed)
      .then(() => notify.success(BACKUP_STRINGS.downloaded))
      .catch((err: unknown) => notify.error(fileCallMessage(err, BACKUP_STRINGS.downloadFailed)))
      .finally(() => setDownloading(null));
  };

  const onDelete = async (b: Backup) => {
    if (!(await confirm(BACKUP_STRINGS.deleteConfirm, { confirmLabel: 'Delete' }))) return;
    remove.mutate({ id: b.id });
  };

  return (
    <>
      <CreateBar uploadLimitMb={query.data?.upload_limit_mb} />
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Total Backups" value={totals?.total} icon={<IconArchive size={24} />} color="blue" loading={!totals} />
        <StatCard label="Completed" value={totals?.completed} icon={<IconCircleCheck size={24} />} color="green" loading={!totals} />
        <StatCard label="In Progress" value={totals?.in_progress} icon={<IconLoader size={24} />} color="yellow" loading={!totals} />
        <StatCard
          label="Total Size"
          value={totals && formatBytes(totals.total_size)}
          icon={<IconDatabase size={24} />}
          color="grape"
          loading={!totals}
        />
      </SimpleGrid>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Description or creator', w: 220 },
          {
            name: 'status',
            label: 'Status',
            placeholder: 'All statuses',
            data: BACKUP_STATUSES.map((s) => ({ value: s, label: BACKUP_STATUS_LABELS[s] })),
            w: 150,
          },
          {
            name: 'type',
            label: 'Type',
            placeholder: 'All types',
            data: BACKUP_TYPES.map((t) => ({ value: t, label: BACKUP_TYPE_LABELS[t] })),
            w: 140,
          },
        ]}
        exportCsv={{ path: '/api/admin/backups/export', params: view, things: 'backups' }}
      />
      <ListTable<Backup>
        things={BACKUP_STRINGS.things}
        query={query}
        records={query.data?.backups}
        total={query.data?.pagination.total ?? 0}
        idAccessor="id"
        list={list}
        emptyText={BACKUP_STRINGS.empty}
        fallback={BACKUP_STRINGS.fetchFailed}
        onOpen={setOpen}
        actions={(b) => (
          <BackupRowActions
            backup={b}
            downloading={downloading === b.id}
            onDownload={onDownload}
            onRestore={onRestore}
            onDelete={(x) => void onDelete(x)}
          />
        )}
        columns={[
          {
            accessor: 'description',
            title: 'Description',
            sortable: true,
            render: (b) => (
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {b.description || `Backup #${b.id}`}
                </Text>
                <Text size="xs" c="dimmed">
                  by {b.created_by_name ?? 'Unknown'}
                </Text>
              </Stack>
            ),
          },
          { accessor: 'created_at', title: 'Created', sortable: true, noWrap: true, render: (b) => formatDateTime(b.created_at) },
          { accessor: 'size', title: 'Size', sortable: true, noWrap: true, render: (b) => formatBytes(b.size) },
          { accessor: 'status', title: 'Status', sortable: true, render: (b) => <BackupStatusBadge status={b.status} error={b.error} /> },
          { accessor: 'type', title: 'Type', sortable: true, render: (b) => <BackupTypeBadge type={b.type} /> },
        ]}
      />
      <BackupDrawer backup={open} onClose={() => setOpen(null)} />
    </>
  );
}
