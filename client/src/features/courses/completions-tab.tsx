import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconFileImport, IconPlus, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  COMPLETION_SORT_COLUMNS,
  COMPLETION_STATUSES,
  COMPLETION_STRINGS,
  type Completion,
  type CompletionSortColumn,
  type CompletionStatus,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { ListTable } from '../../components/list-table.tsx';
import { ListToolbar } from '../../components/list-toolbar.tsx';
import { RowActionsMenu } from '../../components/row-actions.tsx';
import { CompletionStatusBadge } from './course-badges.tsx';
import { formatDate, formatHours } from '../../lib/format.ts';
import { CompletionFormModal } from './completion-form-modal.tsx';
import { ReviewModal, type ReviewTarget } from './review-modal.tsx';
import { CompletionDrawer } from './completion-drawer.tsx';
import { useCompletionsPage } from './api.ts';

/** A sort key from the URL, or the default when it is not one of the list's (e.g. left by the other tab). */
export const completionSortKey = (key: string): CompletionSortColumn =>
  (COMPLETION_SORT_COLUMNS as readonly string[]).includes(key) ? (key as CompletionSortColumn) : 'created_at';

/** The Completions tab: the caller's completions (server-scoped), recording, and review for Schools and Admins. */
export function CompletionsTab() {
  const { can } = useAuth();
  const list = useListState({ sort: 'created_at', order: 'desc', filters: { completion_status: '', completed_from: '', search: '' } });
  const f = list.filters;

  /** The list's filters and sort as completions.page and the CSV export take them. */
  const view = {
    sort: completionSortKey(list.sort),
    order: list.order,
    status: (f.completion_status || undefined) as CompletionStatus | undefined,
    // Completed on or after (the School dashboard's "Completions This Month" opens the list with it).
    completed_from: f.completed_from || undefined,
    search: f.search || undefined,
  };
  const query = useCompletionsPage({ ...view, page: list.page, limit: list.limit });
  const [recording, setRecording] = useState(false);
  const [review, setReview] = useState<ReviewTarget | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  // The open completion as the list now has it (a review shows at once), else as it was opened or reviewed.
  const [opened, setOpened] = useState<Completion | null>(null);
  const detail = query.data?.completions.find((c) => c.completion_id === openId) ?? opened;

  // A School records completions of its own courses (approved at once); the form offers only those.
  const canRecord = can('completions.create');
  // The policy's rule of completions.review: an Admin any completion, a School those of its own courses.
  const canReview = (c: Completion) => can('completions.review', c);
  const reviewer = can('completions.review');
  const name = (c: Completion) => `${c.first_name} ${c.last_name}`;

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Name, course or license number', w: 260 },
          { name: 'completion_status', label: 'Status', placeholder: 'All statuses', data: [...COMPLETION_STATUSES], w: 180 },
          { type: 'date', name: 'completed_from', label: 'Completed from', w: 170 },
        ]}
        exportCsv={{ path: '/api/completions/export', params: view, things: 'completions' }}
        actions={
          <>
            {/* The completions import (docs/product.md "Imports"): its page holds the import history too. */}
            {can('imports.completions') && (
              <Button component={Link} to="/imports?kind=completions" variant="default" leftSection={<IconFileImport size={16} />}>
                Import
              </Button>
            )}
            {canRecord && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setRecording(true)}>
                {COMPLETION_STRINGS.record}
              </Button>
            )}
          </>
        }
      />

      <ListTable<Completion>
        things="completions"
        query={query}
        records={query.data?.completions}
        total={query.data?.pagination.total ?? 0}
        idAccessor="completion_id"
        list={list}
        emptyText={COMPLETION_STRINGS.empty}
        onOpen={(c) => {
          setOpenId(c.completion_id);
          setOpened(c);
        }}
        actions={
          reviewer
            ? (c) => (
                <RowActionsMenu
                  label={`Actions for ${name(c)}: ${c.course_name}`}
                  actions={
                    canReview(c)
                      ? [
                          c.status !== 'Approved' && {
                            label: COMPLETION_STRINGS.approve,
                            icon: IconCheck,
                            color: 'green',
                            onClick: () => setReview({ completion: c, status: 'Approved' }),
                          },
                          c.status !== 'Rejected' && {
                            label: COMPLETION_STRINGS.reject,
                            icon: IconX,
                            color: 'red',
                            onClick: () => setReview({ completion: c, status: 'Rejected' }),
                          },
                          c.status !== 'Pending' && {
                            label: COMPLETION_STRINGS.reset,
                            icon: IconArrowBackUp,
                            onClick: () => setReview({ completion: c, status: 'Pending' }),
                          },
                        ]
                      : []
                  }
                />
              )
            : undefined
        }
        columns={[
          { accessor: 'name', title: 'Name', sortable: true, noWrap: true, render: name },
          { accessor: 'course_name', title: 'Course', sortable: true, card: 'wide' },
          {
            accessor: 'license_number',
            title: 'License',
            sortable: true,
            render: (c) => (c.license_number ? `${c.license_number} (${c.license_state})` : '-'),
          },
          { accessor: 'completion_date', title: 'Completed', sortable: true, noWrap: true, render: (c) => formatDate(c.completion_date) },
          { accessor: 'hours', title: 'Hours', sortable: true, textAlign: 'right', render: (c) => formatHours(c.hours) },
          {
            accessor: 'rating',
            title: 'Rating',
            sortable: true,
            noWrap: true,
            card: 'hidden',
            render: (c) => (c.rating ? '★'.repeat(c.rating) : '-'),
          },
          { accessor: 'status', title: 'Status', sortable: true, width: 120, render: (c) => <CompletionStatusBadge status={c.status} /> },
          {
            accessor: 'note',
            title: 'Note',
            sortable: true,
            card: 'wide',
            render: (c) => (
              <Text size="sm" lineClamp={2} maw={240}>
                {c.note || '-'}
              </Text>
            ),
          },
        ]}
      />

      {canRecord && <CompletionFormModal opened={recording} onClose={() => setRecording(false)} />}
      <CompletionDrawer
        completion={openId === null ? null : detail}
        onClose={() => setOpenId(null)}
        onReview={detail && canReview(detail) ? setReview : undefined}
      />
      <ReviewModal
        target={review}
        onClose={() => setReview(null)}
        onReviewed={(c) => {
          if (c.completion_id === openId) setOpened(c);
        }}
      />
    </Stack>
  );
}
