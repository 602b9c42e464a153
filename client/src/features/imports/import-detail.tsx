/**
 * Steps 2-4 of an import (docs/product.md "Imports"): the mapping table (each column of the file with sample values
 * and a Select of the kind's fields; a change is sent at once and the preview recomputed), the preview (counts, the
 * rows with error rows marked by colour, icon and their messages, filtered and paged), the commit with its progress,
 * and then the result with the errors file. A committed or undone import shows its result only.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Group, List, Paper, Progress, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconCircleCheck,
  IconCirclePlus,
  IconDownload,
  IconEqual,
  IconFileImport,
  IconHistory,
  IconPencil,
  type Icon,
} from '@tabler/icons-react';
import type { ImportAction, ImportCounts, ImportKind, ImportPreview, ImportPreviewRow } from '@lm/shared';
import { ListTable, PHONE_QUERY } from '../../components/list-table.tsx';
import { useMediaQuery } from '@mantine/hooks';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { fileCallMessage } from '../../lib/download.ts';
import { errorMessage } from '../../lib/errors.ts';
import { formatCount } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { useListState } from '../../lib/use-url-state.ts';
import { downloadErrors, useCommitImport, useImport, useUpdateMapping } from './api.ts';
import { fieldOptions, missingRequired, nextMapping, NOT_IMPORTED, resultText } from './mapping.ts';
import { ACTION_COLORS, ACTION_LABELS, FILTER_OPTIONS, IMPORT_SCREEN } from './strings.ts';

const ACTION_ICONS: Record<ImportAction, Icon> = {
  create: IconCirclePlus,
  update: IconPencil,
  unchanged: IconEqual,
  error: IconAlertTriangle,
};
const isAction = (v: string): v is ImportAction => FILTER_OPTIONS.some((o) => o.value === v);

export function ImportDetail({ id, onAnother, onHistory }: { id: number; onAnother: (kind: ImportKind) => void; onHistory: () => void }) {
  const list = useListState({ sort: 'row', limit: 50, filters: { show: '' } });
  const filter = isAction(list.filters.show) ? list.filters.show : undefined;
  const query = useImport({ id, page: list.page, page_size: list.limit, filter });
  const commit = useCommitImport();

  if (query.isError && !query.data) return <QueryError things="the import" query={query} />;
  const data = query.data;
  if (!data) return <Skeleton h={320} role="status" aria-label="Loading the import" />;
  if (data.status !== 'previewed') {
    return <ImportResult preview={data} counts={commit.data?.counts ?? data.counts} onAnother={onAnother} onHistory={onHistory} />;
  }
  return (
    <Stack gap="lg">
      <MappingTable preview={data} />
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <Stack>
          <div>
            <Title order={2} size="h4">
              {IMPORT_SCREEN.previewTitle}
            </Title>
            <Text size="sm" c="dimmed">
              {data.file_name} · {IMPORT_SCREEN.previewHelp}
            </Text>
          </div>
          <Counts counts={data.counts} />
          <ListToolbar
            list={list}
            fields={[{ name: 'show', label: IMPORT_SCREEN.show, placeholder: IMPORT_SCREEN.allRows, data: FILTER_OPTIONS, w: 200 }]}
          />
          <ListTable<ImportPreviewRow>
            things={IMPORT_SCREEN.rowsThings}
            query={query}
            records={data.rows}
            total={data.total_rows}
            idAccessor="row"
            list={list}
            emptyText={IMPORT_SCREEN.emptyRows}
            columns={[
              { accessor: 'row', title: 'Row', textAlign: 'right', width: 70, card: 'title', renderCard: (r) => `Row ${r.row}` },
              { accessor: 'action', title: 'Action', noWrap: true, render: (r) => <ActionBadge action={r.action} /> },
              { accessor: 'summary', title: 'What it does', card: 'wide', render: (r) => r.summary ?? '' },
              { accessor: 'errors', title: 'Problems', card: 'wide', render: (r) => <RowErrors row={r} /> },
            ]}
          />
        </Stack>
      </Paper>
      <CommitStep preview={data} commit={commit} />
    </Stack>
  );
}

/** A row's action in words, colour and icon (never colour alone). */
function ActionBadge({ action }: { action: ImportAction }) {
  const Icon = ACTION_ICONS[action];
  return (
    <Badge variant="light" color={ACTION_COLORS[action]} leftSection={<Icon size={14} aria-hidden />}>
      {ACTION_LABELS[action]}
    </Badge>
  );
}

function RowErrors({ row }: { row: ImportPreviewRow }) {
  if (row.errors.length === 0) return null;
  return (
    <List size="sm" spacing={2} c="red" icon={<IconAlertTriangle size={14} aria-hidden />} center>
      {row.errors.map((e, i) => (
        <List.Item key={i}>
          <Text span fw={600} size="sm" c="red">
            {e.column}:
          </Text>{' '}
          {e.message}
        </List.Item>
      ))}
    </List>
  );
}

/** The four counts; each card opens the rows it counts (the filter in the URL). */
function Counts({ counts }: { counts: ImportCounts }) {
  const cards: { action: ImportAction; label: string; value: number; color: string }[] = [
    { action: 'create', label: 'New', value: counts.create, color: 'green' },
    { action: 'update', label: 'Updated', value: counts.update, color: 'blue' },
    { action: 'unchanged', label: 'Unchanged', value: counts.unchanged, color: 'gray' },
    { action: 'error', label: 'Errors', value: counts.error, color: 'red' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {cards.map((c) => {
        const Icon = ACTION_ICONS[c.action];
        return (
          <StatCard
            key={c.action}
            label={c.label}
            value={formatCount(c.value)}
            color={c.color}
            testId={`import-${c.action}`}
            icon={<Icon size={20} aria-hidden />}
          />
        );
      })}
    </SimpleGrid>
  );
}

/** A column of the file: its header and its first values. */
function ColumnName({ name, samples }: { name: string; samples: string[] }) {
  const values = samples.filter(Boolean);
  return (
    <div style={{ wordBreak: 'break-word' }}>
      <Text size="sm" fw={600}>
        {name}
      </Text>
      <Text size="xs" c="dimmed" lineClamp={2}>
        {values.length ? values.join(' · ') : IMPORT_SCREEN.noSamples}
      </Text>
    </div>
  );
}

/** Step 2: each column of the file, its first values and what it imports as. */
function MappingTable({ preview }: { preview: ImportPreview }) {
  const update = useUpdateMapping();
  const options = fieldOptions(preview.fields);
  const missing = missingRequired(preview.fields, preview.mapping);
  const change = (column: string, value: string | null) =>
    update.mutate({ id: preview.import_id, mapping: nextMapping(preview.mapping, column, value) });
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  const select = (column: string) => (
    <Select
      aria-label={`Field for the column ${column}`}
      data={options}
      value={preview.mapping[column] ?? NOT_IMPORTED}
      allowDeselect={false}
      onChange={(v) => change(column, v)}
      disabled={update.isPending}
    />
  );
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Stack>
        <div>
          <Title order={2} size="h4">
            {IMPORT_SCREEN.mappingTitle}
          </Title>
          <Text size="sm" c="dimmed">
            {IMPORT_SCREEN.mappingHelp}
          </Text>
        </div>
        {missing.length > 0 && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} role="status">
            {IMPORT_SCREEN.missing(missing.map((f) => f.label))}
          </Alert>
        )}
        {phone ? (
          // At phone width each column is a block: its name and samples, then its Select across the screen.
          <Stack gap="sm" role="list" aria-label="Column mapping">
            {preview.columns.map((c) => (
              <Stack key={c.name} gap={6} role="listitem" pb="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
                <ColumnName name={c.name} samples={c.samples} />
                {select(c.name)}
              </Stack>
            ))}
          </Stack>
        ) : (
          <Table aria-label="Column mapping" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{IMPORT_SCREEN.fileColumn}</Table.Th>
                <Table.Th>{IMPORT_SCREEN.importsAs}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.columns.map((c) => (
                <Table.Tr key={c.name}>
                  <Table.Td>
                    <ColumnName name={c.name} samples={c.samples} />
                  </Table.Td>
                  <Table.Td w="45%" miw={220}>
                    {select(c.name)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

/** Step 4: commit the rows that write something, with a bar while it runs; a refusal shows in place. */
function CommitStep({ preview, commit }: { preview: ImportPreview; commit: ReturnType<typeof useCommitImport> }) {
  const writes = preview.counts.create + preview.counts.update;
  const missing = missingRequired(preview.fields, preview.mapping);
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Stack>
        <Title order={2} size="h4">
          {IMPORT_SCREEN.commitTitle}
        </Title>
        {writes === 0 && missing.length === 0 && (
          <Text size="sm">{preview.counts.error > 0 ? IMPORT_SCREEN.onlyErrors : IMPORT_SCREEN.nothingToWrite}</Text>
        )}
        {commit.isPending && (
          <Stack gap={4}>
            <Text size="sm">{IMPORT_SCREEN.committing(writes)}</Text>
            <Progress value={100} striped animated aria-label={IMPORT_SCREEN.committingLabel} />
          </Stack>
        )}
        {commit.isError && (
          <Alert color="red" role="alert">
            {errorMessage(commit.error, 'Failed to import the rows')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            leftSection={<IconFileImport size={16} />}
            // After the answer, until the page shows the result (a second commit would be refused).
            disabled={writes === 0 || missing.length > 0 || commit.isSuccess}
            loading={commit.isPending}
            onClick={() => commit.mutate({ id: preview.import_id })}
          >
            {IMPORT_SCREEN.commit(writes)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** After the commit (or an undo): what was written, the errors file when rows were skipped, and where to go next. */
function ImportResult({
  preview,
  counts,
  onAnother,
  onHistory,
}: {
  preview: ImportPreview;
  counts: ImportCounts;
  onAnother: (kind: ImportKind) => void;
  onHistory: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const undone = preview.status === 'undone';
  const errors = () => {
    setBusy(true);
    downloadErrors(preview.import_id)
      .then((name) => notify.success(`Downloaded ${name}`))
      .catch((err: unknown) => notify.error(fileCallMessage(err, 'Failed to download the errors file')))
      .finally(() => setBusy(false));
  };
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Stack>
        <Alert
          color={undone ? 'orange' : 'green'}
          icon={undone ? <IconArrowBackUp size={18} /> : <IconCircleCheck size={18} />}
          title={undone ? IMPORT_SCREEN.undoneTitle : IMPORT_SCREEN.resultTitle}
          role="status"
        >
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {preview.file_name}
          </Text>
          <Text size="sm" data-testid="import-result">
            {resultText(counts)}
          </Text>
        </Alert>
        <Counts counts={counts} />
        <Group gap="sm">
          {counts.error > 0 && (
            <Button variant="light" color="red" leftSection={<IconDownload size={16} />} loading={busy} onClick={errors}>
              {IMPORT_SCREEN.downloadErrors}
            </Button>
          )}
          <Button variant="default" leftSection={<IconHistory size={16} />} onClick={onHistory}>
            {IMPORT_SCREEN.viewHistory}
          </Button>
          <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => onAnother(preview.kind)}>
            {IMPORT_SCREEN.anotherFile}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
