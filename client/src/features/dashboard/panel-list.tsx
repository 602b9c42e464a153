import { Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { QueryError, type RetryableQuery } from '../../components/query-error.tsx';

/**
 * The body of a dashboard panel: its load error (with Retry), skeleton rows of the items' final height while it
 * loads (so the panel opens at its full size and nothing moves: docs/decisions.md "Dashboards"), its empty text, or
 * its items as a list.
 */
export function PanelList<T>({
  query,
  things,
  items,
  skeletonRows,
  rowHeight = 40,
  empty,
  children,
}: {
  query: RetryableQuery & { isError: boolean; isLoading: boolean };
  things: string;
  items: readonly T[];
  skeletonRows: number;
  rowHeight?: number;
  empty: string;
  children: (item: T, index: number) => ReactNode;
}) {
  return (
    <>
      {query.isError && <QueryError things={things} query={query} />}
      {query.isLoading ? (
        <Stack gap="sm">
          {Array.from({ length: skeletonRows }, (_, i) => (
            <Skeleton key={i} h={rowHeight} />
          ))}
        </Stack>
      ) : items.length === 0 && !query.isError ? (
        <Text c="dimmed" ta="center" py="lg">
          {empty}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map(children)}
        </Stack>
      )}
    </>
  );
}
