import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { NOTIFICATION_MANAGEMENT_STRINGS } from '@lm/shared';
import { useNotificationHistory } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { DeliveryStatusBadge } from './template-badges.tsx';
import { formatDateTime } from '../../lib/format.ts';

/** docs/product.md section 9: recent notifications 5. */
const RECENT_SHOWN = 5;

function Stat({ label, value, color }: { label: string; value: number | undefined; color?: string }) {
  return (
    <Stack gap={0} aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton h={28} w={48} mt={4} />
      ) : (
        <Text fz={26} fw={700} c={color}>
          {value}
        </Text>
      )}
    </Stack>
  );
}

/** The two side cards: Notification Statistics and Recent Notifications. */
export function NotificationSideCards() {
  const history = useNotificationHistory();
  const h = history.data;
  // The error instead of the two cards, never 'No recent notifications' beside it.
  if (history.isError) return <QueryError things="notification history" query={history} />;
  return (
    <Stack>
      <Paper withBorder p="md" radius="md" aria-label={NOTIFICATION_MANAGEMENT_STRINGS.statistics} component="section">
        <Title order={2} size="h4" mb="md">
          {NOTIFICATION_MANAGEMENT_STRINGS.statistics}
        </Title>
        <SimpleGrid cols={2} spacing="md">
          <Stat label="Total Sent" value={h?.total_sent} />
          <Stat label="Delivered" value={h?.successful} color="green" />
          <Stat label="In Outbox" value={h?.in_outbox} color="yellow" />
          <Stat label="Failed" value={h?.failed} color="red" />
          <Stat label="Pending" value={h?.pending} color="gray" />
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" radius="md" aria-label={NOTIFICATION_MANAGEMENT_STRINGS.recent} component="section">
        <Title order={2} size="h4" mb="md">
          {NOTIFICATION_MANAGEMENT_STRINGS.recent}
        </Title>
        {history.isLoading ? (
          <Stack gap="sm">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : !h || h.recent.length === 0 ? (
          <Text c="dimmed" size="sm">
            {NOTIFICATION_MANAGEMENT_STRINGS.noRecent}
          </Text>
        ) : (
          <Stack gap="sm">
            {h.recent.slice(0, RECENT_SHOWN).map((d) => (
              <Group key={d.id} justify="space-between" wrap="nowrap" gap="sm" data-testid="recent-notification">
                <Stack gap={0} miw={0} style={{ flex: 1 }}>
                  <Text size="sm" fw={500} truncate="end">
                    {d.recipient}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {d.template_name} · {formatDateTime(d.created_at)}
                  </Text>
                </Stack>
                <DeliveryStatusBadge delivery={d} />
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
