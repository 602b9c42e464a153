import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DASHBOARD_STRINGS, EXPIRING_CARD_LIMIT } from '@lm/shared';
import { formatDate, hoursText } from '../../lib/format.ts';
import { usePendingApprovals } from './api.ts';
import { PanelList } from './panel-list.tsx';
import { LIST_LINKS } from '@lm/shared/list-links';

/**
 * A School's work: the completions of its courses waiting for its approval, the longest waiting first (at most 5).
 * Each opens the Completions list at that person's pending completions, where the row menu approves or rejects;
 * the link below opens every pending one.
 */
export function PendingApprovalsCard() {
  const query = usePendingApprovals();
  const items = query.data?.completions ?? [];
  const total = query.data?.pagination.total ?? 0;
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="pending-approvals">
      <Title order={2} size="h4" mb="md">
        {DASHBOARD_STRINGS.pendingApprovals}
      </Title>
      <PanelList
        query={query}
        things="pending approvals"
        items={items}
        skeletonRows={EXPIRING_CARD_LIMIT}
        empty={DASHBOARD_STRINGS.noPendingApprovals}
      >
        {(c) => {
          const name = `${c.first_name} ${c.last_name}`;
          return (
            <Group key={c.completion_id} component="li" justify="space-between" wrap="nowrap" data-testid="pending-item">
              <div style={{ minWidth: 0 }}>
                <Anchor component={Link} to={LIST_LINKS.pendingOf(name)} size="sm" fw={500} display="block" truncate="end">
                  {name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {c.course_name} · {DASHBOARD_STRINGS.completedOn(formatDate(c.completion_date))}
                </Text>
              </div>
              <Text size="sm" style={{ flexShrink: 0 }}>
                {hoursText(c.hours)}
              </Text>
            </Group>
          );
        }}
      </PanelList>
      {total > 0 && (
        <Anchor component={Link} to={LIST_LINKS.pending} size="sm" mt="md">
          {DASHBOARD_STRINGS.allPending(total)}
        </Anchor>
      )}
    </Card>
  );
}
