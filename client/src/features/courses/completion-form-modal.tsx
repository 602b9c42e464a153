import { useEffect, useMemo } from 'react';
import { Button, Group, Input, Modal, NumberInput, Rating, Select, Stack } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { COMPLETION_MESSAGES, COMPLETION_STRINGS, localDateString } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { useAuth } from '../../lib/auth.tsx';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';
import { formatHours } from '../../lib/format.ts';

interface Values {
  user_id: string | null;
  course_id: string | null;
  license_id: string | null;
  completion_date: string | null;
  hours: number | string;
  rating: number;
}

const PERSON_REQUIRED = 'Person is required';

/**
 * Record a completion: an Agent for itself; a Broker for itself or one of its agents; an Admin for any
 * license holder. The license choices come from completions.myLicenses (the caller's scope).
 */
export function CompletionFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { user, hasRole } = useAuth();
  const utils = trpc.useUtils();
  const choosesPerson = hasRole('Admin', 'Broker');
  const courses = trpc.courses.list.useQuery({ is_active: 'true' }, { enabled: opened });
  const licenses = trpc.completions.myLicenses.useQuery(undefined, { enabled: opened });

  const initial = (): Values => ({
    user_id: hasRole('Admin') ? null : String(user?.user_id ?? ''),
    course_id: null,
    license_id: null,
    completion_date: localDateString(),
    hours: '',
    rating: 0,
  });
  const form = useForm<Values>({
    initialValues: initial(),
    validate: {
      user_id: (v) => (v ? null : PERSON_REQUIRED),
      course_id: (v) => (v ? null : COMPLETION_MESSAGES.courseRequired),
      completion_date: (v) => (v ? null : COMPLETION_MESSAGES.dateRequired),
      hours: (v) => (v === '' || (typeof v === 'number' && v > 0) ? null : COMPLETION_MESSAGES.hoursPositive),
    },
  });

  useEffect(() => {
    if (!opened) return;
    form.setValues(initial());
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const people = useMemo(() => {
    const seen = new Map<string, string>();
    if (user && hasRole('Broker')) seen.set(String(user.user_id), `${user.first_name} ${user.last_name}`);
    for (const l of licenses.data ?? []) seen.set(String(l.user_id), `${l.first_name} ${l.last_name}`);
    return [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [licenses.data, user, hasRole]);

  const licenseChoices = (licenses.data ?? [])
    .filter((l) => String(l.user_id) === form.values.user_id)
    .map((l) => ({
      value: String(l.license_id),
      label: `${l.license_number} (${l.state}) - ${formatHours(l.ce_hours_completed)} of ${formatHours(l.ce_hours_required)} CE hours`,
    }));
  const selectedCourse = courses.data?.find((c) => String(c.course_id) === form.values.course_id);

  const record = trpc.completions.create.useMutation({
    onSuccess: () => {
      notify.success(COMPLETION_STRINGS.recorded);
      void utils.completions.list.invalidate();
      void utils.completions.myLicenses.invalidate();
      onClose();
    },
    onError: (err) => {
      form.setErrors(fieldErrors(err));
      notify.failure(err, COMPLETION_STRINGS.recordFailed);
    },
  });

  const submit = form.onSubmit((v) =>
    record.mutate({
      course_id: Number(v.course_id),
      user_id: Number(v.user_id),
      license_id: v.license_id ? Number(v.license_id) : null,
      completion_date: v.completion_date!,
      hours: v.hours === '' ? null : Number(v.hours),
      rating: v.rating || null,
    }),
  );

  return (
    <Modal opened={opened} onClose={onClose} title={COMPLETION_STRINGS.modalTitle} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {choosesPerson && (
            <Select
              label="Person"
              placeholder="Select a license holder"
              required
              searchable
              data={people}
              {...form.getInputProps('user_id')}
              onChange={(v) => {
                form.setFieldValue('user_id', v);
                form.setFieldValue('license_id', null);
              }}
            />
          )}
          <Select
            label="Course"
            placeholder={courses.isLoading ? 'Loading courses...' : 'Select a course'}
            required
            searchable
            data={(courses.data ?? []).map((c) => ({
              value: String(c.course_id),
              label: `${c.course_name} (${formatHours(c.ce_hours)} h)`,
            }))}
            {...form.getInputProps('course_id')}
          />
          <Select
            label="License"
            placeholder={licenseChoices.length ? 'The license the hours count toward' : 'No licenses'}
            description="Approved hours are added to this license's CE hours"
            clearable
            data={licenseChoices}
            {...form.getInputProps('license_id')}
          />
          <Group grow align="flex-start">
            <DateInput
              label="Completion Date"
              required
              valueFormat="YYYY-MM-DD"
              maxDate={localDateString()}
              {...form.getInputProps('completion_date')}
            />
            <NumberInput
              label="Hours"
              min={0}
              step={0.5}
              decimalScale={2}
              placeholder={selectedCourse ? String(selectedCourse.ce_hours) : "The course's CE hours"}
              {...form.getInputProps('hours')}
            />
          </Group>
          <Input.Wrapper label="Rating">
            <Rating {...form.getInputProps('rating')} aria-label="Rating" />
          </Input.Wrapper>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={record.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={record.isPending}>
              {record.isPending ? COMPLETION_STRINGS.saving : COMPLETION_STRINGS.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
