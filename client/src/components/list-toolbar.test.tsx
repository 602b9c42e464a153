import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { ListToolbar } from './list-toolbar.tsx';
import { renderUi } from '../test/render.tsx';

afterEach(cleanup);
// Mantine's combobox scrolls its selected option into view; jsdom has no layout.
Element.prototype.scrollIntoView ??= () => undefined;

function renderToolbar(filters: { search: string; status: string; from: string }, setFilters = vi.fn()) {
  renderUi(
    <MemoryRouter>
      <ListToolbar
        list={{ filters, setFilters }}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Name', w: 200, wait: 10 },
          { name: 'status', label: 'Status', placeholder: 'All statuses', data: ['Active', 'Expired'], w: 150 },
          false,
          { type: 'date', name: 'from', ariaLabel: 'From date', w: 150 },
        ]}
        exportCsv={{ path: '/api/things/export', params: { status: filters.status }, things: 'things' }}
        actions={<button type="button">Add Thing</button>}
      />
    </MemoryRouter>,
  );
  return setFilters;
}

describe('ListToolbar (the one filter bar of a list)', () => {
  it('shows its fields by their names, Export CSV and the list buttons', () => {
    renderToolbar({ search: '', status: 'Active', from: '' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveAttribute('placeholder', 'Name');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Active');
    // A date in the office's format (lib/format.ts), not the browser's.
    expect(screen.getByLabelText('From date')).toHaveAttribute('placeholder', 'MM/DD/YYYY');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add Thing' })).toBeVisible();
  });

  it('sets the typed search (trimmed, a moment later) and a chosen option as its list filter', async () => {
    const setFilters = renderToolbar({ search: '', status: 'Active', from: '' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'ada ');
    await vi.waitFor(() => expect(setFilters).toHaveBeenCalledWith({ search: 'ada' }));
    setFilters.mockClear();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Expired', hidden: true }));
    expect(setFilters).toHaveBeenCalledWith({ status: 'Expired' });
  });

  it("takes a date typed in the office's format as YYYY-MM-DD", async () => {
    const setFilters = renderToolbar({ search: '', status: 'Active', from: '' });
    // The date input's code loads with the first one drawn (read-only until then).
    await vi.waitFor(() => expect(screen.getByLabelText('From date')).not.toHaveAttribute('readonly'));
    await userEvent.type(screen.getByLabelText('From date'), '07/30/2026');
    expect(setFilters).toHaveBeenLastCalledWith({ from: '2026-07-30' });
  });
});
