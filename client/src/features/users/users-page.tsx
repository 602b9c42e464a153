import { useEffect, useMemo, useState } from 'react';
import { ActionIcon, Button, Card, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import { ROLE, ROLE_NAMES, roleName, USER_SORTS, USER_STRINGS, type User, type UserSort } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import { confirm } from '../../components/confirm.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { trpc } from '../../lib/trpc.ts';
import { useUrlSearch, useUrlState } from '../../lib/use-url-state.ts';
import { RoleBadge, StatusBadge } from './role-badge.tsx';
import { BulkActions } from './bulk-actions.tsx';
import { UserFormModal, type BrokerageOption } from './user-form-modal.tsx';
import { SendResetLinkAction } from './send-reset-link-action.tsx';
import { formatDateTime } from '../../lib/format.ts';

const PAGE_SIZES = [10, 20, 50, 100];
const DEFAULTS = { page: '1', limit: '20', search: '', role: '', brokerage_id: '', status: '', sort: 'name', order: 'asc' };

const positiveInt = (value: string, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/**
 * User Management (docs/product.md): Admins see everyone; Brokers see their own brokerage and manage its
 * Agents. The list state (page, size, sort, filters, search) lives in the URL.
 */
export function UsersPage() {
  const { user: me } = useAuth();
  const isAdmin = me?.role_id === ROLE.Admin;
  const [state, setState] = useUrlState(DEFAULTS);
  const [searchText, onSearch] = useUrlSearch(state.search, (search) => setState({ search }));
  const [selected, setSelected] = useState<User[]>([]);
  const [editing, setEditing] = useState<User | null>(null);
  const [formOpen, setFormOpen] = useState(false);

  const page = positiveInt(state.page, 1);
  const limit = PAGE_SIZES.includes(Number(state.limit)) ? Number(state.limit) : 20;
  const sort: UserSort = (USER_SORTS as readonly string[]).includes(state.sort) ? (state.sort as UserSort) : 'name';
  const order = state.order === 'desc' ? 'desc' : 'asc';
  const input = {
    page,
    limit,
    sort,
    order,
    ...(state.search ? { search: state.search } : {}),
    ...(state.role ? { role: state.role } : {}),
    ...(state.brokerage_id && isAdmin ? { brokerage_id: positiveInt(state.brokerage_id, 0) } : {}),
    ...(state.status ? { is_active: state.status === 'active' ? 'true' : 'false' } : {}),
  } as const;
  const list = trpc.users.list.useQuery(input, { placeholderData: keepPreviousData });
  const options = trpc.brokerages.options.useQuery(undefined, { enabled: isAdmin, staleTime: 60_000 });
  const remove = trpc.users.delete.useMutation();
  const utils = trpc.useUtils();

  // A new page, filter or sort starts a new selection: bulk actions apply to what is on screen.
  const listKey = JSON.stringify(input);
  useEffect(() => setSelected([]), [listKey]);

  const brokerageOptions: BrokerageOption[] = useMemo(
    () => (options.data ?? []).map((b) => ({ value: String(b.brokerage_id), label: b.name })),
    [options.data],
  );
  const ownBrokerage: BrokerageOption | null =
    me?.brokerage_id != null ? { value: String(me.brokerage_id), label: me.brokerage_name ?? `Brokerage ${me.brokerage_id}` } : null;

  /** What the server lets the caller change: Admin everyone, Broker the Agents of its brokerage. */
  const canManage = (u: User) => isAdmin || (u.role_id === ROLE.Agent && u.brokerage_id === me?.brokerage_id);

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (u: User) => {
    setEditing(u);
    setFormOpen(true);
  };
  const onDelete = async (u: User) => {
    if (!(await confirm(USER_STRINGS.deleteConfirm, { title: 'Delete user', confirmLabel: 'Delete' }))) return;
    try {
      await remove.mutateAsync({ id: u.user_id });
      notify.success(USER_STRINGS.deleted);
      setSelected((s) => s.filter((x) => x.user_id !== u.user_id));
      await utils.users.invalidate();
    } catch (err) {
      notify.failure(err, USER_STRINGS.deleteFailed);
    }
  };

  const sortStatus: DataTableSortStatus<User> = { columnAccessor: sort, direction: order };
  const records = list.data?.users ?? [];

  return (
    <>
      <PageHeader
        title={USER_STRINGS.title}
        description={isAdmin ? undefined : ownBrokerage ? `Users of ${ownBrokerage.label}` : undefined}
        actions={
          <>
            <BulkActions
              selectedIds={selected.map((u) => u.user_id)}
              canReassign={isAdmin}
              brokerageOptions={brokerageOptions}
              onDone={() => setSelected([])}
            />
            <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
              {USER_STRINGS.addUser}
            </Button>
          </>
        }
      />

      <Card withBorder mb="md" padding="sm">
        <Group gap="sm" wrap="wrap" align="flex-end">
          <TextInput
            aria-label="Search users"
            placeholder="Search by name, email or phone..."
            leftSection={<IconSearch size={16} />}
            value={searchText}
            onChange={(e) => onSearch(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <Select
            aria-label="Filter by role"
            placeholder="All roles"
            data={ROLE_NAMES.map((r) => ({ value: r, label: r }))}
            value={state.role || null}
            onChange={(v) => setState({ role: v ?? '' })}
            clearable
            w={150}
          />
          {isAdmin && (
            <Select
              aria-label="Filter by brokerage"
              placeholder="All brokerages"
              data={brokerageOptions}
              value={state.brokerage_id || null}
              onChange={(v) => setState({ brokerage_id: v ?? '' })}
              clearable
              searchable
              w={220}
            />
          )}
          <Select
            aria-label="Filter by status"
            placeholder="All statuses"
            data={[
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
            value={state.status || null}
            onChange={(v) => setState({ status: v ?? '' })}
            clearable
            w={150}
          />
        </Group>
      </Card>

      {list.isError ? (
        <QueryError things={USER_STRINGS.things} query={list} />
      ) : (
        <DataTable<User>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={list.isLoading || records.length === 0 ? 220 : undefined}
          idAccessor="user_id"
          records={records}
          fetching={list.isFetching}
          noRecordsText={USER_STRINGS.empty}
          selectedRecords={selected}
          onSelectedRecordsChange={setSelected}
          isRecordSelectable={(u) => canManage(u) && u.user_id !== me?.user_id}
          allRecordsSelectionCheckboxProps={{ 'aria-label': 'Select all users' }}
          getRecordSelectionCheckboxProps={(u) => ({ 'aria-label': `Select ${u.first_name} ${u.last_name}` })}
          sortStatus={sortStatus}
          onSortStatusChange={(s) => setState({ sort: String(s.columnAccessor), order: s.direction })}
          totalRecords={list.data?.pagination.total ?? 0}
          page={page}
          onPageChange={(p) => setState({ page: String(p) })}
          recordsPerPage={limit}
          recordsPerPageOptions={PAGE_SIZES}
          onRecordsPerPageChange={(n) => setState({ limit: String(n) })}
          recordsPerPageLabel="Users per page"
          columns={[
            {
              accessor: 'name',
              title: 'Name',
              sortable: true,
              render: (u) => (
                <Text size="sm" fw={500}>
                  {u.first_name} {u.last_name}
                </Text>
              ),
            },
            { accessor: 'email', title: 'Email', sortable: true },
            { accessor: 'role', title: 'Role', sortable: true, render: (u) => <RoleBadge role={roleName(u.role_id)} /> },
            {
              accessor: 'brokerage',
              title: 'Brokerage',
              sortable: true,
              render: (u) => u.brokerage_name ?? <Text c="dimmed">-</Text>,
            },
            { accessor: 'status', title: 'Status', sortable: true, render: (u) => <StatusBadge active={u.is_active} /> },
            { accessor: 'last_login', title: 'Last Login', sortable: true, render: (u) => formatDateTime(u.last_login, 'Never') },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (u) =>
                canManage(u) ? (
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label="Edit">
                      <ActionIcon variant="subtle" aria-label={`Edit ${u.first_name} ${u.last_name}`} onClick={() => openEdit(u)}>
                        <IconEdit size={18} />
                      </ActionIcon>
                    </Tooltip>
                    {u.user_id !== me?.user_id && u.is_active && <SendResetLinkAction user={u} />}
                    {u.user_id !== me?.user_id && (
                      <Tooltip label="Delete">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${u.first_name} ${u.last_name}`}
                          onClick={() => void onDelete(u)}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                ) : null,
            },
          ]}
        />
      )}

      <UserFormModal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        user={editing}
        brokerMode={!isAdmin}
        ownBrokerage={ownBrokerage}
        brokerageOptions={brokerageOptions}
      />
    </>
  );
}
