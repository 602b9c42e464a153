import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { RoleName } from '@lm/shared';
import { useAuth } from '../lib/auth.tsx';

export const ACCESS_DENIED = 'Access denied. Admin privileges required.';

/**
 * Renders children only for the given roles; others see the access-denied text and the children
 * (and so their data calls) never mount. The server refuses those calls anyway: this only shapes the UI.
 */
export function RequireRole({ roles, children, message = ACCESS_DENIED }: { roles: RoleName[]; children: ReactNode; message?: string }) {
  const { hasRole } = useAuth();
  if (!hasRole(...roles)) {
    return (
      <Alert color="red" icon={<IconLock size={18} />} title="Access denied" role="alert">
        {message}
      </Alert>
    );
  }
  return <>{children}</>;
}

export function AdminOnly({ children }: { children: ReactNode }) {
  return <RequireRole roles={['Admin']}>{children}</RequireRole>;
}
