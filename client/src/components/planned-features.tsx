import { Card, List, Text, ThemeIcon } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { PageHeader } from './page-header.tsx';

/** The pages docs/product.md defines as a list of planned features (Documents, Notifications). */
export function PlannedFeatures({ title, intro, features }: { title: string; intro: string; features: string[] }) {
  return (
    <>
      <PageHeader title={title} />
      <Card withBorder padding="lg" maw={640}>
        <Text mb="md">{intro}</Text>
        <List
          spacing="sm"
          icon={
            <ThemeIcon variant="light" size={24} radius="xl">
              <IconClockHour4 size={14} />
            </ThemeIcon>
          }
        >
          {features.map((f) => (
            <List.Item key={f}>{f}</List.Item>
          ))}
        </List>
      </Card>
    </>
  );
}
