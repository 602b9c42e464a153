import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { expiryBand, localDateString } from '@lm/shared';
import { formatHours } from '../../lib/format.ts';

/** Expiry badge (docs/product.md): past 'Expired' red; up to 30 days yellow; 31 to 90 blue; beyond 90 green. */
export function ExpiryBadge({ expirationDate, today = localDateString() }: { expirationDate: string; today?: string }) {
  const band = expiryBand(expirationDate, today);
  return (
    <Badge variant="light" color={band.color} data-testid="expiry-badge" data-color={band.color}>
      {band.label}
    </Badge>
  );
}

/** CE progress: completed of required hours, as a bar. */
export function CeProgress({ completed, required }: { completed: number; required: number }) {
  const pct = required > 0 ? Math.min(100, (completed / required) * 100) : completed > 0 ? 100 : 0;
  const done = required > 0 && completed >= required;
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
        color={done ? 'green' : 'blue'}
        aria-label={`CE hours ${formatHours(completed)} of ${formatHours(required)}`}
      />
    </Stack>
  );
}
