import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { PolicyAction } from '@lm/shared/policy';
import { useAuth } from '../lib/auth.tsx';
import { PageHeader } from './page-header.tsx';

export const ACCESS_DENIED = 'Access denied. Admin privileges required.';

/**
 * Renders children only for a user the access policy (shared/src/policy.ts) lets do `action`; others see the
 * access-denied text and the children (and so their data calls, and the page's own actions such as "Add User")
 * never mount. With `title`, the refused page keeps its heading above the text (no buttons). The server refuses
 * those calls anyway, by the same policy: this only shapes the UI.
 */
export function RequireAccess({
  action,
  children,
  message = ACCESS_DENIED,
  title,
}: {
  action: PolicyAction;
  children: ReactNode;
  message?: string;
  /** The page's title, shown above the access-denied text when the page wraps its whole screen. */
  title?: string;
}) {
  const { can } = useAuth();
  if (!can(action)) {
    return (
      <>
        {title && <PageHeader title={title} />}
        <Alert color="red" icon={<IconLock size={18} />} title="Access denied" role="alert">
          {message}
        </Alert>
      </>
    );
  }
  return <>{children}</>;
}
