import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../lib/errors.ts';

/**
 * The red alert of SPEC.md section 8: 'Error loading {things}: {message}', with the server's text, else
 * the screen's fetch-failure text (e.g. 'Failed to fetch audit logs').
 */
export function QueryError({ things, error, fallback = 'Request failed' }: { things: string; error: unknown; fallback?: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
      Error loading {things}: {errorMessage(error, fallback)}
    </Alert>
  );
}
