import { useEffect, useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconFileImport, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ROLE_NAMES, roleName, USER_SORTS, USER_STRINGS, type User, type UserSort } from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { RequireAccess } from '../../components/require-role.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { ACTIVE_OPTIONS, ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionButtons } from '../../components/row-actions.tsx';
import { confirm } from '../../components/confirm.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { RoleBadge, StatusBadge } from './role-badge.tsx';
import { BulkActions } from './bulk-actions.tsx';
import { UserFormModal, type BrokerageOption } from './user-form-modal.tsx';
import { SendResetLinkAction } from './send-reset-link-action.tsx';
import { UserDetailDrawer } from './user-detail-drawer.tsx';
import { brokerageOption, useBrokeragePicker, useDeleteUser, useUsersPage } from './api.ts';
import { formatDateTime } from '../../lib/format.ts';

const sortKey = (key: string): UserSort => ((USER_SORTS as readonly string[]).includes(key) ? (key as UserSort) : 'name');
const positiveId = (value: string) => (/^[1-9]\d*$/.test(value) ? Number(value) : undefined);

export const USERS_DENIED = 'Access denied. Users are available to Admins and Brokers.';

/**
 * User Management (docs/product.md) for those the policy lets read users (users.read: Admins and Brokers); an
 * Agent or a School who types /users sees the title and the access-denied text, no "Add User" and no data calls.
 */
export function UsersPage() {
  return (
    <RequireAccess action="users.read" message={USERS_DENIED} title={USER_STRINGS.title}>
      <UsersScreen />
    </RequireAccess>
  );
}

/**
 * User Management (docs/product.md): Admins see everyone; Brokers see their own brokerage and manage its
 * Agents. The list state (page, size, sort, filters, search) lives in the URL.
 */
function UsersScreen() {
  const { user: me, can } = useAuth();
  // Choosing among every brokerage (the filter, bulk reassign, the form's role and brokerage) is the Admin's:
  // the brokerages list is brokerages.read. A Broker works in its own brokerage.
  const allBrokerages = can('brokerages.read');
  const list = useListState({ sort: 'name', filters: { search: '', role: '', brokerage_id: '', status: '' } });
  const f = list.filters;
  const [selected, setSelected] = useState<User[]>([]);
  const [editing, setEditing] = useState<User | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [viewingId, setViewingId] = useState<number | null>(null);

  /** The list's filters and sort as the page procedure and the CSV export take them. */
  const view = {
    sort: sortKey(list.sort),
    order: list.order,
    search: f.search || undefined,
    role: f.role || undefined,
    brokerage_id: allBrokerages ? positiveId(f.brokerage_id) : undefined,
    is_active: f.status ? (f.status === 'active' ? 'true' : 'false') : undefined,
  } as const;
  const query = useUsersPage({ ...view, page: list.page, limit: list.limit });
  const remove = useDeleteUser();

  // A new page, filter or sort starts a new selection: bulk actions apply to what is on screen.
  const listKey = JSON.stringify([view, list.page, list.limit]);
  useEffect(() => setSelected([]), [listKey]);

  const ownBrokerage: BrokerageOption | null =
    me?.brokerage_id != null ? { value: String(me.brokerage_id), label: me.brokerage_name ?? `Brokerage ${me.brokerage_id}` } : null;

  /** What the server lets the caller change (the policy's rule of users.update: a Broker the Agents of its brokerage). */
  const canManage = (u: User) => can('users.update', u);

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
    remove.mutate({ id: u.user_id }, { onSuccess: () => setSelected((s) => s.filter((x) => x.user_id !== u.user_id)) });
  };

  const records = query.data?.users;
  // The drawer follows the list's copy of the user, so an edit shows at once.
  const viewing = records?.find((u) => u.user_id === viewingId) ?? null;

  return (
    <>
      <PageHeader
        title={USER_STRINGS.title}
        description={allBrokerages ? undefined : ownBrokerage ? `Users of ${ownBrokerage.label}` : undefined}
        actions={
          <>
            <ExportButton path="/api/users/export" params={view} things={USER_STRINGS.things} />
            <BulkActions selectedIds={selected.map((u) => u.user_id)} canReassign={allBrokerages} onDone={() => setSelected([])} />
            {/* The roster import (docs/product.md "Imports"): its page holds the import history too. */}
            {can('imports.roster') && (
              <Button component={Link} to="/imports?kind=roster" variant="default" leftSection={<IconFileImport size={16} />}>
                Import
              </Button>
            )}
            <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
              {USER_STRINGS.addUser}
            </Button>
          </>
        }
      />

      <ListToolbar
        variant="card"
        mb="md"
        list={list}
        fields={[
          {
            type: 'search',
            name: 'search',
            ariaLabel: 'Search users',
            placeholder: 'Search by name, email or phone...',
            w: { base: '100%', sm: 280 },
          },
          { name: 'role', ariaLabel: 'Filter by role', placeholder: 'All roles', data: [...ROLE_NAMES], w: 150 },
          allBrokerages && {
            name: 'brokerage_id',
            ariaLabel: 'Filter by brokerage',
            placeholder: 'All brokerages',
            type: 'picker',
            picker: { useResults: useBrokeragePicker, toOption: brokerageOption, emptyMessage: 'No brokerages' },
            w: 220,
          },
          { name: 'status', ariaLabel: 'Filter by status', placeholder: 'All statuses', data: ACTIVE_OPTIONS, w: 150 },
        ]}
      />

      <ListTable<User>
        things={USER_STRINGS.things}
        query={query}
        records={records}
        total={query.data?.pagination.total ?? 0}
        idAccessor="user_id"
        list={list}
        emptyText={USER_STRINGS.empty}
        onOpen={(u) => setViewingId(u.user_id)}
        selection={{
          selected,
          onChange: setSelected,
          isSelectable: (u) => canManage(u) && u.user_id !== me?.user_id,
          label: (u) => `Select ${u.first_name} ${u.last_name}`,
          allLabel: 'Select all users',
        }}
        actions={(u) =>
          canManage(u) ? (
            <RowActionButtons
              actions={[
                editAction(() => openEdit(u), `Edit ${u.first_name} ${u.last_name}`),
                u.user_id !== me?.user_id && u.is_active && <SendResetLinkAction user={u} />,
                u.user_id !== me?.user_id && deleteAction(() => void onDelete(u), `Delete ${u.first_name} ${u.last_name}`),
              ]}
            />
          ) : null
        }
        columns={[
          {
            accessor: 'name',
            title: 'Name',
            sortable: true,
            card: 'title',
            render: (u) => (
              <Text size="sm" fw={500}>
                {u.first_name} {u.last_name}
              </Text>
            ),
          },
          // A phone's card: the name, then e-mail, role, status and brokerage.
          { accessor: 'email', title: 'Email', sortable: true, card: 'wide' },
          { accessor: 'role', title: 'Role', sortable: true, cardOrder: 2, render: (u) => <RoleBadge role={roleName(u.role_id)} /> },
          {
            accessor: 'brokerage',
            title: 'Brokerage',
            sortable: true,
            cardOrder: 4,
            render: (u) => u.brokerage_name ?? <Text c="dimmed">-</Text>,
          },
          { accessor: 'status', title: 'Status', sortable: true, cardOrder: 3, render: (u) => <StatusBadge active={u.is_active} /> },
          {
            accessor: 'last_login',
            title: 'Last Login',
            sortable: true,
            noWrap: true,
            card: 'hidden',
            render: (u) => formatDateTime(u.last_login, 'Never'),
          },
        ]}
      />

      <UserFormModal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        user={editing}
        brokerMode={!allBrokerages}
        ownBrokerage={ownBrokerage}
      />
      <UserDetailDrawer user={viewing} onClose={() => setViewingId(null)} />
    </>
  );
}
