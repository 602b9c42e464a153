import type { RoleName } from '@lm/shared';
import {
  IconBell,
  IconBook,
  IconBuilding,
  IconCertificate,
  IconChartBar,
  IconChecklist,
  IconCreditCard,
  IconDatabaseExport,
  IconFileText,
  IconHistory,
  IconLayoutDashboard,
  IconMailCog,
  IconSettings,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

export interface NavEntry {
  path: string;
  label: string;
  roles: readonly RoleName[];
  icon: Icon;
}

const ALL: readonly RoleName[] = ['Admin', 'School', 'Broker', 'Agent'];

/** The sidebar of docs/product.md section 2, in order, with who sees each entry (plus CE Rules). */
export const NAV: readonly NavEntry[] = [
  { path: '/dashboard', label: 'Dashboard', roles: ALL, icon: IconLayoutDashboard },
  { path: '/users', label: 'Users', roles: ['Admin', 'Broker'], icon: IconUsers },
  { path: '/brokerages', label: 'Brokerages', roles: ['Admin'], icon: IconBuilding },
  { path: '/licenses', label: 'Licenses', roles: ['Admin', 'Broker', 'Agent'], icon: IconCertificate },
  { path: '/courses', label: 'Courses', roles: ALL, icon: IconBook },
  // Beyond docs/product.md: the state CE rules. Every role may open /ce-rules (read-only); the entry is for the Admin who keeps them.
  { path: '/ce-rules', label: 'CE Rules', roles: ['Admin'], icon: IconChecklist },
  { path: '/payments', label: 'Payments', roles: ['Admin', 'Broker', 'Agent'], icon: IconCreditCard },
  { path: '/documents', label: 'Documents', roles: ALL, icon: IconFileText },
  { path: '/notifications', label: 'Notifications', roles: ALL, icon: IconBell },
  { path: '/audit', label: 'Audit Logs', roles: ['Admin'], icon: IconHistory },
  { path: '/reports', label: 'Reports', roles: ['Admin'], icon: IconChartBar },
  { path: '/notification-management', label: 'Notification Management', roles: ['Admin'], icon: IconMailCog },
  { path: '/backup-restore', label: 'Backup & Restore', roles: ['Admin'], icon: IconDatabaseExport },
  { path: '/settings', label: 'Settings', roles: ['Admin'], icon: IconSettings },
];

export function navFor(role: RoleName | null): NavEntry[] {
  return role ? NAV.filter((e) => e.roles.includes(role)) : [];
}
