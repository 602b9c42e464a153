import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { COURSE_STRINGS, COURSE_TYPES, type Course, type CourseType } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { confirm } from '../../components/confirm.ts';
import { QueryError } from '../../components/query-error.tsx';
import { ActiveBadge, CourseTypeBadge } from './course-badges.tsx';
import { formatDate, formatHours, formatMoney } from '../../lib/format.ts';
import { CourseFormModal } from './course-form-modal.tsx';

export function CoursesTab() {
  const { user, hasRole } = useAuth();
  const utils = trpc.useUtils();
  const [filters, setFilters] = useUrlState({ search: '', type: '', status: '' });
  const [search] = useDebouncedValue(filters.search.trim(), 250);
  const courses = trpc.courses.list.useQuery({
    search: search || undefined,
    course_type: (filters.type || undefined) as CourseType | undefined,
    is_active: filters.status === 'active' ? 'true' : filters.status === 'inactive' ? 'false' : undefined,
  });
  const [modal, setModal] = useState<{ opened: boolean; course: Course | null }>({ opened: false, course: null });
  const remove = trpc.courses.delete.useMutation();

  const canCreate = hasRole('Admin', 'School');
  const canManage = (c: Course) => hasRole('Admin') || (hasRole('School') && c.school_id === user?.user_id);

  const onDelete = async (c: Course) => {
    if (!(await confirm(COURSE_STRINGS.confirmDelete, { confirmLabel: 'Delete' }))) return;
    remove.mutate(
      { id: c.course_id },
      {
        onSuccess: () => {
          notify.success(COURSE_STRINGS.deleted);
          void utils.courses.list.invalidate();
        },
        onError: (err) => notify.failure(err, COURSE_STRINGS.deleteFailed),
      },
    );
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Name, provider or description"
            leftSection={<IconSearch size={16} />}
            value={filters.search}
            onChange={(e) => setFilters({ search: e.currentTarget.value })}
            w={260}
          />
          <Select
            label="Type"
            placeholder="All types"
            data={[...COURSE_TYPES]}
            value={filters.type || null}
            onChange={(v) => setFilters({ type: v ?? '' })}
            clearable
            w={160}
          />
          <Select
            label="Status"
            placeholder="All statuses"
            data={[
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
            value={filters.status || null}
            onChange={(v) => setFilters({ status: v ?? '' })}
            clearable
            w={160}
          />
        </Group>
        {canCreate && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ opened: true, course: null })}>
            {COURSE_STRINGS.add}
          </Button>
        )}
      </Group>

      {courses.isError ? (
        <QueryError things="courses" query={courses} />
      ) : (
        <DataTable<Course>
          withTableBorder
          borderRadius="md"
          striped
          highlightOnHover
          minHeight={courses.data?.length ? undefined : 180}
          fetching={courses.isLoading}
          records={courses.data ?? []}
          idAccessor="course_id"
          noRecordsText={COURSE_STRINGS.empty}
          columns={[
            {
              accessor: 'course_name',
              title: 'Course Name',
              render: (c) => (
                <Stack gap={2} maw={380}>
                  <Text fw={600} size="sm">
                    {c.course_name}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {c.description}
                  </Text>
                </Stack>
              ),
            },
            { accessor: 'provider', title: 'Provider' },
            { accessor: 'course_type', title: 'Type', render: (c) => <CourseTypeBadge type={c.course_type} /> },
            { accessor: 'ce_hours', title: 'CE Hours', textAlign: 'right', render: (c) => formatHours(c.ce_hours) },
            {
              accessor: 'topic',
              title: 'CE Topic',
              render: (c) =>
                c.topic ?? (
                  <Text size="sm" c="dimmed">
                    General
                  </Text>
                ),
            },
            { accessor: 'cost', title: 'Cost', textAlign: 'right', render: (c) => formatMoney(c.cost) },
            { accessor: 'is_active', title: 'Status', render: (c) => <ActiveBadge active={c.is_active} /> },
            { accessor: 'created_at', title: 'Created', render: (c) => formatDate(c.created_at) },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'center',
              hidden: !canCreate,
              render: (c) =>
                canManage(c) ? (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${c.course_name}`}>
                        <IconDots size={18} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => setModal({ opened: true, course: c })}>
                        Edit
                      </Menu.Item>
                      <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete(c)}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                ) : null,
            },
          ]}
        />
      )}

      <CourseFormModal
        opened={modal.opened}
        course={modal.course}
        defaultProvider={hasRole('School') && user ? `${user.first_name} ${user.last_name}` : ''}
        onClose={() => setModal((m) => ({ ...m, opened: false }))}
      />
    </Stack>
  );
}
