import type { KeyboardEvent, ReactNode } from 'react';
import { Box, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { showingText } from '@lm/shared';
import { PAGE_SIZES, type ListState } from '../lib/use-url-state.ts';
import { QueryError, type RetryableQuery } from './query-error.tsx';
import { ListCards, PHONE_QUERY, type ListColumn, type ListSelection } from './list-cards.tsx';
import { PastCap, type CappedPaging } from './past-cap.tsx';

export { PHONE_QUERY, type ListColumn };

export interface ListTableProps<T> {
  /** What the rows are, plural and lower case: 'licenses' ("Showing 1 to 20 of 57 licenses", "Error loading licenses"). */
  things: string;
  /** The page query: its error replaces the table (with Retry), its fetching dims the rows. */
  query: RetryableQuery & { isError: boolean; isFetching: boolean; isLoading?: boolean };
  records: T[] | undefined;
  total: number;
  /** The answer's `total_capped` and `next_cursor`: "10,000+", and "Next" past the counted rows (components/past-cap.tsx). */
  paging?: CappedPaging | undefined;
  idAccessor: keyof T & string;
  /** The columns; each says how it shows on the phone's card (`card`, components/list-cards.tsx). */
  columns: ListColumn<T>[];
  /** Page, size and sort in the URL (lib/use-url-state.ts useListState). */
  list: ListState;
  /** Table column accessor -> the server's sort key, where they differ. */
  sortKeys?: Record<string, string>;
  /** What an empty (filtered) list says. */
  emptyText: string;
  /** Opens the row's detail: by click, or by Enter / Space on the focused row. */
  onOpen?: (row: T) => void;
  /** The row's actions (a menu or buttons): the last column, pinned so it stays in view on a phone. */
  actions?: (row: T) => ReactNode;
  /** The actions column's heading ('Actions'; the audit log's is 'View'). */
  actionsTitle?: string;
  /** Page sizes offered; PAGE_SIZES unless the list's rules say otherwise (the audit log: 25, 50, 100). */
  pageSizes?: readonly number[];
  /** The fallback text of a failed load when the server sent none. */
  fallback?: string;
  /** A checkbox column for bulk actions (the Users list): its clicks do not open the row. */
  selection?: ListSelection<T>;
}

/**
 * The one list table (docs/architecture.md "Client"): columns sort on the server, one pagination bar with a
 * size choice and "Showing X to Y of Z {things}", the server's error with Retry instead of the table, an empty
 * text, a row that opens its detail, and the actions column pinned to the right edge. Below 600 px (PHONE_QUERY)
 * the rows are cards (components/list-cards.tsx) showing the fields the columns mark for the card, with the
 * row's actions, so nothing needs a sideways swipe.
 */
export function ListTable<T>({
  things,
  query,
  records,
  total,
  paging,
  idAccessor,
  columns,
  list,
  sortKeys = {},
  emptyText,
  onOpen,
  actions,
  actionsTitle = 'Actions',
  pageSizes = PAGE_SIZES,
  fallback,
  selection,
}: ListTableProps<T>) {
  // Read at once (not after a first render as a table), so a phone never lays out the table first.
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  if (query.isError) return <QueryError things={things} query={query} fallback={fallback} />;
  const accessorOf = Object.fromEntries(Object.entries(sortKeys).map(([accessor, key]) => [key, accessor]));
  const sortStatus: DataTableSortStatus<T> = { columnAccessor: accessorOf[list.sort] ?? list.sort, direction: list.order };
  const rows = records ?? [];
  if (phone)
    return (
      <ListCards<T>
        things={things}
        records={rows}
        total={total}
        paging={paging}
        idAccessor={idAccessor}
        columns={columns}
        list={list}
        sortAccessor={String(sortStatus.columnAccessor)}
        sortKeys={sortKeys}
        pageSizes={pageSizes}
        fetching={query.isFetching}
        emptyText={query.isLoading ? `Loading ${things}…` : emptyText}
        onOpen={onOpen}
        actions={actions}
        selection={selection}
      />
    );
  // The card's settings are not the table's.
  const tableColumns: DataTableColumn<T>[] = columns.map(({ card: _card, cardOrder: _order, renderCard: _render, ...c }) => c);
  const all: DataTableColumn<T>[] = actions
    ? [
        ...tableColumns,
        {
          accessor: '__actions',
          title: actionsTitle,
          textAlign: 'right',
          // As wide as its controls: a fixed width would clamp the cell (the datatable sets max-width to it) and let
          // several icons spill over the column beside it.
          noWrap: true,
          // The pinned cell scrolls over the others: it needs an opaque background (the row's stripe on odd rows),
          // or the column it covers shows through it at phone width.
          titleStyle: { backgroundColor: 'var(--mantine-color-body)' },
          cellsStyle: (_row, index) => ({
            backgroundColor: 'var(--mantine-color-body)',
            backgroundImage:
              index % 2 === 0
                ? 'linear-gradient(var(--mantine-datatable-striped-color), var(--mantine-datatable-striped-color))'
                : undefined,
          }),
          // The actions' clicks and keys stay in the cell: they must not open the row's detail.
          render: (row) => (
            <Box onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
              {actions(row)}
            </Box>
          ),
        },
      ]
    : tableColumns;
  const capped = Boolean(paging?.total_capped);
  return (
    <Stack gap="xs">
      <DataTable<T>
        withTableBorder
        borderRadius="md"
        striped
        highlightOnHover={Boolean(onOpen)}
        minHeight={rows.length ? undefined : 200}
        fetching={query.isFetching}
        records={rows}
        idAccessor={idAccessor}
        noRecordsText={query.isLoading ? `Loading ${things}…` : emptyText}
        // Past the counted rows (by cursor) the page numbers stop at the last counted page.
        totalRecords={capped ? Math.max(total, list.page * list.limit) : total}
        recordsPerPage={list.limit}
        page={list.page}
        onPageChange={list.setPage}
        recordsPerPageOptions={[...pageSizes]}
        onRecordsPerPageChange={list.setLimit}
        recordsPerPageLabel="Rows per page"
        paginationText={() => showingText(list.page, list.limit, total, things, capped)}
        getPaginationControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
        sortStatus={sortStatus}
        onSortStatusChange={(s) => {
          const accessor = String(s.columnAccessor);
          list.setSort(sortKeys[accessor] ?? accessor, s.direction);
        }}
        pinLastColumn={Boolean(actions)}
        onRowClick={onOpen ? ({ record }) => onOpen(record) : undefined}
        customRowAttributes={
          onOpen
            ? (row) => ({
                tabIndex: 0,
                onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
                  if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
                  e.preventDefault();
                  onOpen(row);
                },
              })
            : undefined
        }
        rowStyle={onOpen ? () => ({ cursor: 'pointer' }) : undefined}
        columns={all}
        {...(selection
          ? {
              selectedRecords: selection.selected,
              onSelectedRecordsChange: selection.onChange,
              isRecordSelectable: selection.isSelectable,
              allRecordsSelectionCheckboxProps: { 'aria-label': selection.allLabel },
              getRecordSelectionCheckboxProps: (row: T) => ({ 'aria-label': selection.label(row) }),
            }
          : {})}
      />
      <PastCap paging={paging} list={list} total={total} />
    </Stack>
  );
}
