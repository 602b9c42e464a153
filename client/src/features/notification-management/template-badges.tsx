import { Badge } from '@mantine/core';
import { NOTIFICATION_TYPE_LABELS, TRIGGER_EVENT_LABELS, type DeliveryStatus, type NotificationType, type TriggerEvent } from '@lm/shared';

const TYPE_COLORS: Record<NotificationType, string> = { email: 'blue', sms: 'teal', push: 'violet' };

export function TypeBadge({ type }: { type: NotificationType }) {
  return (
    <Badge miw="max-content" variant="light" color={TYPE_COLORS[type]}>
      {NOTIFICATION_TYPE_LABELS[type]}
    </Badge>
  );
}

export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <Badge miw="max-content" variant="light" color={active ? 'green' : 'gray'}>
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}

// miw: a badge never shrinks into an ellipsis inside a narrow table cell or row.

/** SPEC.md: status sent shows green, anything else red. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge miw="max-content" variant="light" color={status === 'sent' ? 'green' : 'red'}>
      {status}
    </Badge>
  );
}

export const triggerLabel = (t: TriggerEvent) => TRIGGER_EVENT_LABELS[t] ?? t;

export function formatDateTime(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
