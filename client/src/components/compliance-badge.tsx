import { Badge, type BadgeProps } from '@mantine/core';
import { COMPLIANCE_COLORS, COMPLIANCE_LABELS, LICENSE_STRINGS, type Compliance } from '@lm/shared';
import { hoursShort } from '../lib/format.ts';

/**
 * The server's compliance judgement of a license as a badge: the state's label and colour, with the hours still to
 * take while they can still be taken (at risk, on track). Every screen that shows compliance uses this one.
 */
export function ComplianceBadge({ compliance, ...props }: { compliance: Compliance } & Omit<BadgeProps, 'color' | 'children'>) {
  const { state, hours_remaining } = compliance;
  const showHours = (state === 'at_risk' || state === 'on_track') && hours_remaining > 0;
  return (
    <Badge variant="light" data-testid="compliance-badge" data-state={state} {...props} color={COMPLIANCE_COLORS[state]}>
      {LICENSE_STRINGS.complianceBadge(COMPLIANCE_LABELS[state], showHours ? hoursShort(hours_remaining) : undefined)}
    </Badge>
  );
}
