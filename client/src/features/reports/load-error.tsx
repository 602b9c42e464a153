import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../../lib/errors.ts';

/** 'Error loading {things}: {message}', with the SPEC.md fetch-failure text when the server gave none. */
export function LoadError({ things, error, fallback }: { things: string; error: unknown; fallback: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
      Error loading {things}: {errorMessage(error, fallback)}
    </Alert>
  );
}
