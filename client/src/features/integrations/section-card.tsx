import type { ReactNode } from 'react';
import { Card, Group, Text, Title } from '@mantine/core';

/** One section of the Integrations page (API keys, webhooks): its titled card, its action button and its intro. */
export function SectionCard({
  id,
  icon,
  title,
  intro,
  action,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  intro: string;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} size="h3" id={id}>
          <Group gap="xs" component="span">
            {icon}
            {title}
          </Group>
        </Title>
        {action}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {intro}
      </Text>
      {children}
    </Card>
  );
}
