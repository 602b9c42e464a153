/**
 * The import history (docs/product.md "Imports"): the caller's past imports (an Admin's: everyone's), newest first,
 * with who, when, file, kind, counts and status. A row opens the import; its menu downloads the errors file and
 * undoes a committed import after a confirmation. The server's refusal (rows changed since) stays on screen.
 */
import { Alert, Badge, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowBackUp, IconDownload, IconEye } from '@tabler/icons-react';
import type { ImportKind, ImportListItem } from '@lm/shared';
import { confirm } from '../../components/confirm.ts';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { RowActionsMenu } from '../../components/row-actions.tsx';
import { fileCallMessage } from '../../lib/download.ts';
import { errorMessage } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { useListState } from '../../lib/use-url-state.ts';
import { downloadErrors, useImportsPage, useUndoImport } from './api.ts';
import { countsText } from './mapping.ts';
import { IMPORT_SCREEN, KIND_LABELS, STATUS_COLORS, STATUS_LABELS } from './strings.ts';

const isKind = (v: string, allowed: readonly ImportKind[]): v is ImportKind => (allowed as readonly string[]).includes(v);

export function HistoryTab({ allowed, onOpen }: { allowed: readonly ImportKind[]; onOpen: (item: ImportListItem) => void }) {
  const list = useListState({ sort: 'created_at', order: 'desc', filters: { of: '' } });
  const kind = isKind(list.filters.of, allowed) ? list.filters.of : undefined;
  const query = useImportsPage({ kind, page: list.page, limit: list.limit });
  const undo = useUndoImport();

  const onUndo = async (item: ImportListItem) => {
    if (!(await confirm(IMPORT_SCREEN.undoConfirm(item.file_name), { title: 'Undo import', confirmLabel: IMPORT_SCREEN.undo }))) return;
    undo.mutate({ id: item.import_id });
  };
  const onErrors = (item: ImportListItem) =>
    void downloadErrors(item.import_id)
      .then((name) => notify.success(`Downloaded ${name}`))
      .catch((err: unknown) => notify.error(fileCallMessage(err, 'Failed to download the errors file')));

  return (
    <Stack>
      {undo.isError && (
        <Alert
          color="red"
          icon={<IconAlertCircle size={18} />}
          role="alert"
          title={IMPORT_SCREEN.undoFailed}
          withCloseButton
          onClose={() => undo.reset()}
        >
          {errorMessage(undo.error, IMPORT_SCREEN.undoFailed)}
        </Alert>
      )}
      {allowed.length > 1 && (
        <ListToolbar
          list={list}
          fields={[
            {
              name: 'of',
              label: 'Kind',
              placeholder: 'All kinds',
              data: allowed.map((k) => ({ value: k, label: KIND_LABELS[k] })),
              w: 200,
            },
          ]}
        />
      )}
      <ListTable<ImportListItem>
        things={IMPORT_SCREEN.historyThings}
        query={query}
        records={query.data?.imports}
        total={query.data?.pagination.total ?? 0}
        idAccessor="import_id"
        list={list}
        emptyText={IMPORT_SCREEN.historyEmpty}
        onOpen={onOpen}
        columns={[
          {
            accessor: 'file_name',
            title: 'File',
            card: 'title',
            render: (i) => (
              <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }} maw={260}>
                {i.file_name}
              </Text>
            ),
          },
          { accessor: 'kind', title: 'Kind', render: (i) => KIND_LABELS[i.kind] },
          { accessor: 'created_at', title: 'When', noWrap: true, render: (i) => formatDateTime(i.committed_at ?? i.created_at) },
          { accessor: 'created_by_name', title: 'By' },
          { accessor: 'counts', title: 'Rows', card: 'wide', render: (i) => countsText(i.counts) },
          {
            accessor: 'status',
            title: 'Status',
            render: (i) => (
              <Badge variant="light" color={STATUS_COLORS[i.status]}>
                {STATUS_LABELS[i.status]}
              </Badge>
            ),
          },
        ]}
        actions={(i) => (
          <RowActionsMenu
            label={`Actions for the import of ${i.file_name} (${formatDateTime(i.created_at)})`}
            actions={[
              { label: IMPORT_SCREEN.open, icon: IconEye, onClick: () => onOpen(i) },
              i.counts.error > 0 && { label: IMPORT_SCREEN.downloadErrors, icon: IconDownload, onClick: () => onErrors(i) },
              i.status === 'committed' && {
                label: IMPORT_SCREEN.undo,
                icon: IconArrowBackUp,
                color: 'red',
                loading: undo.isPending,
                onClick: () => void onUndo(i),
              },
            ]}
          />
        )}
      />
    </Stack>
  );
}
