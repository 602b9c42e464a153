import { useState } from 'react';
import { ActionIcon, Button, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconPlus, IconX } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { COMPLETION_STATUSES, COMPLETION_STRINGS, type Completion, type CompletionStatus } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useUrlState } from '../../lib/use-url-state.ts';
import { QueryError } from '../../components/query-error.tsx';
import { CompletionStatusBadge } from './course-badges.tsx';
import { formatDate } from '../../lib/format.ts';
import { CompletionFormModal } from './completion-form-modal.tsx';
import { ReviewModal } from './review-modal.tsx';

/** The Completions tab: the caller's completions (server-scoped), recording, and review for Schools and Admins. */
export function CompletionsTab() {
  const { user, hasRole } = useAuth();
  const [filters, setFilters] = useUrlState({ completion_status: '' });
  const list = trpc.completions.list.useQuery({ status: (filters.completion_status || undefined) as CompletionStatus | undefined });
  const [recording, setRecording] = useState(false);
  const [review, setReview] = useState<{ completion: Completion; status: CompletionStatus } | null>(null);

  const canRecord = hasRole('Admin', 'Broker', 'Agent');
  const canReview = (c: Completion) => hasRole('Admin') || (hasRole('School') && c.course_school_id === user?.user_id);
  const reviewer = hasRole('Admin', 'School');

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="All statuses"
          data={[...COMPLETION_STATUSES]}
          value={filters.completion_status || null}
          onChange={(v) => setFilters({ completion_status: v ?? '' })}
          clearable
          w={180}
        />
        {canRecord && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setRecording(true)}>
            {COMPLETION_STRINGS.record}
          </Button>
        )}
      </Group>

      {list.isError ? (
        <QueryError things="completions" query={list} />
      ) : (
        <DataTable<Completion>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={list.data?.length ? undefined : 180}
          fetching={list.isLoading}
          records={list.data ?? []}
          idAccessor="completion_id"
          noRecordsText={COMPLETION_STRINGS.empty}
          columns={[
            { accessor: 'name', title: 'Name', noWrap: true, render: (c) => `${c.first_name} ${c.last_name}` },
            { accessor: 'course_name', title: 'Course' },
            {
              accessor: 'license_number',
              title: 'License',
              render: (c) => (c.license_number ? `${c.license_number} (${c.license_state})` : '-'),
            },
            { accessor: 'completion_date', title: 'Completed', render: (c) => formatDate(c.completion_date) },
            { accessor: 'hours', title: 'Hours', textAlign: 'right' },
            { accessor: 'rating', title: 'Rating', noWrap: true, render: (c) => (c.rating ? '★'.repeat(c.rating) : '-') },
            { accessor: 'status', title: 'Status', width: 120, render: (c) => <CompletionStatusBadge status={c.status} /> },
            {
              accessor: 'note',
              title: 'Note',
              render: (c) => (
                <Text size="sm" lineClamp={2} maw={240}>
                  {c.note || '-'}
                </Text>
              ),
            },
            {
              accessor: 'actions',
              title: 'Actions',
              hidden: !reviewer,
              render: (c) =>
                canReview(c) ? (
                  <Group gap={6} wrap="nowrap">
                    {c.status !== 'Approved' && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="green"
                        leftSection={<IconCheck size={14} />}
                        onClick={() => setReview({ completion: c, status: 'Approved' })}
                      >
                        {COMPLETION_STRINGS.approve}
                      </Button>
                    )}
                    {c.status !== 'Rejected' && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="red"
                        leftSection={<IconX size={14} />}
                        onClick={() => setReview({ completion: c, status: 'Rejected' })}
                      >
                        {COMPLETION_STRINGS.reject}
                      </Button>
                    )}
                    {c.status !== 'Pending' && (
                      <Tooltip label={COMPLETION_STRINGS.reset}>
                        <ActionIcon
                          size="sm"
                          variant="subtle"
                          color="gray"
                          aria-label={COMPLETION_STRINGS.reset}
                          onClick={() => setReview({ completion: c, status: 'Pending' })}
                        >
                          <IconArrowBackUp size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                ) : null,
            },
          ]}
        />
      )}

      {canRecord && <CompletionFormModal opened={recording} onClose={() => setRecording(false)} />}
      <ReviewModal target={review} onClose={() => setReview(null)} />
    </Stack>
  );
}
