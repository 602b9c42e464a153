import { useState } from 'react';
import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCash, IconCircleCheck, IconClockHour4, IconPlus, IconReceipt } from '@tabler/icons-react';
import {
  PAYMENT_METHODS,
  PAYMENT_SORT_COLUMNS,
  PAYMENT_STATUSES,
  PAYMENT_STRINGS,
  PAYMENT_TYPES,
  type Payment,
  type PaymentMethod,
  type PaymentSortColumn,
  type PaymentStatus,
  type PaymentType,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionsMenu } from '../../components/row-actions.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { RequireAccess } from '../../components/require-role.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { PaymentMethodBadge, PaymentStatusBadge, PaymentTypeBadge } from './payment-badges.tsx';
import { PaymentFormModal } from './payment-form-modal.tsx';
import { PaymentDrawer } from './payment-drawer.tsx';
import { useDeletePayment, usePaymentSummary, usePaymentsPage } from './api.ts';
import { formatCount, formatDate, formatMoney } from '../../lib/format.ts';

const sortKey = (key: string): PaymentSortColumn =>
  (PAYMENT_SORT_COLUMNS as readonly string[]).includes(key) ? (key as PaymentSortColumn) : 'payment_date';

export const PAYMENTS_DENIED = 'Access denied. Payments are available to Admins, Brokers and Agents.';

export function PaymentsPage() {
  const { can } = useAuth();
  const [modal, setModal] = useState<{ opened: boolean; payment: Payment | null }>({ opened: false, payment: null });
  // The row menu's edit and delete (payments.update, .delete: the same roles in the policy).
  const canManage = can('payments.update');
  return (
    <>
      <PageHeader
        title={PAYMENT_STRINGS.title}
        actions={
          can('payments.create') && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, payment: null })}>
              {PAYMENT_STRINGS.record}
            </Button>
          )
        }
      />
      <RequireAccess action="payments.read" message={PAYMENTS_DENIED}>
        <Stack>
          <SummaryCards />
          <PaymentsTable canManage={canManage} onEdit={(payment) => setModal({ opened: true, payment })} />
        </Stack>
        {canManage && (
          <PaymentFormModal opened={modal.opened} payment={modal.payment} onClose={() => setModal((m) => ({ ...m, opened: false }))} />
        )}
      </RequireAccess>
    </>
  );
}

/**
 * Total Revenue (Completed payments of any date), Completed, Pending, Total Payments: over everything in the
 * caller's scope (docs/decisions.md "Licensing"). Two to a row at phone width.
 */
function SummaryCards() {
  const summary = usePaymentSummary();
  const s = summary.data;
  const { cards } = PAYMENT_STRINGS;
  if (summary.isError) return <QueryError things="payment summary" query={summary} />;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
      <StatCard label={cards.revenue} value={s && formatMoney(s.total_revenue)} icon={<IconCash size={24} />} color="green" loading={!s} />
      <StatCard
        label={cards.completed}
        value={s && formatCount(s.completed)}
        icon={<IconCircleCheck size={24} />}
        color="teal"
        loading={!s}
      />
      <StatCard label={cards.pending} value={s && formatCount(s.pending)} icon={<IconClockHour4 size={24} />} color="yellow" loading={!s} />
      <StatCard label={cards.total} value={s && formatCount(s.total_payments)} icon={<IconReceipt size={24} />} color="blue" loading={!s} />
    </SimpleGrid>
  );
}

function PaymentsTable({ canManage, onEdit }: { canManage: boolean; onEdit: (p: Payment) => void }) {
  const list = useListState({ sort: 'payment_date', order: 'desc', filters: { status: '', type: '', method: '', search: '' } });
  const f = list.filters;
  const [openId, setOpenId] = useState<number | null>(null);

  /** The list's filters and sort as the page procedure and the CSV export take them. */
  const view = {
    sort: sortKey(list.sort),
    order: list.order,
    status: (f.status || undefined) as PaymentStatus | undefined,
    payment_type: (f.type || undefined) as PaymentType | undefined,
    payment_method: (f.method || undefined) as PaymentMethod | undefined,
    search: f.search || undefined,
  };
  const query = usePaymentsPage({ ...view, page: list.page, limit: list.limit });
  const remove = useDeletePayment();

  const onDelete = async (p: Payment) => {
    if (await confirm(PAYMENT_STRINGS.confirmDelete, { confirmLabel: 'Delete' })) remove.mutate({ id: p.payment_id });
  };

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Name or description', w: 240 },
          { name: 'status', label: 'Status', placeholder: 'All statuses', data: [...PAYMENT_STATUSES], w: 160 },
          { name: 'type', label: 'Type', placeholder: 'All types', data: [...PAYMENT_TYPES], w: 160 },
          { name: 'method', label: 'Method', placeholder: 'All methods', data: [...PAYMENT_METHODS], w: 160 },
        ]}
        exportCsv={{ path: '/api/payments/export', params: view, things: PAYMENT_STRINGS.things }}
      />

      <ListTable<Payment>
        things={PAYMENT_STRINGS.things}
        query={query}
        records={query.data?.payments}
        total={query.data?.pagination.total ?? 0}
        idAccessor="payment_id"
        list={list}
        emptyText={PAYMENT_STRINGS.empty}
        onOpen={(p) => setOpenId(p.payment_id)}
        actions={
          canManage
            ? (p) => (
                <RowActionsMenu
                  label={`Actions for payment ${p.payment_id}`}
                  actions={[editAction(() => onEdit(p)), deleteAction(() => void onDelete(p))]}
                />
              )
            : undefined
        }
        columns={[
          // A phone's card: the payer, then amount, status, date, type and description.
          {
            accessor: 'payment_date',
            title: 'Date',
            sortable: true,
            noWrap: true,
            cardOrder: 3,
            render: (p) => formatDate(p.payment_date),
          },
          {
            accessor: 'user',
            title: 'User',
            sortable: true,
            card: 'title',
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
            cardOrder: 4,
            render: (p) => <PaymentTypeBadge type={p.payment_type} />,
          },
          {
            accessor: 'amount',
            title: 'Amount',
            sortable: true,
            noWrap: true,
            textAlign: 'right',
            cardOrder: 1,
            render: (p) => formatMoney(p.amount),
            renderCard: (p) => (
              <Text size="sm" fw={600}>
                {formatMoney(p.amount)}
              </Text>
            ),
          },
          {
            accessor: 'payment_method',
            title: 'Method',
            sortable: true,
            noWrap: true,
            card: 'hidden',
            render: (p) => <PaymentMethodBadge method={p.payment_method} />,
          },
          {
            accessor: 'status',
            title: 'Status',
            sortable: true,
            noWrap: true,
            cardOrder: 2,
            render: (p) => <PaymentStatusBadge status={p.status} />,
          },
          {
            accessor: 'description',
            title: 'Description',
            sortable: true,
            card: 'wide',
            cardOrder: 5,
            render: (p) => (
              <Text size="sm" c={p.description ? undefined : 'dimmed'} lineClamp={2} maw={280}>
                {p.description || '-'}
              </Text>
            ),
          },
        ]}
      />
      <PaymentDrawer paymentId={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}
