import { Card, Group, Skeleton, Stack, Text, ThemeIcon, useMatches } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One summary figure with its icon (dashboard, payments, backups). The value carries
 * data-testid "stat-{testId ?? label}". Compact below the sm breakpoint (phone width): less padding, a
 * smaller figure and icon, so two cards fit side by side at 390 px.
 */
export function StatCard({
  label,
  value,
  icon,
  color,
  loading = false,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  color: string;
  loading?: boolean;
  hint?: string;
  testId?: string;
}) {
  const iconSize = useMatches({ base: 32, sm: 44 });
  return (
    <Card withBorder padding="lg" p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" fz={{ base: 'xs', sm: 'sm' }} c="dimmed" fw={500}>
            {label}
          </Text>
          {loading ? (
            <Skeleton h={28} w={90} />
          ) : (
            <Text fw={700} fz={{ base: 18, sm: 24 }} lh={1.2} data-testid={`stat-${testId ?? label}`}>
              {value}
            </Text>
          )}
          {hint && (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </Stack>
        <ThemeIcon variant="light" color={color} size={iconSize} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
