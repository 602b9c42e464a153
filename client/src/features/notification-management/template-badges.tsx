import { Badge } from '@mantine/core';
import { Tooltip } from '@mantine/core';
import {
  deliveryLabel,
  NOTIFICATION_TYPE_LABELS,
  TRIGGER_EVENT_LABELS,
  type Delivery,
  type NotificationType,
  type TriggerEvent,
} from '@lm/shared';

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

const LABEL_COLORS: Record<ReturnType<typeof deliveryLabel>, string> = {
  Delivered: 'green',
  'In outbox': 'yellow',
  'Not delivered': 'red',
  Failed: 'red',
  Pending: 'gray',
};

/**
 * Where a delivery went: Delivered (green) only when a mail server took it; a file in the outbox is
 * "In outbox", never delivered; the reason of a failure shows on hover.
 */
export function DeliveryStatusBadge({ delivery }: { delivery: Pick<Delivery, 'status' | 'transport' | 'error'> }) {
  const label = deliveryLabel(delivery);
  const badge = (
    <Badge miw="max-content" variant="light" color={LABEL_COLORS[label]}>
      {label}
    </Badge>
  );
  return delivery.error ? (
    <Tooltip label={delivery.error} withArrow multiline maw={260}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

export const triggerLabel = (t: TriggerEvent) => TRIGGER_EVENT_LABELS[t] ?? t;
