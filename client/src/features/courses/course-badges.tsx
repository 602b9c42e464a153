import { Badge } from '@mantine/core';
import { COMPLETION_STATUS_COLORS, COURSE_TYPE_COLORS, type CompletionStatus, type CourseType } from '@lm/shared';

/** Type badge (docs/product.md: Online primary, In-Person info, Webinar warning). */
export function CourseTypeBadge({ type }: { type: CourseType }) {
  return (
    <Badge variant="light" color={COURSE_TYPE_COLORS[type]}>
      {type}
    </Badge>
  );
}

export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <Badge variant="light" color={active ? 'green' : 'gray'}>
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}

export function CompletionStatusBadge({ status }: { status: CompletionStatus }) {
  return (
    <Badge variant="light" color={COMPLETION_STATUS_COLORS[status]}>
      {status}
    </Badge>
  );
}

/** A timestamp or YYYY-MM-DD shown as the browser's local date. */
export function formatDate(value: string): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleDateString();
}
