import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import {
  DEFAULT_PAGE_SIZE,
  BROKERAGE_PAGE_SIZES,
  BROKERAGE_SORTS,
  BROKERAGE_STRINGS,
  type Brokerage,
  type BrokerageSort,
} from '@lm/shared';
import { PageHeader } from '../../components/page-header.tsx';
import { ListTable } from '../../components/list-table.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionButtons } from '../../components/row-actions.tsx';
import { confirm } from '../../components/confirm.ts';
import { useListState } from '../../lib/use-url-state.ts';
import { formatDate } from '../../lib/format.ts';
import { BrokerageFormModal } from './brokerage-form-modal.tsx';
import { BrokerageDetailDrawer } from './brokerage-detail-drawer.tsx';
import { useBrokeragesPage, useDeleteBrokerage } from './api.ts';

const sortKey = (key: string): BrokerageSort => ((BROKERAGE_SORTS as readonly string[]).includes(key) ? (key as BrokerageSort) : 'name');
const dash = <Text c="dimmed">-</Text>;

/** Brokerage Management (Admin only; signed-in.tsx wraps it in <RequireAccess action="brokerages.read">, so no call is made for others). */
export function BrokeragesPage() {
  const list = useListState({ sort: 'name', limit: DEFAULT_PAGE_SIZE, filters: { search: '' } });
  const [editing, setEditing] = useState<Brokerage | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [viewingId, setViewingId] = useState<number | null>(null);

  /** The list's search and sort as the page procedure and the CSV export take them. */
  const view = { sort: sortKey(list.sort), order: list.order, search: list.filters.search || undefined };
  const query = useBrokeragesPage({ ...view, page: list.page, limit: list.limit });
  const remove = useDeleteBrokerage();

  const onDelete = async (b: Brokerage) => {
    if (!(await confirm(BROKERAGE_STRINGS.deleteConfirm, { title: 'Delete brokerage', confirmLabel: 'Delete' }))) return;
    remove.mutate({ id: b.brokerage_id });
  };

  const records = query.data?.brokerages;
  // The drawer follows the list's copy, so an edit shows at once.
  const viewing = records?.find((b) => b.brokerage_id === viewingId) ?? null;
  // After a delete empties the last page, step back to the new last page.
  const lastPage = query.data?.pagination.pages ?? 0;
  const { page, setPage } = list;
  useEffect(() => {
    if (lastPage > 0 && page > lastPage) setPage(lastPage);
  }, [lastPage, page, setPage]);

  return (
    <>
      <PageHeader
        title={BROKERAGE_STRINGS.title}
        actions={
          <>
            <ExportButton path="/api/brokerages/export" params={view} things={BROKERAGE_STRINGS.things} />
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => {
                setEditing(null);
                setFormOpen(true);
              }}
            >
              {BROKERAGE_STRINGS.add}
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
            ariaLabel: 'Search brokerages',
            placeholder: BROKERAGE_STRINGS.searchPlaceholder,
            w: { base: '100%', sm: 320 },
          },
        ]}
      />

      <ListTable<Brokerage>
        things={BROKERAGE_STRINGS.things}
        query={query}
        records={records}
        total={query.data?.pagination.total ?? 0}
        idAccessor="brokerage_id"
        list={list}
        pageSizes={BROKERAGE_PAGE_SIZES}
        emptyText={BROKERAGE_STRINGS.empty}
        fallback={BROKERAGE_STRINGS.fetchFailed}
        onOpen={(b) => setViewingId(b.brokerage_id)}
        actions={(b) => (
          <RowActionButtons
            actions={[
              editAction(() => {
                setEditing(b);
                setFormOpen(true);
              }, `Edit ${b.name}`),
              deleteAction(() => void onDelete(b), `Delete ${b.name}`),
            ]}
          />
        )}
        columns={[
          {
            accessor: 'name',
            title: 'Name',
            sortable: true,
            render: (b) => (
              <Text size="sm" fw={500}>
                {b.name}
              </Text>
            ),
          },
          // A phone's card: the name, then phone, e-mail, address, agents and website, each long one across the card.
          { accessor: 'address', title: 'Address', sortable: true, card: 'wide', cardOrder: 3, render: (b) => b.address ?? dash },
          // A phone number reads as one piece: it never wraps.
          { accessor: 'phone', title: 'Phone', sortable: true, noWrap: true, card: 'wide', cardOrder: 1, render: (b) => b.phone ?? dash },
          { accessor: 'email', title: 'Email', sortable: true, card: 'wide', cardOrder: 2, render: (b) => b.email ?? dash },
          {
            accessor: 'website',
            title: 'Website',
            sortable: true,
            cardOrder: 5,
            render: (b) =>
              b.website ? (
                <Anchor
                  href={b.website}
                  target="_blank"
                  rel="noopener noreferrer"
                  size="sm"
                  // Following the link must not also open the row.
                  onClick={(e) => e.stopPropagation()}
                >
                  {b.website.replace(/^https?:\/\//i, '')}
                </Anchor>
              ) : (
                dash
              ),
          },
          {
            accessor: 'agent_count',
            title: 'Agents',
            sortable: true,
            textAlign: 'center',
            cardOrder: 4,
            render: (b) => (
              <Badge variant="light" color="green">
                {b.agent_count}
              </Badge>
            ),
          },
          {
            accessor: 'created_at',
            title: 'Created',
            sortable: true,
            noWrap: true,
            card: 'hidden',
            render: (b) => formatDate(b.created_at),
          },
        ]}
      />

      <BrokerageFormModal opened={formOpen} onClose={() => setFormOpen(false)} brokerage={editing} />
      <BrokerageDetailDrawer brokerage={viewing} onClose={() => setViewingId(null)} />
    </>
  );
}
