import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  IconCash,
  IconCircleCheck,
  IconClockHour4,
  IconDots,
  IconEdit,
  IconPlus,
  IconReceipt,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import {
  PAYMENT_METHODS,
  PAYMENT_SORT_COLUMNS,
  PAYMENT_STATUSES,
  PAYMENT_STRINGS,
  PAYMENT_TYPES,
  type Payment,
  type PaymentMethod,
  type PaymentStatus,
  type PaymentType,
} from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { useUrlSearch, useUrlState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { RequireRole } from '../../components/require-role.tsx';
import { PaymentMethodBadge, PaymentStatusBadge, PaymentTypeBadge } from './payment-badges.tsx';
import { PaymentFormModal } from './payment-form-modal.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { formatDate, formatMoney } from '../../lib/format.ts';

type PaymentSort = (typeof PAYMENT_SORT_COLUMNS)[number];
const PAGE_SIZES = ['10', '20', '50'];
const sortKey = (accessor: string): PaymentSort =>
  (PAYMENT_SORT_COLUMNS as readonly string[]).includes(accessor) ? (accessor as PaymentSort) : 'payment_date';

export const PAYMENTS_DENIED = 'Access denied. Payments are available to Admins, Brokers and Agents.';

export function PaymentsPage() {
  const { hasRole } = useAuth();
  const [modal, setModal] = useState<{ opened: boolean; payment: Payment | null }>({ opened: false, payment: null });
  const canManage = hasRole('Admin', 'Broker');
  return (
    <>
      <PageHeader
        title={PAYMENT_STRINGS.title}
        actions={
          canManage && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, payment: null })}>
              {PAYMENT_STRINGS.record}
            </Button>
          )
        }
      />
      <RequireRole roles={['Admin', 'Broker', 'Agent']} message={PAYMENTS_DENIED}>
        <Stack>
          <SummaryCards />
          <PaymentsTable canManage={canManage} onEdit={(payment) => setModal({ opened: true, payment })} />
        </Stack>
        {canManage && (
          <PaymentFormModal opened={modal.opened} payment={modal.payment} onClose={() => setModal((m) => ({ ...m, opened: false }))} />
        )}
      </RequireRole>
    </>
  );
}

/** Total Revenue (Completed payments), Completed, Pending, Total Payments: over everything in the caller's scope. */
function SummaryCards() {
  const summary = trpc.payments.summary.useQuery();
  const s = summary.data;
  const { cards } = PAYMENT_STRINGS;
  if (summary.isError) return <QueryError things="payment summary" query={summary} />;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
      <StatCard label={cards.revenue} value={s && formatMoney(s.total_revenue)} icon={<IconCash size={24} />} color="green" loading={!s} />
      <StatCard label={cards.completed} value={s?.completed} icon={<IconCircleCheck size={24} />} color="teal" loading={!s} />
      <StatCard label={cards.pending} value={s?.pending} icon={<IconClockHour4 size={24} />} color="yellow" loading={!s} />
      <StatCard label={cards.total} value={s?.total_payments} icon={<IconReceipt size={24} />} color="blue" loading={!s} />
    </SimpleGrid>
  );
}

function PaymentsTable({ canManage, onEdit }: { canManage: boolean; onEdit: (p: Payment) => void }) {
  const utils = trpc.useUtils();
  const [state, setState] = useUrlState({
    page: '1',
    limit: '20',
    sort: 'payment_date',
    order: 'desc',
    status: '',
    type: '',
    method: '',
    search: '',
  });
  // The search box types freely; the URL (and the query) follow a moment later.
  const [searchText, onSearch] = useUrlSearch(state.search, (search) => setState({ search }));

  const page = Math.max(1, Number(state.page) || 1);
  const limit = PAGE_SIZES.includes(state.limit) ? Number(state.limit) : 20;
  const query = trpc.payments.page.useQuery(
    {
      page,
      limit,
      sort: sortKey(state.sort),
      order: state.order === 'asc' ? 'asc' : 'desc',
      status: (state.status || undefined) as PaymentStatus | undefined,
      payment_type: (state.type || undefined) as PaymentType | undefined,
      payment_method: (state.method || undefined) as PaymentMethod | undefined,
      search: state.search || undefined,
    },
    { placeholderData: keepPreviousData },
  );
  const remove = trpc.payments.delete.useMutation();

  const onDelete = async (p: Payment) => {
    if (!(await confirm(PAYMENT_STRINGS.confirmDelete, { confirmLabel: 'Delete' }))) return;
    remove.mutate(
      { id: p.payment_id },
      {
        onSuccess: () => {
          notify.success(PAYMENT_STRINGS.deleted);
          void utils.payments.invalidate();
        },
        onError: (err) => notify.failure(err, PAYMENT_STRINGS.deleteFailed),
      },
    );
  };

  const rows = query.data?.payments ?? [];
  const sortStatus: DataTableSortStatus<Payment> = {
    columnAccessor: state.sort,
    direction: state.order === 'asc' ? 'asc' : 'desc',
  };

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label="Search"
          placeholder="Name or description"
          leftSection={<IconSearch size={16} />}
          value={searchText}
          onChange={(e) => onSearch(e.currentTarget.value)}
          w={240}
        />
        <Select
          label="Status"
          placeholder="All statuses"
          data={[...PAYMENT_STATUSES]}
          value={state.status || null}
          onChange={(v) => setState({ status: v ?? '' })}
          clearable
          w={160}
        />
        <Select
          label="Type"
          placeholder="All types"
          data={[...PAYMENT_TYPES]}
          value={state.type || null}
          onChange={(v) => setState({ type: v ?? '' })}
          clearable
          w={160}
        />
        <Select
          label="Method"
          placeholder="All methods"
          data={[...PAYMENT_METHODS]}
          value={state.method || null}
          onChange={(v) => setState({ method: v ?? '' })}
          clearable
          w={160}
        />
      </Group>

      {query.isError ? (
        <QueryError things={PAYMENT_STRINGS.things} query={query} />
      ) : (
        <DataTable<Payment>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={rows.length ? undefined : 200}
          fetching={query.isFetching}
          records={rows}
          idAccessor="payment_id"
          noRecordsText={PAYMENT_STRINGS.empty}
          totalRecords={query.data?.pagination.total ?? 0}
          recordsPerPage={limit}
          page={page}
          onPageChange={(p) => setState({ page: String(p) })}
          recordsPerPageOptions={PAGE_SIZES.map(Number)}
          onRecordsPerPageChange={(n) => setState({ limit: String(n) })}
          paginationText={({ from, to, totalRecords }) => `Showing ${from} to ${to} of ${totalRecords} payments`}
          sortStatus={sortStatus}
          onSortStatusChange={(s) => setState({ sort: sortKey(String(s.columnAccessor)), order: s.direction })}
          columns={[
            { accessor: 'payment_date', title: 'Date', sortable: true, noWrap: true, render: (p) => formatDate(p.payment_date) },
            {
              accessor: 'user',
              title: 'User',
              sortable: true,
              render: (p) => (
                <Text size="sm" fw={500}>
                  {p.first_name} {p.last_name}
                </Text>
              ),
            },
            {
              accessor: 'payment_type',
              title: 'Type',
              sortable: true,
              noWrap: true,
              render: (p) => <PaymentTypeBadge type={p.payment_type} />,
            },
            {
              accessor: 'amount',
              title: 'Amount',
              sortable: true,
              noWrap: true,
              textAlign: 'right',
              render: (p) => formatMoney(p.amount),
            },
            {
              accessor: 'payment_method',
              title: 'Method',
              sortable: true,
              noWrap: true,
              render: (p) => <PaymentMethodBadge method={p.payment_method} />,
            },
            { accessor: 'status', title: 'Status', sortable: true, noWrap: true, render: (p) => <PaymentStatusBadge status={p.status} /> },
            {
              accessor: 'description',
              title: 'Description',
              render: (p) => (
                <Text size="sm" c={p.description ? undefined : 'dimmed'} lineClamp={2} maw={280}>
                  {p.description || '-'}
                </Text>
              ),
            },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'center',
              hidden: !canManage,
              render: (p) => (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`Actions for payment ${p.payment_id}`}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => onEdit(p)}>
                      Edit
                    </Menu.Item>
                    <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete(p)}>
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              ),
            },
          ]}
        />
      )}
    </Stack>
  );
}
