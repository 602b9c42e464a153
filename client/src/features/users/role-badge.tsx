import { Badge } from '@mantine/core';
import { ROLE_COLORS, type RoleName } from '@lm/shared';

/** Role badge: Admin danger, Broker primary, Agent success, School warning (docs/product.md). */
export function RoleBadge({ role }: { role: RoleName }) {
  return (
    <Badge color={ROLE_COLORS[role]} variant="light" data-role={role}>
      {role}
    </Badge>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? 'green' : 'gray'} variant="dot">
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}
