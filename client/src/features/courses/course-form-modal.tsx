import { useEffect } from 'react';
import { Button, Group, Modal, NumberInput, Select, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CE_TOPICS, COURSE_MESSAGES, COURSE_STRINGS, COURSE_TYPES, type CeTopic, type Course, type CourseType } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';

interface Values {
  course_name: string;
  description: string;
  provider: string;
  ce_hours: number | string;
  course_type: CourseType;
  cost: number | string;
  is_active: boolean;
  topic: CeTopic | null;
}

/** docs/product.md section 9: Online, cost 0, active, ce_hours 0. */
const DEFAULTS: Values = {
  course_name: '',
  description: '',
  provider: '',
  ce_hours: 0,
  course_type: 'Online',
  cost: 0,
  is_active: true,
  topic: null,
};

function valuesOf(course: Course | null, defaultProvider: string): Values {
  if (!course) return { ...DEFAULTS, provider: defaultProvider };
  const { course_name, description, provider, ce_hours, course_type, cost, is_active, topic } = course;
  return { course_name, description, provider, ce_hours, course_type, cost, is_active, topic };
}

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
  const utils = trpc.useUtils();
  const form = useForm<Values>({
    initialValues: valuesOf(course, defaultProvider),
    validate: {
      course_name: (v) => (v.trim() ? null : COURSE_MESSAGES.nameRequired),
      description: (v) => (v.trim() ? null : COURSE_MESSAGES.descriptionRequired),
      provider: (v) => (v.trim() ? null : COURSE_MESSAGES.providerRequired),
      ce_hours: (v) => (typeof v === 'number' && v > 0 ? null : COURSE_MESSAGES.ceHoursPositive),
      cost: (v) => (v === '' || (typeof v === 'number' && v >= 0) ? null : COURSE_MESSAGES.costNegative),
    },
  });

  // Each opening starts from the selected course (edit) or the defaults (create).
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(course, defaultProvider);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, course]);

  const done = (message: string) => {
    notify.success(message);
    void utils.courses.list.invalidate();
    onClose();
  };
  const create = trpc.courses.create.useMutation({ onSuccess: () => done(COURSE_STRINGS.created) });
  const update = trpc.courses.update.useMutation({ onSuccess: () => done(COURSE_STRINGS.updated) });
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((v) => {
    const body = {
      course_name: v.course_name,
      description: v.description,
      provider: v.provider,
      ce_hours: Number(v.ce_hours),
      course_type: v.course_type,
      cost: v.cost === '' ? 0 : Number(v.cost),
      is_active: v.is_active,
      topic: v.topic,
    };
    const onError = (err: unknown) => {
      form.setErrors(fieldErrors(err));
      notify.failure(err, course ? COURSE_STRINGS.updateFailed : COURSE_STRINGS.createFailed);
    };
    if (course) update.mutate({ id: course.course_id, ...body }, { onError });
    else create.mutate(body, { onError });
  });

  return (
    <Modal opened={opened} onClose={onClose} title={course ? COURSE_STRINGS.modalEdit : COURSE_STRINGS.modalAdd} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Course Name" required {...form.getInputProps('course_name')} />
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
    </Modal>
  );
}
