import { Badge, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { addDays, EXPIRY_INFO_DAYS, expiryBand, LICENSE_STRINGS, type Compliance } from '@lm/shared';
import { formatHours, hoursShort, spanText } from '../../lib/format.ts';
import { ComplianceBadge } from '../../components/compliance-badge.tsx';

/**
 * Expiry badge (docs/product.md): past 'Expired' red; up to 30 days yellow; 31 to 90 blue; beyond 90 green. The days
 * are the server's (`compliance.days_left`, counted on the office's calendar), never the browser's clock. Up to 90
 * days they are said as days ('12 days'); beyond, in years and months ('2 years 4 months', not '1467 days').
 */
export function ExpiryBadge({ expirationDate, daysLeft }: { expirationDate: string; daysLeft: number }) {
  // The band of the shared rule, read on the day the server counted from.
  const today = addDays(expirationDate, -daysLeft);
  const band = expiryBand(expirationDate, today);
  const label = band.days > EXPIRY_INFO_DAYS ? spanText(band.days, today, EXPIRY_INFO_DAYS) : band.label;
  return (
    <Badge variant="light" color={band.color} data-testid="expiry-badge" data-color={band.color}>
      {label}
    </Badge>
  );
}

/**
 * The server's compliance judgement of a license: the state's label and colour, the hours still to take while it
 * can still be done (at risk, on track), and the required topics still missing under it (two lines, all in a tooltip).
 */
export function ComplianceCell({ compliance }: { compliance: Compliance }) {
  const { state, topics_missing } = compliance;
  const missing = LICENSE_STRINGS.topicsMissing(topics_missing.map((t) => `${t.topic} ${hoursShort(t.hours)}`));
  return (
    <Stack gap={2} align="flex-start">
      <ComplianceBadge compliance={compliance} />
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
