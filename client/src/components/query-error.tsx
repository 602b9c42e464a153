import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../lib/errors.ts';

/** The part of a TanStack/tRPC query QueryError needs: its error, a way to fetch again, and whether it is. */
export type RetryableQuery = { error: unknown; refetch: () => unknown; isFetching?: boolean };

/**
 * The red alert of docs/product.md section 8: 'Error loading {things}: {message}', with the server's text, else
 * the screen's fetch-failure text (e.g. 'Failed to fetch audit logs'), and a Retry button that refetches.
 * A screen shows this instead of its empty state, never beside it (docs/architecture.md "Client").
 */
export function QueryError({ things, query, fallback = 'Request failed' }: { things: string; query: RetryableQuery; fallback?: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" style={{ flex: '1 1 14rem' }}>
          Error loading {things}: {errorMessage(query.error, fallback)}
        </Text>
        <Button
          size="xs"
          variant="white"
          color="red"
          leftSection={<IconRefresh size={14} />}
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        >
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
