import { Card, Group, Progress, Text, Title } from '@mantine/core';
import { DASHBOARD_STRINGS, type CeProgress } from '@lm/shared';
import { formatDate } from './format.ts';

const hours = (h: number) => (Number.isInteger(h) ? String(h) : h.toFixed(1));

/** The Agent's Continuing Education Progress: hours completed of required, and the renewal date. */
export function CeProgressCard({ progress }: { progress: CeProgress }) {
  const { completed, required, renewal_date } = progress;
  const percent = required > 0 ? Math.min(100, (completed / required) * 100) : completed > 0 ? 100 : 0;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="ce-progress">
      <Title order={4} mb="md">
        {DASHBOARD_STRINGS.ceProgress}
      </Title>
      <Group justify="space-between" mb={6}>
        <Text size="sm">
          {hours(completed)} of {hours(required)} hours completed
        </Text>
        <Text size="sm" fw={600}>
          {percent.toFixed(0)}%
        </Text>
      </Group>
      <Progress value={percent} color={percent >= 100 ? 'green' : 'blue'} size="lg" radius="xl" aria-label="CE hours completed" />
      <Text size="sm" c="dimmed" mt="sm">
        Renewal date: {renewal_date ? formatDate(renewal_date) : 'N/A'}
      </Text>
    </Card>
  );
}
