import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEye, IconFilterOff, IconRefresh } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { AUDIT_PAGE_SIZES, AUDIT_STRINGS, auditActionColor, auditUserLabel, DEFAULT_AUDIT_PAGE_SIZE, type AuditLog } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { AuditDetailModal } from './audit-detail-modal.tsx';
import { PageButtons } from '../../components/page-buttons.tsx';
import { formatCount, formatDateTime } from '../../lib/format.ts';

const LIMITS = AUDIT_PAGE_SIZES.map(String);
const DEFAULTS = {
  page: '1',
  limit: String(DEFAULT_AUDIT_PAGE_SIZE),
  user_id: '',
  action: '',
  target_table: '',
  start_date: '',
  end_date: '',
};

/** Text typed freely; the URL (and so the query) follows a moment later. */
function useDebouncedField(value: string, commit: (v: string) => void) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text.trim(), 350);
  useEffect(() => {
    if (debounced !== value) commit(debounced);
    // Only a change of the typed text commits; an outside change (Clear Filters) resets the box below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  useEffect(() => {
    if (value !== text.trim()) setText(value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return [text, setText] as const;
}

function SummaryCard({ label, value, loading }: { label: string; value: number | undefined; loading: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={`summary-${label}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {loading ? (
        <Skeleton h={30} mt={4} w={80} />
      ) : (
        <Text fw={700} fz={26}>
          {formatCount(value ?? 0)}
        </Text>
      )}
    </Card>
  );
}

/** Audit Logs (docs/product.md section 2), Admin only (wrapped in <AdminOnly> by the routes). */
export function AuditPage() {
  const [state, setState] = useUrlState(DEFAULTS);
  const page = Math.max(1, Number(state.page) || 1);
  const limit = LIMITS.includes(state.limit) ? Number(state.limit) : DEFAULT_AUDIT_PAGE_SIZE;
  const [userText, setUserText] = useDebouncedField(state.user_id, (v) => setState({ user_id: v }));
  const [actionText, setActionText] = useDebouncedField(state.action, (v) => setState({ action: v }));
  const [selected, setSelected] = useState<AuditLog | null>(null);

  const userId = /^\d+$/.test(state.user_id) ? Number(state.user_id) : undefined;
  const range = { start_date: state.start_date || undefined, end_date: state.end_date || undefined };
  const logs = trpc.audit.logs.useQuery(
    {
      page,
      limit,
      user_id: userId,
      action: state.action || undefined,
      target_table: state.target_table || undefined,
      ...range,
    },
    { placeholderData: keepPreviousData },
  );
  const summary = trpc.audit.summary.useQuery(range, { placeholderData: keepPreviousData });
  const tables = trpc.audit.summary.useQuery(undefined, { staleTime: 5 * 60_000 });

  const refresh = () => {
    void logs.refetch();
    void summary.refetch();
  };
  const clear = () => setState({ ...DEFAULTS, limit: state.limit });
  const hasFilters = Boolean(state.user_id || state.action || state.target_table || state.start_date || state.end_date);
  const rows = logs.data?.logs ?? [];
  const pagination = logs.data?.pagination ?? { page, limit, total: 0, pages: 0 };

  return (
    <>
      <PageHeader
        title={AUDIT_STRINGS.title}
        description="Every change, sign-in and sign-out, newest first."
        actions={
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={logs.isFetching && !logs.isLoading}>
            {AUDIT_STRINGS.refresh}
          </Button>
        }
      />
      <Stack>
        {summary.isError && <QueryError things="audit summary" query={summary} fallback={AUDIT_STRINGS.fetchSummaryFailed} />}
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <SummaryCard label={AUDIT_STRINGS.totalLogs} value={summary.data?.total_logs} loading={summary.isLoading} />
          <SummaryCard label={AUDIT_STRINGS.activeUsers} value={summary.data?.unique_users} loading={summary.isLoading} />
          <SummaryCard label={AUDIT_STRINGS.actionTypes} value={summary.data?.top_actions.length} loading={summary.isLoading} />
          <SummaryCard label={AUDIT_STRINGS.tablesModified} value={summary.data?.top_tables.length} loading={summary.isLoading} />
        </SimpleGrid>

        <Card withBorder radius="md" padding="md">
          <Group align="flex-end" wrap="wrap" gap="sm">
            <TextInput
              label="User ID"
              placeholder="Any user"
              value={userText}
              onChange={(e) => setUserText(e.currentTarget.value)}
              w={110}
              inputMode="numeric"
            />
            <TextInput
              label="Action"
              placeholder="e.g. create"
              value={actionText}
              onChange={(e) => setActionText(e.currentTarget.value)}
              w={150}
            />
            <Select
              label="Table"
              placeholder="All tables"
              data={(tables.data?.top_tables ?? []).map((t) => t.target_table).sort()}
              value={state.target_table || null}
              onChange={(v) => setState({ target_table: v ?? '' })}
              clearable
              searchable
              w={160}
            />
            <Select
              label="Limit"
              data={LIMITS}
              value={String(limit)}
              onChange={(v) => v && setState({ limit: v })}
              allowDeselect={false}
              w={90}
            />
            <TextInput
              label="Start Date"
              type="date"
              value={state.start_date}
              max={state.end_date || undefined}
              onChange={(e) => setState({ start_date: e.currentTarget.value })}
              w={160}
            />
            <TextInput
              label="End Date"
              type="date"
              value={state.end_date}
              min={state.start_date || undefined}
              onChange={(e) => setState({ end_date: e.currentTarget.value })}
              w={160}
            />
            <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={clear} disabled={!hasFilters}>
              {AUDIT_STRINGS.clearFilters}
            </Button>
          </Group>
        </Card>

        {logs.isError ? (
          <QueryError things={AUDIT_STRINGS.things} query={logs} fallback={AUDIT_STRINGS.fetchLogsFailed} />
        ) : (
          <DataTable<AuditLog>
            withTableBorder
            borderRadius="md"
            striped
            highlightOnHover
            minHeight={rows.length ? undefined : 200}
            records={rows}
            idAccessor="log_id"
            fetching={logs.isFetching}
            noRecordsText={AUDIT_STRINGS.empty}
            columns={[
              {
                accessor: 'timestamp',
                title: 'Timestamp',
                render: (l) => formatDateTime(l.timestamp, '', { seconds: true }),
                noWrap: true,
              },
              { accessor: 'user', title: 'User', render: (l) => auditUserLabel(l) },
              {
                accessor: 'action',
                title: 'Action',
                render: (l) => (
                  <Badge color={auditActionColor(l.action)} variant="light" data-color={auditActionColor(l.action)}>
                    {l.action}
                  </Badge>
                ),
              },
              { accessor: 'target_table', title: 'Table', render: (l) => l.target_table ?? '-' },
              { accessor: 'target_id', title: 'Target ID', render: (l) => l.target_id ?? '-' },
              { accessor: 'ip_address', title: 'IP Address', render: (l) => l.ip_address ?? '-' },
              {
                accessor: 'view',
                title: 'View',
                textAlign: 'center',
                render: (l) => (
                  <Tooltip label="View details">
                    <ActionIcon variant="subtle" aria-label={`View log ${l.log_id}`} onClick={() => setSelected(l)}>
                      <IconEye size={18} />
                    </ActionIcon>
                  </Tooltip>
                ),
              },
            ]}
          />
        )}
        <PageButtons
          page={pagination.page}
          pages={pagination.pages}
          total={pagination.total}
          limit={pagination.limit}
          onChange={(p) => setState({ page: String(p) })}
        />
      </Stack>
      <AuditDetailModal log={selected} onClose={() => setSelected(null)} />
    </>
  );
}
