import { useState, type KeyboardEvent } from 'react';
import { ActionIcon, Box, Button, Group, Menu, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconDots, IconEdit, IconPlus, IconRefresh, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import {
  LICENSE_SORT_COLUMNS,
  LICENSE_STATE_CODES,
  LICENSE_STATUSES,
  LICENSE_STRINGS,
  LICENSE_TYPES,
  type License,
  type LicenseSortColumn,
  type LicenseStatus,
  type LicenseType,
} from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { useUrlSearch, useUrlState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { RequireRole } from '../../components/require-role.tsx';
import { CeProgress, ExpiryBadge } from './license-badges.tsx';
import { LicenseStatusBadge } from '../../components/license-status-badge.tsx';
import { LicenseFormModal } from './license-form-modal.tsx';
import { RenewModal } from './renew-modal.tsx';
import { TranscriptDrawer } from '../../components/transcript-drawer.tsx';
import { AdjustmentForm } from './adjustment-form.tsx';
import { useRefreshLicenseData } from './api.ts';
import { formatDate } from '../../lib/format.ts';

const PAGE_SIZES = ['10', '20', '50'];
const EXPIRING_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '60', label: '60 days' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days' },
  { value: '365', label: '1 year' },
];
/** Table column -> the server's sort key. */
const SORT_KEYS: Record<string, LicenseSortColumn> = { holder: 'holder', ce: 'ce_hours_completed' };
const sortKey = (accessor: string): LicenseSortColumn =>
  SORT_KEYS[accessor] ??
  ((LICENSE_SORT_COLUMNS as readonly string[]).includes(accessor) ? (accessor as LicenseSortColumn) : 'expiration_date');

export const LICENSES_DENIED = 'Access denied. Licenses are available to Admins, Brokers and Agents.';

export function LicensesPage() {
  return (
    <>
      <PageHeader title={LICENSE_STRINGS.title} />
      <RequireRole roles={['Admin', 'Broker', 'Agent']} message={LICENSES_DENIED}>
        <LicensesTable />
      </RequireRole>
    </>
  );
}

function LicensesTable() {
  const { hasRole } = useAuth();
  const canManage = hasRole('Admin', 'Broker');
  const [state, setState] = useUrlState({
    page: '1',
    limit: '20',
    sort: 'expiration_date',
    order: 'asc',
    status: '',
    state: '',
    type: '',
    expiring: '',
    search: '',
  });
  // The search box types freely; the URL (and the query) follow a moment later.
  const [searchText, onSearch] = useUrlSearch(state.search, (search) => setState({ search }));

  const page = Math.max(1, Number(state.page) || 1);
  const limit = PAGE_SIZES.includes(state.limit) ? Number(state.limit) : 20;
  const query = trpc.licenses.page.useQuery(
    {
      page,
      limit,
      sort: sortKey(state.sort),
      order: state.order === 'desc' ? 'desc' : 'asc',
      status: (state.status || undefined) as LicenseStatus | undefined,
      state: state.state || undefined,
      license_type: (state.type || undefined) as LicenseType | undefined,
      expiring_within: state.expiring ? Number(state.expiring) : undefined,
      search: state.search || undefined,
    },
    { placeholderData: keepPreviousData },
  );
  const [modal, setModal] = useState<{ opened: boolean; license: License | null }>({ opened: false, license: null });
  const [renewing, setRenewing] = useState<License | null>(null);
  const [transcriptId, setTranscriptId] = useState<number | null>(null);
  const remove = trpc.licenses.delete.useMutation();
  const refresh = useRefreshLicenseData();

  const onDelete = async (l: License) => {
    if (!(await confirm(LICENSE_STRINGS.confirmDelete, { confirmLabel: 'Delete' }))) return;
    remove.mutate(
      { id: l.license_id },
      {
        onSuccess: () => {
          notify.success(LICENSE_STRINGS.deleted);
          refresh();
        },
        onError: (err) => notify.failure(err, LICENSE_STRINGS.deleteFailed),
      },
    );
  };

  const rows = query.data?.licenses ?? [];
  const sortStatus: DataTableSortStatus<License> = {
    columnAccessor: state.sort === 'ce_hours_completed' ? 'ce' : state.sort,
    direction: state.order === 'desc' ? 'desc' : 'asc',
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <TextInput
            label="Search"
            placeholder="Holder name or license number"
            leftSection={<IconSearch size={16} />}
            value={searchText}
            onChange={(e) => onSearch(e.currentTarget.value)}
            w={250}
          />
          <Select
            label="Status"
            placeholder="All statuses"
            data={[...LICENSE_STATUSES]}
            value={state.status || null}
            onChange={(v) => setState({ status: v ?? '' })}
            clearable
            w={170}
          />
          <Select
            label="State"
            placeholder="All states"
            data={[...LICENSE_STATE_CODES]}
            value={state.state || null}
            onChange={(v) => setState({ state: v ?? '' })}
            searchable
            clearable
            w={130}
          />
          <Select
            label="License Type"
            placeholder="All types"
            data={[...LICENSE_TYPES]}
            value={state.type || null}
            onChange={(v) => setState({ type: v ?? '' })}
            clearable
            w={170}
          />
          <Select
            label="Expiring Within"
            placeholder="Any time"
            data={EXPIRING_OPTIONS}
            value={state.expiring || null}
            onChange={(v) => setState({ expiring: v ?? '' })}
            clearable
            w={150}
          />
        </Group>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, license: null })}>
            {LICENSE_STRINGS.add}
          </Button>
        )}
      </Group>

      {query.isError ? (
        <QueryError things={LICENSE_STRINGS.things} query={query} />
      ) : (
        <DataTable<License>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={rows.length ? undefined : 200}
          fetching={query.isFetching}
          records={rows}
          idAccessor="license_id"
          noRecordsText={LICENSE_STRINGS.empty}
          totalRecords={query.data?.pagination.total ?? 0}
          recordsPerPage={limit}
          page={page}
          onPageChange={(p) => setState({ page: String(p) })}
          recordsPerPageOptions={PAGE_SIZES.map(Number)}
          onRecordsPerPageChange={(n) => setState({ limit: String(n) })}
          paginationText={({ from, to, totalRecords }) => `Showing ${from} to ${to} of ${totalRecords} licenses`}
          sortStatus={sortStatus}
          // A row opens its CE transcript, by click or by Enter / Space once focused (its name stays its cells' text).
          onRowClick={({ record }) => setTranscriptId(record.license_id)}
          customRowAttributes={(l) => ({
            tabIndex: 0,
            onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
              if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
              e.preventDefault();
              setTranscriptId(l.license_id);
            },
          })}
          rowStyle={() => ({ cursor: 'pointer' })}
          onSortStatusChange={(s) => setState({ sort: sortKey(String(s.columnAccessor)), order: s.direction })}
          columns={[
            {
              accessor: 'holder',
              title: 'Holder',
              sortable: true,
              render: (l) => (
                <Text size="sm" fw={500}>
                  {l.first_name} {l.last_name}
                </Text>
              ),
            },
            { accessor: 'license_number', title: 'License Number', sortable: true, noWrap: true },
            { accessor: 'state', title: 'State', sortable: true },
            { accessor: 'license_type', title: 'Type', sortable: true, noWrap: true },
            { accessor: 'issue_date', title: 'Issue Date', sortable: true, noWrap: true, render: (l) => formatDate(l.issue_date) },
            {
              accessor: 'expiration_date',
              title: 'Expiration',
              sortable: true,
              noWrap: true,
              render: (l) => (
                <Stack gap={4} align="flex-start">
                  <Text size="sm">{formatDate(l.expiration_date)}</Text>
                  <ExpiryBadge expirationDate={l.expiration_date} />
                </Stack>
              ),
            },
            { accessor: 'status', title: 'Status', sortable: true, noWrap: true, render: (l) => <LicenseStatusBadge status={l.status} /> },
            {
              accessor: 'ce',
              title: 'CE Progress',
              sortable: true,
              render: (l) => <CeProgress completed={l.ce_hours_completed} required={l.ce_hours_required} />,
            },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'center',
              hidden: !canManage,
              // The menu's clicks and keys stay in the cell: they must not open the row's transcript.
              render: (l) => (
                <Box onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for license ${l.license_number}`}>
                        <IconDots size={18} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => setRenewing(l)}>
                        Renew
                      </Menu.Item>
                      <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => setModal({ opened: true, license: l })}>
                        Edit
                      </Menu.Item>
                      <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete(l)}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Box>
              ),
            },
          ]}
        />
      )}

      {canManage && (
        <LicenseFormModal opened={modal.opened} license={modal.license} onClose={() => setModal((m) => ({ ...m, opened: false }))} />
      )}
      {canManage && <RenewModal license={renewing} onClose={() => setRenewing(null)} />}
      <TranscriptDrawer
        licenseId={transcriptId}
        onClose={() => setTranscriptId(null)}
        adjustment={canManage ? (id) => <AdjustmentForm key={id} licenseId={id} /> : undefined}
      />
    </Stack>
  );
}
