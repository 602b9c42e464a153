import { useEffect } from 'react';
import { Button, Group, NumberInput, Select, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { FormModal } from '../../components/form-modal.tsx';
import {
  CE_TOPICS,
  COURSE_DEFAULTS,
  COURSE_STRINGS,
  COURSE_TYPES,
  courseCreateInput,
  type CeTopic,
  type Course,
  type CourseType,
} from '@lm/shared';
import { blankToUndefined, showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useCreateCourse, useUpdateCourse } from './api.ts';

interface Values extends Record<string, unknown> {
  course_name: string;
  description: string;
  provider: string;
  ce_hours: number | string;
  course_type: CourseType;
  cost: number | string;
  is_active: boolean;
  topic: CeTopic | null;
  approval_number: string;
  approval_state: string;
}

/** docs/product.md section 9: the shared defaults (Online, cost 0, active), CE hours shown as 0. */
const EMPTY: Values = {
  course_name: '',
  description: '',
  provider: '',
  ce_hours: 0,
  ...COURSE_DEFAULTS,
  topic: null,
  approval_number: '',
  approval_state: '',
};

function valuesOf(course: Course | null, defaultProvider: string): Values {
  if (!course) return { ...EMPTY, provider: defaultProvider };
  const { course_name, description, provider, ce_hours, course_type, cost, is_active, topic } = course;
  return {
    course_name,
    description,
    provider,
    ce_hours,
    course_type,
    cost,
    is_active,
    topic,
    approval_number: course.approval_number ?? '',
    approval_state: course.approval_state ?? '',
  };
}

/**
 * Empty fields are absent (an emptied cost takes the default), but a cleared topic is sent as null (general hours)
 * and a cleared approval as "" (none), so an edit can remove them.
 */
export const courseFormInput = (v: Values) => ({
  ...blankToUndefined(v),
  topic: v.topic,
  approval_number: v.approval_number,
  approval_state: v.approval_state,
});

/** Add or edit a course: 'Add New Course' / 'Edit Course', submit 'Create Course' / 'Update Course'. */
export function CourseFormModal({
  opened,
  course,
  defaultProvider,
  onClose,
}: {
  opened: boolean;
  course: Course | null;
  defaultProvider: string;
  onClose: () => void;
}) {
  const form = useSchemaForm({ schema: courseCreateInput, initialValues: valuesOf(course, defaultProvider), toInput: courseFormInput });

  // Each opening starts from the selected course (edit) or the defaults (create).
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(course, defaultProvider);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, course]);

  const create = useCreateCourse();
  const update = useUpdateCourse();
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((body) => {
    const callbacks = { onSuccess: onClose, onError: (err: unknown) => showServerErrors(form, err) };
    if (course) update.mutate({ id: course.course_id, ...body }, callbacks);
    else create.mutate(body, callbacks);
  });

  return (
    <FormModal
      dirty={form.isDirty()}
      opened={opened}
      onClose={onClose}
      title={course ? COURSE_STRINGS.modalEdit : COURSE_STRINGS.modalAdd}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Course Name" required data-autofocus {...form.getInputProps('course_name')} />
          <Textarea label="Description" required autosize minRows={3} maxRows={8} {...form.getInputProps('description')} />
          <TextInput label="Provider" required {...form.getInputProps('provider')} />
          <Group grow align="flex-start">
            <Select label="Course Type" data={[...COURSE_TYPES]} allowDeselect={false} {...form.getInputProps('course_type')} />
            <NumberInput label="CE Hours" required min={0} step={0.5} decimalScale={2} {...form.getInputProps('ce_hours')} />
            <NumberInput label="Cost" min={0} step={0.01} decimalScale={2} fixedDecimalScale prefix="$" {...form.getInputProps('cost')} />
          </Group>
          <Select
            label="CE Topic"
            description="The state-required topic this course counts toward; leave empty for general hours."
            placeholder="General hours (no topic)"
            data={[...CE_TOPICS]}
            searchable
            clearable
            {...form.getInputProps('topic')}
          />
          <Group grow align="flex-start">
            <TextInput
              label="Approval number"
              description="The state's course approval number, as printed on certificates"
              maxLength={50}
              {...form.getInputProps('approval_number')}
            />
            <TextInput
              label="Approval state"
              description="Two-letter code, e.g. TX"
              maxLength={2}
              {...form.getInputProps('approval_state')}
            />
          </Group>
          <Switch label="Active" {...form.getInputProps('is_active', { type: 'checkbox' })} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? COURSE_STRINGS.saving : course ? COURSE_STRINGS.submitUpdate : COURSE_STRINGS.submitCreate}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
