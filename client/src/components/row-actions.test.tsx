import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IconRefresh } from '@tabler/icons-react';
import { deleteAction, editAction, RowActionButtons, RowActionsMenu } from './row-actions.tsx';
import { renderUi } from '../test/render.tsx';

afterEach(cleanup);

describe('RowActionsMenu (the per-row menu of every list)', () => {
  it('opens from its named button by keyboard and runs the chosen item; absent items are left out', async () => {
    const renew = vi.fn();
    const remove = vi.fn();
    renderUi(
      <RowActionsMenu
        label="Actions for license TX-1"
        actions={[{ label: 'Renew', icon: IconRefresh, onClick: renew }, false, deleteAction(remove)]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Actions for license TX-1' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Renew', 'Delete']);
    await userEvent.click(items[1]!);
    expect(remove).toHaveBeenCalledOnce();
    expect(renew).not.toHaveBeenCalled();
  });

  it('renders nothing when no action applies to the row', () => {
    // Within its own render: the workers share one document across files (isolate: false).
    const { container } = renderUi(<RowActionsMenu label="Actions for Course" actions={[false, null]} />);
    expect(within(container).queryByRole('button')).toBeNull();
  });
});

describe('RowActionButtons (a few icon buttons, each with its own name)', () => {
  it('names each button, keeps disabled ones disabled and renders a ready element in place', async () => {
    const edit = vi.fn();
    renderUi(
      <RowActionButtons
        actions={[
          editAction(edit, 'Edit Ada Admin'),
          <button key="x" type="button">
            Send password link
          </button>,
          { ...deleteAction(() => undefined, 'Delete Ada Admin'), disabled: true },
        ]}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Edit Ada Admin' }));
    expect(edit).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Send password link' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete Ada Admin' })).toBeDisabled();
  });
});
