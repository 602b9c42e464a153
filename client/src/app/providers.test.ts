import { describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { makeQueryClient } from './providers.tsx';

/** What the tRPC client throws when no answer came back (the server stopped, the network dropped). */
const unreachable = () => TRPCClientError.from(new TypeError('Failed to fetch'));

describe('the query client while the server cannot be reached (docs/decisions.md "Nothing lost and server trouble")', () => {
  it('keeps retrying a query that has data, so it keeps its data and never turns into an error', async () => {
    const client = makeQueryClient();
    client.setQueryData(['list'], ['row']);
    let calls = 0;
    const refetch = client.fetchQuery({
      queryKey: ['list'],
      queryFn: () => {
        calls += 1;
        if (calls < 3) throw unreachable();
        return ['row', 'new row'];
      },
    });
    await expect(refetch).resolves.toEqual(['row', 'new row']);
    expect(calls).toBe(3);
    expect(client.getQueryState(['list'])?.status).toBe('success');
  }, 10_000);

  it('gives up after one retry when there is nothing to show yet', async () => {
    const client = makeQueryClient();
    let calls = 0;
    const first = client.fetchQuery({
      queryKey: ['empty'],
      queryFn: () => {
        calls += 1;
        throw unreachable();
      },
    });
    await expect(first).rejects.toBeInstanceOf(TRPCClientError);
    expect(calls).toBe(2);
  }, 10_000);

  it('does not retry an answer of the app itself, even with data', async () => {
    const client = makeQueryClient();
    client.setQueryData(['mine'], 1);
    let calls = 0;
    const refetch = client.fetchQuery({
      queryKey: ['mine'],
      queryFn: () => {
        calls += 1;
        throw new TRPCClientError('Forbidden', { result: { error: { data: { httpStatus: 403 } } } as never });
      },
    });
    await expect(refetch).rejects.toBeInstanceOf(TRPCClientError);
    expect(calls).toBe(1);
  });
});
