import { Badge } from '@mantine/core';
import type { PaymentMethod, PaymentStatus, PaymentType } from '@lm/shared';

const TYPE_COLORS: Record<PaymentType, string> = {
  'License Fee': 'blue',
  'Renewal Fee': 'teal',
  'Course Fee': 'violet',
  Penalty: 'red',
  Other: 'gray',
};
const METHOD_COLORS: Record<PaymentMethod, string> = {
  'Credit Card': 'indigo',
  'Bank Transfer': 'cyan',
  Check: 'grape',
  Cash: 'lime',
  Other: 'gray',
};
const STATUS_COLORS: Record<PaymentStatus, string> = {
  Completed: 'green',
  Pending: 'yellow',
  Failed: 'red',
  Refunded: 'gray',
};

export function PaymentTypeBadge({ type }: { type: PaymentType }) {
  return (
    <Badge variant="light" color={TYPE_COLORS[type]}>
      {type}
    </Badge>
  );
}

export function PaymentMethodBadge({ method }: { method: PaymentMethod }) {
  return (
    <Badge variant="outline" color={METHOD_COLORS[method]}>
      {method}
    </Badge>
  );
}

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {status}
    </Badge>
  );
}
