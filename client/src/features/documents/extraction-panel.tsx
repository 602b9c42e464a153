/**
 * What the server read from a CE certificate (docs/decisions.md "Documents"). MINIMAL VERSION: the OCR work replaces this file
 * with the full panel (suggested completion, confirm); it keeps these props.
 */
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { CertificateFields } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';

const FIELD_LABELS: Record<keyof CertificateFields, string> = {
  course_name: 'Course',
  provider: 'Provider',
  hours: 'Hours',
  completion_date: 'Completion date',
  holder_name: 'Holder',
  license_number: 'License number',
};

const STATUS_COLORS = { none: 'gray', pending: 'yellow', done: 'green', failed: 'red' } as const;

export function ExtractionPanel({ documentId, version }: { documentId: number; version: number }) {
  const query = trpc.documents.get.useQuery({ id: documentId });
  const v = query.data?.versions.find((x) => x.version === version);
  if (!v) return null;
  return (
    <Stack gap="xs" aria-label="Certificate reading">
      <Group gap="xs">
        <Text size="sm" fw={500}>
          Certificate reading
        </Text>
        <Badge color={STATUS_COLORS[v.extraction_status]} variant="light">
          {v.extraction_status}
        </Badge>
      </Group>
      {v.extraction_status === 'failed' && v.extraction_error && (
        <Text size="sm" c="red">
          {v.extraction_error}
        </Text>
      )}
      {v.extraction_status === 'done' && v.extraction && (
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Value</Table.Th>
              <Table.Th>Confidence</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(Object.keys(FIELD_LABELS) as Array<keyof CertificateFields>).map((k) => (
              <Table.Tr key={k}>
                <Table.Td>{FIELD_LABELS[k]}</Table.Td>
                <Table.Td>{v.extraction!.fields[k].value ?? '-'}</Table.Td>
                <Table.Td>{Math.round(v.extraction!.fields[k].confidence * 100)}%</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
