import { Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook, IconCertificate, IconChecklist, IconCoin, IconUserPlus, type Icon } from '@tabler/icons-react';
import { activityText, DASHBOARD_STRINGS, type ActivityType } from '@lm/shared';
import { useRecentActivity } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { formatDateTime } from '../../lib/format.ts';

const ICONS: Record<ActivityType, { icon: Icon; color: string }> = {
  user_created: { icon: IconUserPlus, color: 'blue' },
  agent_created: { icon: IconUserPlus, color: 'blue' },
  license_created: { icon: IconCertificate, color: 'green' },
  completion_created: { icon: IconChecklist, color: 'teal' },
  course_created: { icon: IconBook, color: 'grape' },
  payment_created: { icon: IconCoin, color: 'yellow' },
};

/** At most 10 newest events in the caller's scope, refreshed every 60 s. */
export function RecentActivityCard() {
  const query = useRecentActivity();
  const items = query.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="recent-activity">
      <Title order={2} size="h4" mb="md">
        {DASHBOARD_STRINGS.recentActivity}
      </Title>
      {query.isError && <QueryError things="recent activity" query={query} />}
      {query.isLoading ? (
        <Stack gap="sm">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : items.length === 0 && !query.isError ? (
        <Text c="dimmed" ta="center" py="lg">
          {DASHBOARD_STRINGS.noActivity}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item, i) => {
            const { icon: ItemIcon, color } = ICONS[item.type];
            return (
              <Group key={`${item.type}-${i}`} component="li" wrap="nowrap" align="flex-start" gap="sm" data-type={item.type}>
                <ThemeIcon variant="light" color={color} radius="xl" size="md">
                  <ItemIcon size={16} />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text size="sm">{activityText(item)}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(item.timestamp)}
                  </Text>
                </div>
              </Group>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
