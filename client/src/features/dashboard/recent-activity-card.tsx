import { Card, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook, IconCertificate, IconChecklist, IconCoin, IconUserPlus, type Icon } from '@tabler/icons-react';
import { activityText, DASHBOARD_STRINGS, RECENT_ACTIVITY_LIMIT, type ActivityItem, type ActivityType } from '@lm/shared';
import { useRecentActivity } from './api.ts';
import { PanelList } from './panel-list.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';

const ICONS: Record<ActivityType, { icon: Icon; color: string }> = {
  user_created: { icon: IconUserPlus, color: 'blue' },
  agent_created: { icon: IconUserPlus, color: 'blue' },
  license_created: { icon: IconCertificate, color: 'green' },
  completion_created: { icon: IconChecklist, color: 'teal' },
  course_created: { icon: IconBook, color: 'grape' },
  payment_created: { icon: IconCoin, color: 'yellow' },
};

/** A completion or payment that did not go through is marked red (rejected, failed); one waiting, yellow. */
function colorOf(item: ActivityItem): string {
  if (item.type === 'completion_created') {
    return item.data.status === 'Rejected' ? 'red' : item.data.status === 'Pending' ? 'yellow' : ICONS[item.type].color;
  }
  if (item.type === 'payment_created') {
    return item.data.status === 'Failed' ? 'red' : item.data.status === 'Completed' ? ICONS[item.type].color : 'gray';
  }
  return ICONS[item.type].color;
}

/** The item's date line: a completion's own calendar day (as stored, no zone shift), else when it happened. */
const whenOf = (item: ActivityItem) =>
  item.type === 'completion_created'
    ? DASHBOARD_STRINGS.completedOn(formatDate(item.data.completion_date))
    : formatDateTime(item.timestamp);

/** One skeleton line per item the card may show, each of an item's height, so the card opens at its full size. */
export const ACTIVITY_ROW_HEIGHT = 44;

/** At most 10 newest events in the caller's scope, refreshed every 60 s; each says what became of it. */
export function RecentActivityCard() {
  const query = useRecentActivity();
  const items = query.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="recent-activity">
      <Title order={2} size="h4" mb="md">
        {DASHBOARD_STRINGS.recentActivity}
      </Title>
      <PanelList
        query={query}
        things="recent activity"
        items={items}
        skeletonRows={RECENT_ACTIVITY_LIMIT}
        rowHeight={ACTIVITY_ROW_HEIGHT}
        empty={DASHBOARD_STRINGS.noActivity}
      >
        {(item, i) => {
          const ItemIcon = ICONS[item.type].icon;
          const status = item.type === 'completion_created' || item.type === 'payment_created' ? item.data.status : undefined;
          return (
            <Group
              key={`${item.type}-${i}`}
              component="li"
              wrap="nowrap"
              align="flex-start"
              gap="sm"
              data-type={item.type}
              data-status={status}
            >
              <ThemeIcon variant="light" color={colorOf(item)} radius="xl" size="md">
                <ItemIcon size={16} />
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Text size="sm">{activityText(item)}</Text>
                <Text size="xs" c="dimmed">
                  {whenOf(item)}
                </Text>
              </div>
            </Group>
          );
        }}
      </PanelList>
    </Card>
  );
}
