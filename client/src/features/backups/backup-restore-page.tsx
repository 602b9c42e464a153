import { useEffect, useRef, useState } from 'react';
import { Button, Card, Checkbox, FileButton, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconArchive, IconCircleCheck, IconDatabase, IconDatabaseExport, IconLoader, IconPlus, IconUpload } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { BACKUP_STRINGS, formatBytes, type Backup } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { BackupStatusBadge, BackupTypeBadge } from './backup-badges.tsx';
import { BackupRowActions } from './backup-row-actions.tsx';
import { RestoreModal } from './restore-modal.tsx';
import { downloadBackup, fileCallMessage, uploadBackup } from './backup-files.ts';
import { formatDateTime } from '../../lib/format.ts';
import { StatCard } from '../../components/stat-card.tsx';

export function BackupRestorePage() {
  const [restoring, setRestoring] = useState<Backup | null>(null);
  return (
    <>
      <PageHeader
        title={BACKUP_STRINGS.title}
        description="Back up the database and stored files, download or upload a backup, and restore chosen data."
      />
      <Stack>
        <CreateBar />
        <BackupsView onRestore={setRestoring} />
      </Stack>
      <RestoreModal backup={restoring} onClose={() => setRestoring(null)} />
    </>
  );
}

/** Description, include files, Upload Backup and Create Backup (which asks first). */
function CreateBar() {
  const utils = trpc.useUtils();
  const create = trpc.admin.backups.create.useMutation();
  const [description, setDescription] = useState('');
  const [includeFiles, setIncludeFiles] = useState(true);
  const [uploading, setUploading] = useState(false);
  const resetUpload = useRef<() => void>(null);

  const onCreate = async () => {
    if (!(await confirm(BACKUP_STRINGS.createConfirm, { title: BACKUP_STRINGS.createBackup, confirmLabel: 'Create', danger: false })))
      return;
    create.mutate(
      { description: description.trim() || `Manual backup ${formatDateTime(new Date().toISOString())}`, include_files: includeFiles },
      {
        onSuccess: () => {
          notify.success(BACKUP_STRINGS.created);
          setDescription('');
          void utils.admin.backups.list.invalidate();
        },
        onError: (err) => {
          notify.failure(err, BACKUP_STRINGS.createFailed);
          void utils.admin.backups.list.invalidate();
        },
      },
    );
  };

  const onUpload = async (file: File | null) => {
    resetUpload.current?.();
    if (!file) return;
    setUploading(true);
    try {
      await uploadBackup(file, BACKUP_STRINGS.uploadFailed);
      notify.success(BACKUP_STRINGS.uploaded);
      void utils.admin.backups.list.invalidate();
    } catch (err) {
      notify.error(fileCallMessage(err, BACKUP_STRINGS.uploadFailed));
    } finally {
      setUploading(false);
    }
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
          <FileButton onChange={(f) => void onUpload(f)} accept=".zip,application/zip" resetRef={resetUpload}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={uploading}>
                {BACKUP_STRINGS.uploadBackup}
              </Button>
            )}
          </FileButton>
          <Button leftSection={<IconPlus size={16} />} onClick={() => void onCreate()} loading={create.isPending}>
            {BACKUP_STRINGS.createBackup}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

function BackupsView({ onRestore }: { onRestore: (b: Backup) => void }) {
  const utils = trpc.useUtils();
  const query = trpc.admin.backups.list.useQuery();
  const remove = trpc.admin.backups.delete.useMutation();
  const [downloading, setDownloading] = useState<number | null>(null);
  const data = query.data;

  useEffect(() => {
    if (query.isError) notify.error(BACKUP_STRINGS.fetchFailed);
  }, [query.isError]);

  const onDownload = async (b: Backup) => {
    setDownloading(b.id);
    try {
      await downloadBackup(b.id, BACKUP_STRINGS.downloadFailed);
      notify.success(BACKUP_STRINGS.downloaded);
    } catch (err) {
      notify.error(fileCallMessage(err, BACKUP_STRINGS.downloadFailed));
    } finally {
      setDownloading(null);
    }
  };

  const onDelete = async (b: Backup) => {
    if (!(await confirm(BACKUP_STRINGS.deleteConfirm, { confirmLabel: 'Delete' }))) return;
    remove.mutate(
      { id: b.id },
      {
        onSuccess: () => {
          notify.success(BACKUP_STRINGS.deleted);
          void utils.admin.backups.list.invalidate();
        },
        onError: (err) => notify.failure(err, BACKUP_STRINGS.deleteFailed),
      },
    );
  };

  return (
    <>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Total Backups" value={data?.total} icon={<IconArchive size={24} />} color="blue" loading={!data} />
        <StatCard label="Completed" value={data?.completed} icon={<IconCircleCheck size={24} />} color="green" loading={!data} />
        <StatCard label="In Progress" value={data?.in_progress} icon={<IconLoader size={24} />} color="yellow" loading={!data} />
        <StatCard
          label="Total Size"
          value={data && formatBytes(data.total_size)}
          icon={<IconDatabase size={24} />}
          color="grape"
          loading={!data}
        />
      </SimpleGrid>
      {query.isError ? (
        <QueryError things="backups" query={query} />
      ) : (
        <DataTable<Backup>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={data && data.backups.length > 0 ? undefined : 180}
          fetching={query.isLoading}
          records={data?.backups ?? []}
          idAccessor="id"
          noRecordsText={BACKUP_STRINGS.empty}
          noRecordsIcon={<IconDatabaseExport size={32} />}
          columns={[
            {
              accessor: 'description',
              title: 'Description',
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
            { accessor: 'created_at', title: 'Created', render: (b) => formatDateTime(b.created_at) },
            { accessor: 'size', title: 'Size', render: (b) => formatBytes(b.size) },
            { accessor: 'status', title: 'Status', render: (b) => <BackupStatusBadge status={b.status} error={b.error} /> },
            { accessor: 'type', title: 'Type', render: (b) => <BackupTypeBadge type={b.type} /> },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (b) => (
                <BackupRowActions
                  backup={b}
                  downloading={downloading === b.id}
                  onDownload={(x) => void onDownload(x)}
                  onRestore={onRestore}
                  onDelete={(x) => void onDelete(x)}
                />
              ),
            },
          ]}
        />
      )}
    </>
  );
}
