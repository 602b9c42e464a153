import { Badge, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { addDays, COMPLIANCE_COLORS, COMPLIANCE_LABELS, expiryBand, LICENSE_STRINGS, type Compliance } from '@lm/shared';
import { formatHours, hoursShort } from '../../lib/format.ts';

/**
 * Expiry badge (docs/product.md): past 'Expired' red; up to 30 days yellow; 31 to 90 blue; beyond 90 green. The days
 * are the server's (`compliance.days_left`, counted on the office's calendar), never the browser's clock.
 */
export function ExpiryBadge({ expirationDate, daysLeft }: { expirationDate: string; daysLeft: number }) {
  // The band of the shared rule, read on the day the server counted from.
  const band = expiryBand(expirationDate, addDays(expirationDate, -daysLeft));
  return (
    <Badge variant="light" color={band.color} data-testid="expiry-badge" data-color={band.color}>
      {band.label}
    </Badge>
  );
}

/**
 * The server's compliance judgement of a license: the state's label and colour, the hours still to take while it
 * can still be done (at risk, on track), and the required topics still missing under it (two lines, all in a tooltip).
 */
export function ComplianceBadge({ compliance }: { compliance: Compliance }) {
  const { state, hours_remaining, topics_missing } = compliance;
  const showHours = (state === 'at_risk' || state === 'on_track') && hours_remaining > 0;
  const missing = LICENSE_STRINGS.topicsMissing(topics_missing.map((t) => `${t.topic} ${hoursShort(t.hours)}`));
  return (
    <Stack gap={2} align="flex-start">
      <Badge variant="light" color={COMPLIANCE_COLORS[state]} data-testid="compliance-badge" data-state={state}>
        {LICENSE_STRINGS.complianceBadge(COMPLIANCE_LABELS[state], showHours ? hoursShort(hours_remaining) : undefined)}
      </Badge>
      {topics_missing.length > 0 && state !== 'complete' && (
        // Two lines at most in the row; the whole list in the tooltip (and for screen readers, the text is all there).
        <Tooltip label={missing} multiline w={260} withinPortal openDelay={200}>
          <Text size="xs" c="dimmed" maw={180} lineClamp={2} data-testid="topics-missing">
            {missing}
          </Text>
        </Tooltip>
      )}
    </Stack>
  );
}

/** CE progress: completed of required hours, as a bar, green once the server judges the cycle complete. */
export function CeProgress({ completed, required, complete }: { completed: number; required: number; complete: boolean }) {
  const pct = required > 0 ? Math.min(100, (completed / required) * 100) : completed > 0 ? 100 : 0;
  return (
    <Stack gap={4} miw={120}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" data-testid="ce-progress">
          {formatHours(completed)} / {formatHours(required)} hrs
        </Text>
        <Text size="xs" c="dimmed">
          {Math.round(pct)}%
        </Text>
      </Group>
      <Progress
        value={Math.round(pct)}
        size="sm"
        color={complete ? 'green' : 'blue'}
        aria-label={`CE hours ${formatHours(completed)} of ${formatHours(required)}`}
      />
    </Stack>
  );
}
