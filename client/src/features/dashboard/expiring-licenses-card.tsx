import { Anchor, Badge, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useState } from 'react';
import { DASHBOARD_STRINGS, DEFAULT_EXPIRING_WINDOW, EXPIRING_CARD_LIMIT, EXPIRING_WINDOWS, expiringBadgeColor } from '@lm/shared';
import { useExpiringLicenses } from './api.ts';
import { PanelList } from './panel-list.tsx';
import { ComplianceBadge } from '../../components/compliance-badge.tsx';
import { formatDate, spanText } from '../../lib/format.ts';
import { LIST_LINKS } from '@lm/shared/list-links';

const WINDOW_OPTIONS = EXPIRING_WINDOWS.map((d) => ({ value: String(d), label: `${d} days` }));

/**
 * At most 5 licenses expiring in the chosen window (30/60/90 days, default 90), refreshed every 5 min. The days left
 * and the compliance state are the server's (the office's calendar), not the browser's clock. Each row opens its
 * license in the Licenses list; "View all" opens the list of every license expiring in the window.
 */
export function ExpiringLicensesCard() {
  const [days, setDays] = useState<number>(DEFAULT_EXPIRING_WINDOW);
  const query = useExpiringLicenses(days, EXPIRING_CARD_LIMIT);
  const items = query.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="expiring-licenses">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Title order={2} size="h4">
          {DASHBOARD_STRINGS.expiringLicenses}
        </Title>
        <Select
          aria-label="Expiring within"
          data={WINDOW_OPTIONS}
          value={String(days)}
          onChange={(v) => v && setDays(Number(v))}
          allowDeselect={false}
          w={120}
          size="xs"
        />
      </Group>
      <PanelList query={query} things="expiring licenses" items={items} skeletonRows={3} empty={DASHBOARD_STRINGS.noExpiring(days)}>
        {(l) => (
          <Group key={l.license_id} component="li" justify="space-between" wrap="nowrap" data-testid="expiring-item">
            <div style={{ minWidth: 0 }}>
              <Anchor component={Link} to={LIST_LINKS.license(l.license_number)} size="sm" fw={500} display="block" truncate="end">
                {l.first_name} {l.last_name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {l.license_number} · {l.state} · expires {formatDate(l.expiration_date)}
              </Text>
            </div>
            <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
              <Badge color={expiringBadgeColor(l.days_left)} data-color={expiringBadgeColor(l.days_left)} variant="light">
                {spanText(l.days_left)}
              </Badge>
              <ComplianceBadge compliance={l.compliance} variant="outline" size="sm" data-testid="expiring-compliance" />
            </Stack>
          </Group>
        )}
      </PanelList>
      {items.length > 0 && (
        <Anchor component={Link} to={LIST_LINKS.expiring(days)} size="sm" mt="md">
          {DASHBOARD_STRINGS.viewAllExpiring(days)}
        </Anchor>
      )}
    </Card>
  );
}
