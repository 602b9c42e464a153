import { useEffect, useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Card, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconSearch, IconTrash, IconUsers } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { BROKERAGE_DEFAULT_PAGE_SIZE, BROKERAGE_PAGE_SIZES, BROKERAGE_STRINGS, type Brokerage } from '@lm/shared';
import { QueryError } from '../../components/query-error.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { confirm } from '../../components/confirm.ts';
import { notify } from '../../lib/notify.ts';
import { trpc } from '../../lib/trpc.ts';
import { useUrlSearch, useUrlState } from '../../lib/use-url-state.ts';
import { BrokerageFormModal } from './brokerage-form-modal.tsx';
import { BrokerageUsersModal } from './brokerage-users-modal.tsx';
import { PageButtons } from '../../components/page-buttons.tsx';
import { formatDate } from '../../lib/format.ts';

const DEFAULTS = { page: '1', limit: String(BROKERAGE_DEFAULT_PAGE_SIZE), search: '' };

/** Brokerage Management (Admin only; app.tsx wraps it in <AdminOnly>, so no call is made for others). */
export function BrokeragesPage() {
  const [state, setState] = useUrlState(DEFAULTS);
  const [searchText, onSearch] = useUrlSearch(state.search, (search) => setState({ search }));
  const [editing, setEditing] = useState<Brokerage | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [viewing, setViewing] = useState<Brokerage | null>(null);

  const page = Math.max(1, Math.trunc(Number(state.page)) || 1);
  const limit = (BROKERAGE_PAGE_SIZES as readonly number[]).includes(Number(state.limit))
    ? Number(state.limit)
    : BROKERAGE_DEFAULT_PAGE_SIZE;
  const list = trpc.brokerages.list.useQuery(
    { page, limit, ...(state.search ? { search: state.search } : {}) },
    { placeholderData: keepPreviousData },
  );
  const remove = trpc.brokerages.delete.useMutation();
  const utils = trpc.useUtils();

  const onDelete = async (b: Brokerage) => {
    if (!(await confirm(BROKERAGE_STRINGS.deleteConfirm, { title: 'Delete brokerage', confirmLabel: 'Delete' }))) return;
    try {
      await remove.mutateAsync({ id: b.brokerage_id });
      notify.success(BROKERAGE_STRINGS.deleted);
      await utils.brokerages.invalidate();
      await utils.users.invalidate();
    } catch (err) {
      notify.failure(err, BROKERAGE_STRINGS.deleteFailed);
    }
  };

  const records = list.data?.brokerages ?? [];
  const pagination = list.data?.pagination;
  // After a delete empties the last page, step back to the new last page.
  const lastPage = pagination?.pages ?? 0;
  useEffect(() => {
    if (lastPage > 0 && page > lastPage) setState({ page: String(lastPage) });
  }, [lastPage, page, setState]);

  return (
    <>
      <PageHeader
        title={BROKERAGE_STRINGS.title}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
          >
            {BROKERAGE_STRINGS.add}
          </Button>
        }
      />

      <Card withBorder mb="md" padding="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <TextInput
            aria-label="Search brokerages"
            placeholder={BROKERAGE_STRINGS.searchPlaceholder}
            leftSection={<IconSearch size={16} />}
            value={searchText}
            onChange={(e) => onSearch(e.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
          />
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              Per page
            </Text>
            <Select
              aria-label="Brokerages per page"
              data={BROKERAGE_PAGE_SIZES.map(String)}
              value={String(limit)}
              onChange={(v) => v && setState({ limit: v })}
              allowDeselect={false}
              w={90}
            />
          </Group>
        </Group>
      </Card>

      {list.isError ? (
        <QueryError things={BROKERAGE_STRINGS.things} query={list} fallback={BROKERAGE_STRINGS.fetchFailed} />
      ) : (
        <DataTable<Brokerage>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={list.isLoading || records.length === 0 ? 220 : undefined}
          idAccessor="brokerage_id"
          records={records}
          fetching={list.isFetching}
          noRecordsText={BROKERAGE_STRINGS.empty}
          columns={[
            {
              accessor: 'name',
              title: 'Name',
              render: (b) => (
                <Text size="sm" fw={500}>
                  {b.name}
                </Text>
              ),
            },
            { accessor: 'address', title: 'Address', render: (b) => b.address ?? <Text c="dimmed">-</Text> },
            { accessor: 'phone', title: 'Phone', render: (b) => b.phone ?? <Text c="dimmed">-</Text> },
            { accessor: 'email', title: 'Email', render: (b) => b.email ?? <Text c="dimmed">-</Text> },
            {
              accessor: 'website',
              title: 'Website',
              render: (b) =>
                b.website ? (
                  <Anchor href={b.website} target="_blank" rel="noopener noreferrer" size="sm">
                    {b.website.replace(/^https?:\/\//i, '')}
                  </Anchor>
                ) : (
                  <Text c="dimmed">-</Text>
                ),
            },
            {
              accessor: 'agent_count',
              title: 'Agents',
              textAlign: 'center',
              render: (b) => (
                <Badge variant="light" color="green">
                  {b.agent_count}
                </Badge>
              ),
            },
            { accessor: 'created_at', title: 'Created', render: (b) => formatDate(b.created_at) },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (b) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label="View users">
                    <ActionIcon variant="subtle" color="gray" aria-label={`Users of ${b.name}`} onClick={() => setViewing(b)}>
                      <IconUsers size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Edit">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Edit ${b.name}`}
                      onClick={() => {
                        setEditing(b);
                        setFormOpen(true);
                      }}
                    >
                      <IconEdit size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon variant="subtle" color="red" aria-label={`Delete ${b.name}`} onClick={() => void onDelete(b)}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ),
            },
          ]}
        />
      )}

      {pagination && (
        <PageButtons
          page={pagination.page}
          pages={pagination.pages}
          total={pagination.total}
          limit={pagination.limit}
          onChange={(p) => setState({ page: String(p) })}
        />
      )}

      <BrokerageFormModal opened={formOpen} onClose={() => setFormOpen(false)} brokerage={editing} />
      <BrokerageUsersModal brokerage={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
