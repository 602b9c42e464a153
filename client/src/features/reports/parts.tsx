import type { ReactNode } from 'react';
import { Badge, Card, Group, SimpleGrid, Skeleton, Table, Text, Title } from '@mantine/core';
import { percentOf } from '@lm/shared';
import { formatCount } from '../../lib/format.ts';
import { StatCard } from '../../components/stat-card.tsx';

/** A report's summary figure: the one StatCard (value's data-testid "stat-{label}"). */
export function Figure({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return <StatCard label={label} value={typeof value === 'number' ? formatCount(value) : value} hint={hint} />;
}

export function Figures({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
      {children}
    </SimpleGrid>
  );
}

export function FiguresSkeleton() {
  return (
    <Figures>
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} h={86} radius="md" />
      ))}
    </Figures>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Card>
  );
}

/** A count table with a coloured label and the share of the total to 1 decimal. */
export function ShareTable({
  label,
  rows,
  total,
  testId,
}: {
  label: string;
  rows: Array<{ name: string; count: number; color: string }>;
  total: number;
  testId: string;
}) {
  return (
    <Table striped highlightOnHover data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{label}</Table.Th>
          <Table.Th ta="right">Count</Table.Th>
          <Table.Th ta="right">Percentage</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.name}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              <Badge color={r.color} variant="light" data-color={r.color} miw="max-content" styles={{ label: { overflow: 'visible' } }}>
                {r.name}
              </Badge>
            </Table.Td>
            <Table.Td ta="right">{formatCount(r.count)}</Table.Td>
            <Table.Td ta="right">{percentOf(r.count, total)}%</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function EmptyChart({ text = 'No data for this period' }: { text?: string }) {
  return (
    <Text c="dimmed" ta="center" py="xl">
      {text}
    </Text>
  );
}
