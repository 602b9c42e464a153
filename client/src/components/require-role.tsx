import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { PolicyAction } from '@lm/shared/policy';
import { useAuth } from '../lib/auth.tsx';

export const ACCESS_DENIED = 'Access denied. Admin privileges required.';

/**
 * Renders children only for a user the access policy (shared/src/policy.ts) lets do `action`; others see the
 * access-denied text and the children (and so their data calls) never mount. The server refuses those calls
 * anyway, by the same policy: this only shapes the UI.
 */
export function RequireAccess({
  action,
  children,
  message = ACCESS_DENIED,
}: {
  action: PolicyAction;
  children: ReactNode;
  message?: string;
}) {
  const { can } = useAuth();
  if (!can(action)) {
    return (
      <Alert color="red" icon={<IconLock size={18} />} title="Access denied" role="alert">
        {message}
      </Alert>
    );
  }
  return <>{children}</>;
}
