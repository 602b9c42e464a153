import { Button, Drawer, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconEdit } from '@tabler/icons-react';
import type { CeRule } from '@lm/shared';
import { formatDate, formatHours, hoursOf } from '../../lib/format.ts';

export const years = (n: number) => `${n} ${n === 1 ? 'year' : 'years'}`;

/** A state CE rule's detail, opened from its row: its figures, its required topics with their hours and its notes. */
export function CeRuleDrawer({ rule, onClose, onEdit }: { rule: CeRule | null; onClose: () => void; onEdit?: (r: CeRule) => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const inTopics = rule ? rule.topics.reduce((s, t) => s + t.hours, 0) : 0;
  const fields: Array<[string, string]> = rule
    ? [
        ['State', rule.state],
        ['License Type', rule.license_type],
        ['Hours per cycle', formatHours(rule.hours_required)],
        ['Cycle', years(rule.cycle_years)],
        ['Hours in topics', hoursOf(inTopics, rule.hours_required)],
        ['Updated', formatDate(rule.updated_at)],
      ]
    : [];
  return (
    <Drawer
      opened={rule !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'md'}
      title={
        <Title order={3} component="span">
          {rule ? `${rule.state} ${rule.license_type} CE rule` : ''}
        </Title>
      }
    >
      {rule && (
        <Stack>
          <SimpleGrid cols={2} spacing="md" verticalSpacing="sm">
            {fields.map(([label, value]) => (
              <Stack key={label} gap={2}>
                <Text size="xs" c="dimmed" fw={500}>
                  {label}
                </Text>
                <Text size="sm">{value}</Text>
              </Stack>
            ))}
          </SimpleGrid>
          <Title order={3} size="h4">
            Required topics
          </Title>
          {rule.topics.length === 0 ? (
            <Text size="sm" c="dimmed">
              No topic requirements: any approved CE counts.
            </Text>
          ) : (
            <Table striped fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Topic</Table.Th>
                  <Table.Th ta="right">Hours</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rule.topics.map((t) => (
                  <Table.Tr key={t.topic}>
                    <Table.Td>{t.topic}</Table.Td>
                    <Table.Td ta="right">{formatHours(t.hours)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Stack gap={2}>
            <Text size="xs" c="dimmed" fw={500}>
              Notes
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {rule.notes || 'None'}
            </Text>
          </Stack>
          {onEdit && (
            <Group>
              <Button variant="light" leftSection={<IconEdit size={16} />} onClick={() => onEdit(rule)}>
                Edit
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
