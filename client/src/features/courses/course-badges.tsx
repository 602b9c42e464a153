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
