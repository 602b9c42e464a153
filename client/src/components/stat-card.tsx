import { Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './stat-card.module.css';

/**
 * One summary figure (dashboard, audit, payments, backups, reports), with its icon when given. Compact at phone
 * width: smaller padding, figure and icon, so two cards sit side by side. The value carries data-testid
 * "stat-{testId ?? label}". With `to` the whole card is a link to that list, focusable and named by its own text
 * ("At Risk 3 …").
 */
export function StatCard({
  label,
  value,
  icon,
  color = 'blue',
  loading = false,
  hint,
  testId,
  to,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  color?: string;
  loading?: boolean;
  hint?: string;
  testId?: string;
  /** The route the card opens, e.g. '/licenses?compliance=at_risk'. */
  to?: string;
}) {
  const body = (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <Stack gap={4} miw={0}>
        <Text size="sm" c="dimmed" fw={500} fz={{ base: 'xs', sm: 'sm' }}>
          {label}
        </Text>
        {/* While loading, the figure's own line under a skeleton: the card keeps its final height. */}
        <Skeleton visible={loading} w={loading ? 90 : undefined}>
          <Text fw={700} fz={{ base: 'lg', sm: 24 }} lh={1.2} data-testid={loading ? undefined : `stat-${testId ?? label}`}>
            {loading ? '\u00a0' : value}
          </Text>
        </Skeleton>
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
      </Stack>
      {icon && (
        <ThemeIcon variant="light" color={color} size={44} radius="md" visibleFrom="sm">
          {icon}
        </ThemeIcon>
      )}
    </Group>
  );
  if (to) {
    return (
      <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component={Link} to={to} className={classes.link}>
        {body}
      </Card>
    );
  }
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      {body}
    </Card>
  );
}
