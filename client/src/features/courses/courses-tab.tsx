import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { COURSE_SORT_COLUMNS, COURSE_STRINGS, COURSE_TYPES, type Course, type CourseSortColumn, type CourseType } from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { useListState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { ListTable } from '../../components/list-table.tsx';
import { ACTIVE_OPTIONS, ListToolbar } from '../../components/list-toolbar.tsx';
import { deleteAction, editAction, RowActionsMenu } from '../../components/row-actions.tsx';
import { ActiveBadge, CourseTypeBadge } from './course-badges.tsx';
import { formatCount, formatDate, formatHours, formatMoney } from '../../lib/format.ts';
import { CourseFormModal } from './course-form-modal.tsx';
import { CourseDrawer } from './course-drawer.tsx';
import { useCoursesPage, useDeleteCourse } from './api.ts';

/** A sort key from the URL, or the default when it is not one of the list's (e.g. left by the other tab). */
export const courseSortKey = (key: string): CourseSortColumn =>
  (COURSE_SORT_COLUMNS as readonly string[]).includes(key) ? (key as CourseSortColumn) : 'created_at';

export function CoursesTab() {
  const { user, role, can } = useAuth();
  const list = useListState({ sort: 'created_at', order: 'desc', filters: { search: '', type: '', status: '', school_id: '' } });
  const f = list.filters;

  /** The list's filters and sort as courses.page and the CSV export take them. */
  const view = {
    sort: courseSortKey(list.sort),
    order: list.order,
    search: f.search || undefined,
    course_type: (f.type || undefined) as CourseType | undefined,
    is_active: f.status === 'active' ? ('true' as const) : f.status === 'inactive' ? ('false' as const) : undefined,
    // The owning School (a School's dashboard card "My Courses" opens the list with its own id).
    school_id: /^[1-9]\d*$/.test(f.school_id) ? Number(f.school_id) : undefined,
  };
  const query = useCoursesPage({ ...view, page: list.page, limit: list.limit });
  const [modal, setModal] = useState<{ opened: boolean; course: Course | null }>({ opened: false, course: null });
  const [openId, setOpenId] = useState<number | null>(null);
  // The open course as the list now has it (an edit shows at once), else as it was opened.
  const [opened, setOpened] = useState<Course | null>(null);
  const detail = query.data?.courses.find((c) => c.course_id === openId) ?? opened;
  const remove = useDeleteCourse();

  const canCreate = can('courses.create');
  // The policy's rule (courses.update, .delete): an Admin any course, a School its own.
  const canManage = (c: Course) => can('courses.update', c) && can('courses.delete', c);
  const edit = (c: Course) => setModal({ opened: true, course: c });

  const onDelete = async (c: Course) => {
    if (!(await confirm(COURSE_STRINGS.confirmDelete, { confirmLabel: 'Delete' }))) return;
    remove.mutate({ id: c.course_id });
  };

  return (
    <Stack>
      <ListToolbar
        list={list}
        fields={[
          { type: 'search', name: 'search', label: 'Search', placeholder: 'Name, provider or description', w: 260 },
          { name: 'type', label: 'Type', placeholder: 'All types', data: [...COURSE_TYPES], w: 160 },
          { name: 'status', label: 'Status', placeholder: 'All statuses', data: ACTIVE_OPTIONS, w: 160 },
          role === 'School' &&
            user && {
              name: 'school_id',
              label: 'Owner',
              placeholder: 'All courses',
              data: [{ value: String(user.user_id), label: 'My courses' }],
              w: 160,
            },
        ]}
        exportCsv={{ path: '/api/courses/export', params: view, things: 'courses' }}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, course: null })}>
              {COURSE_STRINGS.add}
            </Button>
          )
        }
      />

      <ListTable<Course>
        things="courses"
        query={query}
        records={query.data?.courses}
        total={query.data?.pagination.total ?? 0}
        idAccessor="course_id"
        list={list}
        emptyText={COURSE_STRINGS.empty}
        onOpen={(c) => {
          setOpenId(c.course_id);
          setOpened(c);
        }}
        actions={
          canCreate
            ? (c) => (
                <RowActionsMenu
                  label={`Actions for ${c.course_name}`}
                  actions={canManage(c) ? [editAction(() => edit(c)), deleteAction(() => void onDelete(c))] : []}
                />
              )
            : undefined
        }
        columns={[
          {
            accessor: 'course_name',
            title: 'Course Name',
            sortable: true,
            card: 'title',
            renderCard: (c) => (
              <Text fw={600} size="sm">
                {c.course_name}
              </Text>
            ),
            render: (c) => (
              <Stack gap={2} maw={380} miw={160}>
                <Text fw={600} size="sm">
                  {c.course_name}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {c.description}
                </Text>
              </Stack>
            ),
          },
          { accessor: 'provider', title: 'Provider', sortable: true },
          { accessor: 'course_type', title: 'Type', sortable: true, render: (c) => <CourseTypeBadge type={c.course_type} /> },
          { accessor: 'ce_hours', title: 'CE Hours', sortable: true, textAlign: 'right', render: (c) => formatHours(c.ce_hours) },
          {
            accessor: 'topic',
            title: 'CE Topic',
            sortable: true,
            render: (c) =>
              c.topic ?? (
                <Text size="sm" c="dimmed">
                  General
                </Text>
              ),
          },
          { accessor: 'cost', title: 'Cost', sortable: true, textAlign: 'right', card: 'hidden', render: (c) => formatMoney(c.cost) },
          { accessor: 'is_active', title: 'Status', sortable: true, render: (c) => <ActiveBadge active={c.is_active} /> },
          {
            accessor: 'completion_count',
            title: 'Completions',
            sortable: true,
            textAlign: 'right',
            card: 'hidden',
            render: (c) => formatCount(c.completion_count),
          },
          {
            accessor: 'created_at',
            title: 'Created',
            sortable: true,
            noWrap: true,
            card: 'hidden',
            render: (c) => formatDate(c.created_at),
          },
        ]}
      />

      <CourseFormModal
        opened={modal.opened}
        course={modal.course}
        defaultProvider={role === 'School' && user ? `${user.first_name} ${user.last_name}` : ''}
        onClose={() => setModal((m) => ({ ...m, opened: false }))}
      />
      <CourseDrawer
        course={openId === null ? null : detail}
        onClose={() => setOpenId(null)}
        onEdit={detail && canManage(detail) ? edit : undefined}
      />
    </Stack>
  );
}
