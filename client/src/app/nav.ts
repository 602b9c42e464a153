import type { RoleName } from '@lm/shared/roles';
import { roleMay, rolesFor, type PolicyAction } from '@lm/shared/policy';
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
  IconPlugConnected,
  IconSettings,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

export interface NavEntry {
  path: string;
  label: string;
  /** The action of the access policy (shared/src/policy.ts) the page is for: the entry shows to the roles that may. */
  action: PolicyAction;
  /** The roles that see the entry (the action's roles). */
  roles: readonly RoleName[];
  icon: Icon;
}

const entry = (path: string, label: string, action: PolicyAction, icon: Icon): NavEntry => ({
  path,
  label,
  action,
  roles: rolesFor(action),
  icon,
});

/** The sidebar of docs/product.md section 2, in order, with the action that decides who sees each entry (plus CE Rules). */
export const NAV: readonly NavEntry[] = [
  entry('/dashboard', 'Dashboard', 'dashboard.read', IconLayoutDashboard),
  entry('/users', 'Users', 'users.read', IconUsers),
  entry('/brokerages', 'Brokerages', 'brokerages.read', IconBuilding),
  entry('/licenses', 'Licenses', 'licenses.read', IconCertificate),
  entry('/courses', 'Courses', 'courses.read', IconBook),
  // Beyond docs/product.md: the state CE rules. Every role may open /ce-rules (read-only); the entry is for the Admin who keeps them.
  entry('/ce-rules', 'CE Rules', 'ceRules.update', IconChecklist),
  entry('/payments', 'Payments', 'payments.read', IconCreditCard),
  entry('/documents', 'Documents', 'documents.read', IconFileText),
  entry('/notifications', 'Notifications', 'notifications.read', IconBell),
  entry('/audit', 'Audit Logs', 'audit.read', IconHistory),
  entry('/reports', 'Reports', 'reports.read', IconChartBar),
  entry('/notification-management', 'Notification Management', 'notificationTemplates.read', IconMailCog),
  entry('/backup-restore', 'Backup & Restore', 'backups.read', IconDatabaseExport),
  entry('/settings', 'Settings', 'settings.read', IconSettings),
  // Beyond docs/product.md (issue #29): Settings › Integrations, API keys and webhooks; a Broker manages its brokerage's read keys.
  entry('/settings/integrations', 'Integrations', 'apiKeys.read', IconPlugConnected),
];

export function navFor(role: RoleName | null): NavEntry[] {
  return role ? NAV.filter((e) => roleMay(role, e.action)) : [];
}
