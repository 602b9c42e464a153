import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../lib/errors.ts';

/** The red alert of SPEC.md section 8: 'Error loading {things}: {message}'. */
export function QueryError({ things, error }: { things: string; error: unknown }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
      Error loading {things}: {errorMessage(error, 'Request failed')}
    </Alert>
  );
}
