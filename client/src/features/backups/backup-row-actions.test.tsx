import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Backup } from '@lm/shared';
import { BackupRowActions } from './backup-row-actions.tsx';
import { renderUi } from '../../test/render.tsx';

const base: Backup = {
  id: 7,
  description: 'Nightly',
  created_at: '2026-03-01T10:00:00.000Z',
  completed_at: null,
  size: 2048,
  status: 'completed',
  type: 'manual',
  include_files: true,
  created_by: 1,
  created_by_name: 'Ada Admin',
  error: null,
};

afterEach(cleanup);

function renderActions(backup: Backup) {
  const handlers = { onDownload: vi.fn(), onRestore: vi.fn(), onDelete: vi.fn() };
  renderUi(<BackupRowActions backup={backup} downloading={false} {...handlers} />);
  return handlers;
}

describe('backup row actions (docs/product.md section 4: download and restore only when completed)', () => {
  it('enables all three for a completed backup', async () => {
    const h = renderActions(base);
    await userEvent.click(screen.getByRole('button', { name: 'Download Nightly' }));
    await userEvent.click(screen.getByRole('button', { name: 'Restore Nightly' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Nightly' }));
    expect(h.onDownload).toHaveBeenCalledWith(base);
    expect(h.onRestore).toHaveBeenCalledWith(base);
    expect(h.onDelete).toHaveBeenCalledWith(base);
  });

  it.each(['failed', 'in_progress'] as const)('disables download and restore for a %s backup; delete stays', (status) => {
    renderActions({ ...base, status });
    expect(screen.getByRole('button', { name: 'Download Nightly' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Restore Nightly' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Nightly' })).toBeEnabled();
  });
});
