import { useSyncExternalStore } from 'react';
import { Alert, Loader, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQueryClient, type QueryCache } from '@tanstack/react-query';
import { serverUnreachable } from '../lib/errors.ts';
import { formatTime } from '../lib/format.ts';

/** The banner's words (docs/decisions.md "Server trouble"). */
export const serverTroubleText = (since: number) => `Can't reach the server — showing data from ${formatTime(new Date(since))}; retrying`;

/**
 * When the oldest data on screen was fetched, while some query that has data cannot reach the server and keeps
 * retrying (app/providers.tsx), or waits for the browser to be online again; null when all is well.
 */
function staleSince(cache: QueryCache): number | null {
  let since: number | null = null;
  for (const q of cache.getAll()) {
    const { data, dataUpdatedAt, fetchStatus, fetchFailureCount, fetchFailureReason } = q.state;
    if (data === undefined || !q.getObserversCount()) continue;
    const retrying = fetchStatus === 'fetching' && fetchFailureCount > 0 && serverUnreachable(fetchFailureReason);
    if (!retrying && fetchStatus !== 'paused') continue;
    since = since === null ? dataUpdatedAt : Math.min(since, dataUpdatedAt);
  }
  return since;
}

/**
 * The banner over the page while the server cannot be reached: the data already shown stays (nothing is replaced by
 * an error), the banner says from when it is, and it goes by itself once a retry gets through.
 */
export function ServerTroubleBanner() {
  const cache = useQueryClient().getQueryCache();
  const since = useSyncExternalStore(
    (onChange) => cache.subscribe(onChange),
    () => staleSince(cache),
  );
  if (since === null) return null;
  return (
    <Alert color="yellow" icon={<IconPlugConnectedX size={18} />} role="status" mb="md" data-testid="server-trouble">
      <Text size="sm" component="span" style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
        {serverTroubleText(since)}
        <Loader size={12} aria-hidden />
      </Text>
    </Alert>
  );
}
