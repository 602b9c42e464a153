import { Badge } from '@mantine/core';
import type { LicenseStatus } from '@lm/shared';

const STATUS_COLORS: Record<LicenseStatus, string> = {
  Active: 'green',
  Inactive: 'gray',
  Suspended: 'orange',
  Expired: 'red',
  'Pending Renewal': 'yellow',
};

/** A license's status as a coloured badge (the Licenses table and the CE transcript). */
export function LicenseStatusBadge({ status }: { status: LicenseStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {status}
    </Badge>
  );
}
