import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import { ListTable, PHONE_QUERY, type ListColumn } from './list-table.tsx';
import type { ListState } from '../lib/use-url-state.ts';
import { renderUi } from '../test/render.tsx';

interface Row {
  id: number;
  name: string;
  number: string;
  state: string;
  issued: string;
}

const ROWS: Row[] = [
  { id: 1, name: 'Alice Agent', number: 'TX-1', state: 'TX', issued: '2025-01-01' },
  { id: 2, name: 'Bruno Broker', number: 'NV-2', state: 'NV', issued: '2025-02-02' },
];

const COLUMNS: ListColumn<Row>[] = [
  { accessor: 'number', title: 'License Number', sortable: true, cardOrder: 2 },
  { accessor: 'name', title: 'Holder', sortable: true, card: 'title' },
  { accessor: 'state', title: 'State', sortable: true, cardOrder: 1 },
  { accessor: 'issued', title: 'Issue Date', card: 'hidden' },
];

function listState(overrides: Partial<ListState> = {}): ListState {
  return {
    page: 1,
    limit: 20,
    sort: 'name',
    order: 'asc',
    filters: {},
    cursor: '',
    setPage: vi.fn(),
    setNext: vi.fn(),
    setLimit: vi.fn(),
    setSort: vi.fn(),
    setFilters: vi.fn(),
    ...overrides,
  };
}

const query = { isError: false, isFetching: false, isLoading: false, error: null, refetch: vi.fn() } as never;

function renderList(props: Partial<Parameters<typeof ListTable<Row>>[0]> = {}) {
  const list = listState();
  const onOpen = vi.fn();
  const action = vi.fn();
  const utils = renderUi(
    <ListTable<Row>
      things="licenses"
      query={query}
      records={ROWS}
      total={2}
      idAccessor="id"
      columns={COLUMNS}
      list={list}
      emptyText="No licenses found"
      onOpen={onOpen}
      actions={(r) => <Button onClick={() => action(r.id)}>{`Renew ${r.number}`}</Button>}
      {...props}
    />,
  );
  return { ...utils, list, onOpen, action };
}

const realMatchMedia = window.matchMedia;

describe('ListTable below 600 px: a card per row', () => {
  beforeEach(() => {
    // The select's dropdown scrolls its chosen option into view; jsdom lays nothing out.
    Element.prototype.scrollIntoView ??= () => {};
    window.matchMedia = ((q: string) => ({ ...realMatchMedia(q), matches: q === PHONE_QUERY })) as typeof window.matchMedia;
  });
  afterEach(() => {
    window.matchMedia = realMatchMedia;
    cleanup();
  });

  it("shows the title, the card's fields in their order with their labels, and not the hidden ones; no table", () => {
    const { container } = renderList();
    expect(within(container).queryByRole('table')).toBeNull();
    const cards = within(container).getAllByTestId('list-card');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByText('Alice Agent')).toBeInTheDocument();
    expect(Array.from(cards[0]!.querySelectorAll('dt')).map((d) => d.textContent)).toEqual(['State', 'License Number']);
    expect(first.queryByText('2025-01-01')).toBeNull();
    expect(within(container).getByText('Showing 1 to 2 of 2 licenses')).toBeInTheDocument();
  });

  it('opens the row from the card (click, Enter) but not from its actions', async () => {
    const { container, onOpen, action } = renderList();
    const card = within(container).getAllByTestId('list-card')[1]!;
    await userEvent.click(within(card).getByRole('button', { name: 'Renew NV-2' }));
    expect(action).toHaveBeenCalledWith(2);
    expect(onOpen).not.toHaveBeenCalled();
    await userEvent.click(within(card).getByText('Bruno Broker'));
    expect(onOpen).toHaveBeenCalledWith(ROWS[1]);
    card.focus();
    await userEvent.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('sorts through "Sort by" and the order button, with the server sort keys', async () => {
    const list = listState({ sort: 'hours', order: 'asc' });
    const { container } = renderList({ list, sortKeys: { state: 'state_code' } });
    await userEvent.click(within(container).getByRole('button', { name: 'Sorted ascending: sort descending' }));
    expect(list.setSort).toHaveBeenCalledWith('hours', 'desc');
    await userEvent.click(within(container).getByRole('combobox', { name: 'Sort by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'State', hidden: true }));
    expect(list.setSort).toHaveBeenLastCalledWith('state_code', 'asc');
  });

  it('selects cards one by one and all at once, skipping the ones that cannot be selected', async () => {
    const onChange = vi.fn();
    const { container } = renderList({
      selection: {
        selected: [],
        onChange,
        isSelectable: (r) => r.id !== 1,
        label: (r) => `Select ${r.name}`,
        allLabel: 'Select all licenses',
      },
    });
    expect(within(container).queryByRole('checkbox', { name: 'Select Alice Agent' })).toBeNull();
    await userEvent.click(within(container).getByRole('checkbox', { name: 'Select Bruno Broker' }));
    expect(onChange).toHaveBeenLastCalledWith([ROWS[1]]);
    await userEvent.click(within(container).getByRole('checkbox', { name: 'Select all licenses' }));
    expect(onChange).toHaveBeenLastCalledWith([ROWS[1]]);
  });

  it('says the empty text without cards', () => {
    const { container } = renderList({ records: [], total: 0 });
    expect(within(container).queryAllByTestId('list-card')).toHaveLength(0);
    expect(within(container).getByText('No licenses found')).toBeInTheDocument();
  });
});
