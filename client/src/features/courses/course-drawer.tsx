import { Button, Divider, Drawer, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconEdit } from '@tabler/icons-react';
import type { Course } from '@lm/shared';
import { formatCount, formatDate, formatHours, formatMoney } from '../../lib/format.ts';
import { QueryError } from '../../components/query-error.tsx';
import { ActiveBadge, CompletionStatusBadge, CourseTypeBadge } from './course-badges.tsx';
import { DetailFields } from './detail-fields.tsx';
import { RECENT_COMPLETIONS, useRecentCompletions } from './api.ts';

/**
 * A course's detail, opened from its row: its fields, its School, how many completions it has and the most
 * recent ones the caller may see (a School sees its own courses', an Agent its own). Edit when the caller
 * manages the course.
 */
export function CourseDrawer({ course, onClose, onEdit }: { course: Course | null; onClose: () => void; onEdit?: (c: Course) => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const recent = useRecentCompletions(course?.course_id ?? null);
  return (
    <Drawer
      opened={course !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'lg'}
      title={
        <Title order={3} component="span">
          {course?.course_name}
        </Title>
      }
    >
      {course && (
        <Stack>
          <Text size="sm">{course.description}</Text>
          <DetailFields
            fields={[
              ['Provider', course.provider],
              ['School', course.school_name ?? 'None (an Admin course)'],
              ['Type', <CourseTypeBadge key="type" type={course.course_type} />],
              ['Status', <ActiveBadge key="status" active={course.is_active} />],
              ['CE Hours', formatHours(course.ce_hours)],
              ['CE Topic', course.topic ?? 'General'],
              [
                'Approval',
                course.approval_number ? `${course.approval_number}${course.approval_state ? ` (${course.approval_state})` : ''}` : 'None',
              ],
              ['Cost', formatMoney(course.cost)],
              ['Completions', formatCount(course.completion_count)],
              ['Created', formatDate(course.created_at)],
              ['Updated', formatDate(course.updated_at)],
            ]}
          />
          {onEdit && (
            <Group>
              <Button variant="light" leftSection={<IconEdit size={16} />} onClick={() => onEdit(course)}>
                Edit
              </Button>
            </Group>
          )}
          <Divider />
          <Title order={3} size="h4">
            Recent completions
          </Title>
          {recent.isError ? (
            <QueryError things="completions" query={recent} />
          ) : recent.isLoading ? (
            <Skeleton h={80} />
          ) : !recent.data?.completions.length ? (
            <Text size="sm" c="dimmed">
              No completions you can see
            </Text>
          ) : (
            <>
              <Table.ScrollContainer minWidth={320}>
                <Table striped fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>Completed</Table.Th>
                      <Table.Th ta="right">Hours</Table.Th>
                      <Table.Th>Status</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {recent.data.completions.map((c) => (
                      <Table.Tr key={c.completion_id}>
                        <Table.Td>
                          {c.first_name} {c.last_name}
                        </Table.Td>
                        <Table.Td>{formatDate(c.completion_date)}</Table.Td>
                        <Table.Td ta="right">{formatHours(c.hours)}</Table.Td>
                        <Table.Td>
                          <CompletionStatusBadge status={c.status} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {recent.data.pagination.total > RECENT_COMPLETIONS && (
                <Text size="xs" c="dimmed">
                  The {RECENT_COMPLETIONS} most recent of {formatCount(recent.data.pagination.total)} you can see
                </Text>
              )}
            </>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
