import { useEffect, useState } from 'react';
import { Badge, Button, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconActivity, IconEye, IconFilterOff, IconListDetails, IconRefresh, IconTable, IconUsers } from '@tabler/icons-react';
import {
  AUDIT_PAGE_SIZES,
  AUDIT_SORT_BOUND,
  AUDIT_SORT_COLUMNS,
  AUDIT_STRINGS,
  auditActionColor,
  auditSortIndexed,
  auditUserLabel,
  DEFAULT_AUDIT_PAGE_SIZE,
  type AuditLog,
  type AuditSortColumn,
} from '@lm/shared';
import { useListState } from '../../lib/use-url-state.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { RowActionButtons } from '../../components/row-actions.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { AuditDetailModal } from './audit-detail-modal.tsx';
import { useAuditLogs, useAuditSummary, useAuditTables } from './api.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { fieldErrors } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';

const FILTERS = { user_id: '', action: '', target_table: '', start_date: '', end_date: '' };
/** Table column -> the server's sort key, where they differ. */
const SORT_KEYS = { user: 'user' };
const sortKey = (key: string): AuditSortColumn =>
  (AUDIT_SORT_COLUMNS as readonly string[]).includes(key) ? (key as AuditSortColumn) : 'timestamp';

/** Audit Logs (docs/product.md section 2), Admin only (wrapped in <RequireAccess action="audit.read"> by the routes). */
export function AuditPage() {
  const list = useListState({
    sort: 'timestamp',
    order: 'desc',
    limit: DEFAULT_AUDIT_PAGE_SIZE,
    pageSizes: AUDIT_PAGE_SIZES,
    filters: FILTERS,
  });
  const f = list.filters;
  const [selected, setSelected] = useState<AuditLog | null>(null);
  const tables = useAuditTables();

  const range = { start_date: f.start_date || undefined, end_date: f.end_date || undefined };
  /** The list's filters and sort as the page procedure and the CSV export take them. */
  const view = {
    user_id: /^\d+$/.test(f.user_id) ? Number(f.user_id) : undefined,
    action: f.action || undefined,
    target_table: f.target_table || undefined,
    ...range,
    sort: sortKey(list.sort),
    order: list.order,
  };
  const logs = useAuditLogs({ ...view, page: list.page, limit: list.limit, cursor: list.cursor || undefined });
  const summary = useAuditSummary(range);
  const total = logs.data?.pagination.total ?? 0;
  // A column no index serves for this view sorts only a view small enough (docs/decisions.md "Audit log sort").
  const sortable = (key: AuditSortColumn) => auditSortIndexed(key, view) || (logs.data !== undefined && total <= AUDIT_SORT_BOUND);

  // A filter change grew the view past what this sort may cover: say so and go back to newest first.
  const sortRefused = logs.error ? fieldErrors(logs.error).sort : undefined;
  useEffect(() => {
    if (!sortRefused) return;
    notify.info(sortRefused);
    list.setSort('timestamp', 'desc');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sortRefused]);

  const refresh = () => {
    void logs.refetch();
    void summary.refetch();
  };
  const hasFilters = Object.values(f).some(Boolean);
  const s = summary.data;

  return (
    <>
      <PageHeader
        title={AUDIT_STRINGS.title}
        description="Every change, sign-in and sign-out, newest first."
        actions={
          <Group gap="sm">
            <ExportButton path="/api/audit/logs/export" params={view} things="audit logs" />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={refresh}
              loading={logs.isFetching && !logs.isLoading}
            >
              {AUDIT_STRINGS.refresh}
            </Button>
          </Group>
        }
      />
      <Stack>
        {summary.isError && <QueryError things="audit summary" query={summary} fallback={AUDIT_STRINGS.fetchSummaryFailed} />}
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <StatCard
            label={AUDIT_STRINGS.totalLogs}
            value={s && formatCount(s.total_logs)}
            icon={<IconListDetails size={22} />}
            color="blue"
            loading={summary.isLoading}
          />
          <StatCard
            label={AUDIT_STRINGS.activeUsers}
            value={s && formatCount(s.unique_users)}
            icon={<IconUsers size={22} />}
            color="green"
            loading={summary.isLoading}
          />
          <StatCard
            label={AUDIT_STRINGS.actionTypes}
            value={s && formatCount(s.top_actions.length)}
            icon={<IconActivity size={22} />}
            color="orange"
            loading={summary.isLoading}
          />
          <StatCard
            label={AUDIT_STRINGS.tablesModified}
            value={s && formatCount(s.top_tables.length)}
            icon={<IconTable size={22} />}
            color="grape"
            loading={summary.isLoading}
          />
        </SimpleGrid>

        <ListToolbar
          variant="card"
          list={list}
          fields={[
            { type: 'text', name: 'user_id', label: 'User ID', placeholder: 'Any user', inputMode: 'numeric', wait: 350, w: 110 },
            { type: 'text', name: 'action', label: 'Action', placeholder: 'e.g. create', wait: 350, w: 150 },
            { name: 'target_table', label: 'Table', placeholder: 'All tables', data: tables, searchable: true, w: 160 },
            { type: 'date', name: 'start_date', label: 'Start Date', max: f.end_date, w: 160 },
            { type: 'date', name: 'end_date', label: 'End Date', min: f.start_date, w: 160 },
          ]}
        >
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            onClick={() => list.setFilters(FILTERS)}
            disabled={!hasFilters}
          >
            {AUDIT_STRINGS.clearFilters}
          </Button>
        </ListToolbar>

        <ListTable<AuditLog>
          things={AUDIT_STRINGS.things}
          query={logs}
          records={logs.data?.logs}
          total={total}
          paging={logs.data?.pagination}
          idAccessor="log_id"
          list={list}
          sortKeys={SORT_KEYS}
          pageSizes={AUDIT_PAGE_SIZES}
          emptyText={AUDIT_STRINGS.empty}
          fallback={AUDIT_STRINGS.fetchLogsFailed}
          onOpen={setSelected}
          actionsTitle="View"
          actions={(l) => (
            <RowActionButtons
              actions={[{ label: 'View details', name: `View log ${l.log_id}`, icon: IconEye, onClick: () => setSelected(l) }]}
            />
          )}
          columns={[
            {
              accessor: 'timestamp',
              title: 'Timestamp',
              sortable: true,
              render: (l) => formatDateTime(l.timestamp, '', { seconds: true }),
              noWrap: true,
            },
            { accessor: 'user', title: 'User', sortable: sortable('user'), render: (l) => auditUserLabel(l) },
            {
              accessor: 'action',
              title: 'Action',
              sortable: sortable('action'),
              render: (l) => (
                <Badge color={auditActionColor(l.action)} variant="light" data-color={auditActionColor(l.action)}>
                  {l.action}
                </Badge>
              ),
            },
            { accessor: 'target_table', title: 'Table', sortable: sortable('target_table'), render: (l) => l.target_table ?? '-' },
            { accessor: 'target_id', title: 'Target ID', sortable: sortable('target_id'), render: (l) => l.target_id ?? '-' },
            {
              accessor: 'ip_address',
              title: 'IP Address',
              sortable: sortable('ip_address'),
              // In the detail; a phone's card shows when, who, what and on which row.
              card: 'hidden',
              render: (l) => l.ip_address ?? '-',
            },
          ]}
        />
      </Stack>
      <AuditDetailModal log={selected} onClose={() => setSelected(null)} />
    </>
  );
}
