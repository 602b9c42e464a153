import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TRPCClientError } from '@trpc/client';
import { QueryError } from './query-error.tsx';
import { renderUi } from '../test/render.tsx';

afterEach(cleanup);

function serverError(message: string, httpStatus: number) {
  return TRPCClientError.from({ error: { message, code: -32603, data: { httpStatus, code: 'INTERNAL_SERVER_ERROR' } } });
}

describe('QueryError (docs/product.md section 8 text, with Retry)', () => {
  it("shows the server's message and refetches on Retry", async () => {
    const refetch = vi.fn();
    renderUi(<QueryError things="licenses" query={{ error: serverError('Database is busy, try again', 503), refetch }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error loading licenses: Database is busy, try again');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('falls back to the screen text when there is no server answer', () => {
    renderUi(
      <QueryError
        things="audit logs"
        fallback="Failed to fetch audit logs"
        query={{ error: new TypeError('Failed to fetch'), refetch: () => {} }}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Error loading audit logs: Failed to fetch audit logs');
  });
});
