import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { ActionIcon, Box, Card, Checkbox, Group, Pagination, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { getValueAtPath, humanize, type DataTableColumn } from 'mantine-datatable';
import { showingText } from '@lm/shared';
import { PastCap, type CappedPaging } from './past-cap.tsx';
import type { ListState } from '../lib/use-url-state.ts';
import classes from './list-cards.module.css';

/** Below this width a list is a column of cards rather than a table (docs/decisions.md "Phones"). */
export const PHONE_QUERY = '(max-width: 599.98px)';

/**
 * A list's column: the table's column (mantine-datatable) and how it shows on the list's phone card.
 * - 'title': the card's heading, beside its actions (one per list; the first column when no column says so);
 * - 'field' (the default): a labelled value in the card's two-column grid;
 * - 'wide': a labelled value across the card (long text: an e-mail, a description, a phone number kept on one line);
 * - 'hidden': left off the card (it is in the row's detail and the export).
 * Fields appear in the order of `cardOrder` (lower first), then of the columns.
 */
export type ListColumn<T> = DataTableColumn<T> & {
  card?: 'title' | 'field' | 'wide' | 'hidden';
  cardOrder?: number;
  /** The card's rendering where it differs from the table cell's (e.g. without the cell's phone-only second line). */
  renderCard?: (row: T, index: number) => ReactNode;
};

/** A checkbox per row for bulk actions (the Users list): its clicks do not open the row. */
export interface ListSelection<T> {
  selected: T[];
  onChange: (rows: T[]) => void;
  isSelectable?: (row: T) => boolean;
  /** The accessible name of a row's checkbox. */
  label: (row: T) => string;
  /** The accessible name of the select-all checkbox. */
  allLabel: string;
}

export interface ListCardsProps<T> {
  things: string;
  records: T[];
  total: number;
  /** "10,000+" and "Next" past the counted rows (components/past-cap.tsx). */
  paging?: CappedPaging | undefined;
  idAccessor: keyof T & string;
  columns: ListColumn<T>[];
  list: ListState;
  /** The current sort as a column accessor. */
  sortAccessor: string;
  sortKeys: Record<string, string>;
  pageSizes: readonly number[];
  fetching: boolean;
  /** What the list says with no card: loading, or its empty text. */
  emptyText: string;
  onOpen?: (row: T) => void;
  actions?: (row: T) => ReactNode;
  selection?: ListSelection<T>;
}

const titleText = <T,>(c: DataTableColumn<T>): string => (typeof c.title === 'string' ? c.title : humanize(String(c.accessor)));

function cellOf<T>(c: ListColumn<T>, row: T, index: number): ReactNode {
  if (c.renderCard) return c.renderCard(row, index);
  if (c.render) return c.render(row, index);
  const value = getValueAtPath(row, c.accessor);
  return value == null ? '' : String(value as string | number);
}

/**
 * The ListTable at phone width (components/list-table.tsx): each row a card with its title, its actions and the
 * fields that matter for the list, a sort choice in place of the column headings, and the same pagination
 * ("Showing X to Y of Z {things}", the page size). A card opens the row's detail as a row does (click, Enter, Space).
 * Its own choices are 44 px high; nothing is wider than the screen.
 */
export function ListCards<T>({
  things,
  records,
  total,
  paging,
  idAccessor,
  columns,
  list,
  sortAccessor,
  sortKeys,
  pageSizes,
  fetching,
  emptyText,
  onOpen,
  actions,
  selection,
}: ListCardsProps<T>) {
  const shown = columns.filter((c) => !c.hidden);
  const title = shown.find((c) => c.card === 'title') ?? shown[0];
  const fields = shown
    .filter((c) => c !== title && c.card !== 'hidden')
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (a.c.cardOrder ?? a.i) - (b.c.cardOrder ?? b.i))
    .map(({ c }) => c);
  const sortable = columns.filter((c) => c.sortable);
  // The list's own default order may be by a field no column shows (a completion's creation): it is a choice too.
  const sortOptions = sortable.map((c) => ({ value: String(c.accessor), label: titleText(c) }));
  if (!sortOptions.some((o) => o.value === sortAccessor)) sortOptions.push({ value: sortAccessor, label: humanize(sortAccessor) });
  const pages = Math.max(1, Math.ceil(total / list.limit));
  const idOf = (row: T) => String(row[idAccessor]);
  const sizeId = useId();

  const selectable = selection ? records.filter((r) => selection.isSelectable?.(r) ?? true) : [];
  const selectedIds = new Set(selection?.selected.map(idOf));
  const allChecked = selectable.length > 0 && selectable.every((r) => selectedIds.has(idOf(r)));
  const someChecked = selectable.some((r) => selectedIds.has(idOf(r)));
  const toggle = (row: T, on: boolean) => {
    if (!selection) return;
    const rest = selection.selected.filter((r) => idOf(r) !== idOf(row));
    selection.onChange(on ? [...rest, row] : rest);
  };

  return (
    <Stack gap="sm">
      {(sortable.length > 0 || (selection && selectable.length > 0)) && (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          {selection && selectable.length > 0 && (
            <Box component="label" className={classes.check} style={{ margin: 0 }}>
              <Checkbox
                aria-label={selection.allLabel}
                checked={allChecked}
                indeterminate={someChecked && !allChecked}
                onChange={(e) =>
                  selection.onChange(
                    e.currentTarget.checked
                      ? [...selection.selected.filter((r) => !selectable.some((s) => idOf(s) === idOf(r))), ...selectable]
                      : selection.selected.filter((r) => !selectable.some((s) => idOf(s) === idOf(r))),
                  )
                }
              />
            </Box>
          )}
          {sortable.length > 0 && (
            <>
              <Select
                label="Sort by"
                size="sm"
                style={{ flex: 1, minWidth: 0 }}
                classNames={{ input: classes.control }}
                data={sortOptions}
                value={sortAccessor}
                allowDeselect={false}
                onChange={(accessor) => accessor && list.setSort(sortKeys[accessor] ?? accessor, list.order)}
                comboboxProps={{ withinPortal: true }}
              />
              <Tooltip label={list.order === 'asc' ? 'Ascending' : 'Descending'}>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={list.order === 'asc' ? 'Sorted ascending: sort descending' : 'Sorted descending: sort ascending'}
                  onClick={() => list.setSort(list.sort, list.order === 'asc' ? 'desc' : 'asc')}
                >
                  {list.order === 'asc' ? <IconSortAscending size={20} /> : <IconSortDescending size={20} />}
                </ActionIcon>
              </Tooltip>
            </>
          )}
        </Group>
      )}

      {records.length === 0 ? (
        <Card withBorder radius="md" mih={200} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Text c="dimmed" ta="center">
            {emptyText}
          </Text>
        </Card>
      ) : (
        <Box component="ul" className={classes.list} aria-label={humanize(things)} aria-busy={fetching} data-list-cards="">
          {records.map((row, index) => {
            const checkable = selection && (selection.isSelectable?.(row) ?? true);
            return (
              <Card
                component="li"
                key={idOf(row)}
                withBorder
                radius="md"
                padding="sm"
                data-list-card=""
                data-testid="list-card"
                className={`${classes.card} ${onOpen ? classes.open : ''}`}
                tabIndex={onOpen ? 0 : undefined}
                onClick={onOpen ? () => onOpen(row) : undefined}
                onKeyDown={
                  onOpen
                    ? (e: KeyboardEvent<HTMLLIElement>) => {
                        if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
                        e.preventDefault();
                        onOpen(row);
                      }
                    : undefined
                }
              >
                <Group gap="xs" wrap="nowrap" align="center">
                  {checkable && (
                    <Box component="label" className={classes.check} onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        aria-label={selection.label(row)}
                        checked={selectedIds.has(idOf(row))}
                        onChange={(e) => toggle(row, e.currentTarget.checked)}
                      />
                    </Box>
                  )}
                  {title && (
                    <Box className={classes.title} fz="sm">
                      {cellOf(title, row, index)}
                    </Box>
                  )}
                  {actions && (
                    <Box onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                      {actions(row)}
                    </Box>
                  )}
                </Group>
                {fields.length > 0 && (
                  <Box component="dl" className={classes.fields} mt="xs">
                    {fields.map((c) => (
                      <div key={String(c.accessor)} className={`${classes.field} ${c.card === 'wide' ? classes.wide : ''}`}>
                        <Text component="dt" size="xs" c="dimmed">
                          {titleText(c)}
                        </Text>
                        <dd className={`${classes.value} ${c.card === 'wide' && c.noWrap ? classes.nowrap : ''}`}>
                          {cellOf(c, row, index)}
                        </dd>
                      </div>
                    ))}
                  </Box>
                )}
              </Card>
            );
          })}
        </Box>
      )}

      {total > 0 && (
        <Stack gap="xs" align="center">
          <Text size="sm">{showingText(list.page, list.limit, total, things, Boolean(paging?.total_capped))}</Text>
          <PastCap paging={paging} list={list} total={total} />
          {pages > 1 && (
            <Pagination
              total={pages}
              value={Math.min(list.page, pages)}
              onChange={list.setPage}
              siblings={0}
              boundaries={1}
              gap={4}
              getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
              getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            />
          )}
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" component="label" htmlFor={sizeId}>
              Rows per page
            </Text>
            <Select
              id={sizeId}
              size="sm"
              w={90}
              classNames={{ input: classes.control }}
              data={pageSizes.map(String)}
              value={String(list.limit)}
              allowDeselect={false}
              onChange={(v) => v && list.setLimit(Number(v))}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
