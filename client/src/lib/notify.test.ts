import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { TRPCClientError } from '@trpc/client';
import { mutationOutcome } from './notify.ts';

afterEach(() => vi.restoreAllMocks());

describe('mutationOutcome (the toasts and follow-up of every mutation)', () => {
  it('toasts the success text, then runs the follow-up with the result and the input', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('');
    const then = vi.fn();
    mutationOutcome<{ status: string }, { id: number }>((data) => `Now ${data.status}`, 'Failed', then).onSuccess(
      { status: 'Approved' },
      { id: 3 },
    );
    expect(show).toHaveBeenCalledWith({ color: 'green', title: 'Success', message: 'Now Approved' });
    expect(then).toHaveBeenCalledWith({ status: 'Approved' }, { id: 3 });
  });

  it("toasts the server's message on failure, else the fallback; null leaves the failure to the form", () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('');
    const outcome = mutationOutcome('Saved', 'Failed to save');
    outcome.onError?.(TRPCClientError.from({ error: { message: 'Name is taken', code: -32600, data: { httpStatus: 409 } } }));
    outcome.onError?.(new Error(''));
    expect(show.mock.calls.map(([n]) => n.message)).toEqual(['Name is taken', 'Failed to save']);
    expect(mutationOutcome('Saved', null).onError).toBeUndefined();
  });
});
