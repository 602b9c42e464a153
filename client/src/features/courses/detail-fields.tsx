import type { ReactNode } from 'react';
import { SimpleGrid, Stack, Text } from '@mantine/core';

/** A record's fields in a drawer: label above value, two columns from the sm breakpoint, one on a phone. */
export function DetailFields({ fields }: { fields: Array<[label: string, value: ReactNode]> }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      {fields.map(([label, value]) => (
        <Stack key={label} gap={2}>
          <Text size="xs" c="dimmed" fw={500}>
            {label}
          </Text>
          <Text size="sm" component="div">
            {value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
