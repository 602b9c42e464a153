import { Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One summary figure with its icon (dashboard, payments, backups). The value carries
 * data-testid "stat-{testId ?? label}".
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
  return (
    <Card withBorder padding="lg" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          {loading ? (
            <Skeleton h={28} w={90} />
          ) : (
            <Text fw={700} fz={24} lh={1.2} data-testid={`stat-${testId ?? label}`}>
              {value}
            </Text>
          )}
          {hint && (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </Stack>
        <ThemeIcon variant="light" color={color} size={44} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
