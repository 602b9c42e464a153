import type { ReactNode } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { CycleFigures, TranscriptCurrentCycle } from '@lm/shared';
import { formatDate, formatDateTime, formatHours, hoursOf, hoursText, signedHours } from '../lib/format.ts';

/** '6 of 10 hours' over a bar; the badge says whether the cycle is done and what the server says remains. */
export function CeHoursBar({
  completed,
  required,
  remaining,
  complete,
}: {
  completed: number;
  required: number;
  remaining: number;
  complete: boolean;
}) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={500} data-testid="ce-hours-label">
          {hoursOf(completed, required)}
        </Text>
        {complete ? (
          <Badge variant="light" color="green">
            Complete
          </Badge>
        ) : (
          <Badge variant="light" color="orange">
            {remaining > 0 ? `${hoursText(remaining)} remaining` : 'Topics outstanding'}
          </Badge>
        )}
      </Group>
      <Progress
        value={Math.round(percentDone(completed, required))}
        color={complete ? 'green' : 'blue'}
        size="lg"
        radius="xl"
        aria-label={`CE hours: ${hoursOf(completed, required)}`}
      />
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder radius="md" px="sm" py="xs">
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={700} data-testid={`figure-${label.toLowerCase()}`}>
        {formatHours(value)}
      </Text>
    </Paper>
  );
}

/** Required, completed and remaining hours of a cycle, its bar, and the per-topic table. */
export function CycleFiguresView({ cycle }: { cycle: CycleFigures }) {
  // A phone keeps all four columns of the topics table in view with smaller type and padding.
  const narrow = useMediaQuery('(max-width: 30em)');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={3} spacing="xs">
        <Figure label="Required" value={cycle.required} />
        <Figure label="Completed" value={cycle.completed} />
        <Figure label="Remaining" value={cycle.remaining} />
      </SimpleGrid>
      <CeHoursBar completed={cycle.completed} required={cycle.required} remaining={cycle.remaining} complete={cycle.complete} />
      {cycle.topics.length > 0 && (
        <Section title="Required topics">
          <Table.ScrollContainer minWidth={280}>
            <Table striped withTableBorder fz={narrow ? 'xs' : 'sm'} horizontalSpacing={narrow ? 6 : 'xs'} aria-label="Required topics">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Topic</Table.Th>
                  <Table.Th ta="right">Required</Table.Th>
                  <Table.Th ta="right">Completed</Table.Th>
                  <Table.Th ta="right">Remaining</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {cycle.topics.map((t) => (
                  <Table.Tr key={t.topic}>
                    <Table.Td>{t.topic}</Table.Td>
                    <Table.Td ta="right">{formatHours(t.required)}</Table.Td>
                    <Table.Td ta="right">{formatHours(t.completed)}</Table.Td>
                    <Table.Td ta="right" fw={t.remaining > 0 ? 600 : undefined} c={t.remaining > 0 ? undefined : 'dimmed'}>
                      {formatHours(t.remaining)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Section>
      )}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** The completions and adjustments that make up a cycle's hours (two or three columns: they fit a phone). */
export function CycleLedger({ cycle }: { cycle: Pick<TranscriptCurrentCycle, 'completions' | 'adjustments'> }) {
  return (
    <Stack gap="md">
      <Section title={`Completions (${cycle.completions.length})`}>
        {cycle.completions.length === 0 ? (
          <Empty>No approved completions in this cycle.</Empty>
        ) : (
          <Table striped withTableBorder fz="sm" horizontalSpacing="xs" aria-label="Completions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Course</Table.Th>
                <Table.Th>Topic</Table.Th>
                <Table.Th ta="right">Hours</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cycle.completions.map((c) => (
                <Table.Tr key={c.completion_id}>
                  <Table.Td>
                    <Text size="sm">{c.course_name}</Text>
                    <Text size="xs" c="dimmed">
                      {formatDate(c.completion_date)} · {c.provider}
                    </Text>
                    {c.late && (
                      <Text size="xs" c="dimmed">
                        Late completion, applied to this cycle
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {c.topic ?? (
                      <Text span size="sm" c="dimmed">
                        General
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    {c.repeat ? (
                      <Stack gap={0} align="flex-end">
                        <Text span size="sm" td="line-through" c="dimmed" aria-label={`${formatHours(c.hours)}, not counted`}>
                          {formatHours(c.hours)}
                        </Text>
                        <Text span size="xs" c="dimmed">
                          Repeat: not counted
                        </Text>
                      </Stack>
                    ) : (
                      formatHours(c.credited_hours)
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      <Section title={`Adjustments (${cycle.adjustments.length})`}>
        {cycle.adjustments.length === 0 ? (
          <Empty>No adjustments in this cycle.</Empty>
        ) : (
          <Table striped withTableBorder fz="sm" horizontalSpacing="xs" aria-label="Adjustments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Reason</Table.Th>
                <Table.Th ta="right">Hours</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cycle.adjustments.map((a) => (
                <Table.Tr key={a.adjustment_id}>
                  <Table.Td>
                    <Text size="sm">{a.reason}</Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(a.created_at)} · {a.created_by_name ?? 'System'}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {signedHours(a.hours)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
    </Stack>
  );
}

/** Percent of the required hours done, 0 to 100 (nothing required counts as done). */
function percentDone(completed: number, required: number): number {
  if (required <= 0) return 100;
  return Math.min(100, Math.max(0, (completed / required) * 100));
}
