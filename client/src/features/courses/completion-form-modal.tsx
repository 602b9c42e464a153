import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Input, NumberInput, Rating, Select, Stack, Text } from '@mantine/core';
import { FormModal } from '../../components/form-modal.tsx';
import { DateField } from '../../components/date-field.tsx';
import { ServerSearchSelect, type PickerAsk } from '../../components/server-search-select.tsx';
import {
  COMPLETION_STRINGS,
  completionCreateInput,
  completionForPersonInput,
  holderLabel,
  type CompletionPerson,
  type Course,
  type LicenseHolder,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { courseOptionLabel, formatHours, officeToday } from '../../lib/format.ts';
import { useActiveCoursePicker, useCompletionHolderPicker, useCompletionLicenseOptions, useRecordCompletion } from './api.ts';
import { PersonSearchSelect } from './person-search-select.tsx';

interface Values extends Record<string, unknown> {
  user_id: string | null;
  course_id: string | null;
  license_id: string | null;
  completion_date: string | null;
  hours: number | string;
  rating: number;
}

const id = (v: string | null) => (v ? Number(v) : undefined);

/** The form's values as the shared schema reads them: Selects hold ids as strings; no rating is 0. */
export function completionFormInput(v: Values) {
  return {
    user_id: id(v.user_id),
    course_id: id(v.course_id),
    license_id: id(v.license_id) ?? null,
    completion_date: v.completion_date ?? undefined,
    hours: v.hours === '' ? null : Number(v.hours),
    rating: v.rating || null,
  };
}

const holderOption = (h: LicenseHolder) => ({ value: String(h.user_id), label: holderLabel(h) });
const courseOption = (c: Course) => ({ value: String(c.course_id), label: courseOptionLabel(c) });

/**
 * Record a completion: an Agent for itself; a Broker for itself or one of its agents; an Admin for any
 * license holder. The license choices come from completions.myLicenses (the caller's scope). A School
 * records for its own courses only, for any Agent or Broker it finds by name or license number
 * (completions.people, which also brings the person's licenses); what it records is approved at once.
 */
export function CompletionFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { user, role, can } = useAuth();
  const school = role === 'School';
  // Whoever may record for someone else names the person (the policy's completions.createForOthers).
  const choosesPerson = can('completions.createForOthers');
  // A School records completions of its own courses only.
  const schoolId = school ? user?.user_id : undefined;
  const useCourseResults = useMemo(
    () =>
      function useCourseResults(ask: PickerAsk, enabled: boolean) {
        return useActiveCoursePicker(ask, enabled, schoolId);
      },
    [schoolId],
  );
  // The chosen course (from the picker's matches): its CE hours are the Hours field's placeholder.
  const [selectedCourse, setSelectedCourse] = useState<Course | null>(null);
  // The School's chosen person, with their licenses (completions.people).
  const [person, setPerson] = useState<CompletionPerson | null>(null);

  const initial = (): Values => ({
    // Admins and Schools hold no licenses: no one is chosen for them; an Agent or a Broker starts with itself.
    user_id: role === 'Admin' || role === 'School' ? null : String(user?.user_id ?? ''),
    course_id: null,
    license_id: null,
    completion_date: officeToday(),
    hours: '',
    rating: 0,
  });
  // Whoever names the person must name one; an Agent records for itself.
  const form = useSchemaForm({
    schema: choosesPerson ? completionForPersonInput : completionCreateInput,
    initialValues: initial(),
    toInput: completionFormInput,
  });

  useEffect(() => {
    if (!opened) return;
    const v = initial();
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    setPerson(null);
    setSelectedCourse(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  // The chosen person's licenses (an Agent's own; an Admin's or a Broker's chosen holder's).
  const licenses = useCompletionLicenseOptions(form.values.user_id ? Number(form.values.user_id) : null, opened && !school);

  const licenseChoices = school
    ? (person?.licenses ?? []).map((l) => ({ value: String(l.license_id), label: `${l.license_number} (${l.state}) - ${l.status}` }))
    : (licenses.data ?? [])
        .filter((l) => String(l.user_id) === form.values.user_id)
        .map((l) => ({
          value: String(l.license_id),
          label: `${l.license_number} (${l.state}) - ${formatHours(l.ce_hours_completed)} of ${formatHours(l.ce_hours_required)} CE hours`,
        }));

  const record = useRecordCompletion();
  const submit = form.onSubmit((body) => record.mutate(body, { onSuccess: onClose, onError: (err) => showServerErrors(form, err) }));

  return (
    <FormModal dirty={form.isDirty()} opened={opened} onClose={onClose} title={COMPLETION_STRINGS.modalTitle} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {school && (
            <Text size="sm" c="dimmed">
              {COMPLETION_STRINGS.providerNote}
            </Text>
          )}
          {school && (
            <PersonSearchSelect
              person={person}
              error={form.errors.user_id}
              onChange={(p) => {
                setPerson(p);
                form.setFieldValue('user_id', p ? String(p.user_id) : null);
                form.setFieldValue('license_id', null);
              }}
            />
          )}
          {choosesPerson && !school && (
            <ServerSearchSelect<LicenseHolder>
              label={COMPLETION_STRINGS.person}
              placeholder="Select a license holder"
              required
              emptyMessage="No Agents or Brokers found"
              useResults={useCompletionHolderPicker}
              toOption={holderOption}
              value={form.values.user_id}
              onChange={(v) => {
                form.setFieldValue('user_id', v);
                form.setFieldValue('license_id', null);
              }}
              error={form.errors.user_id}
            />
          )}
          <ServerSearchSelect<Course>
            label="Course"
            placeholder="Select a course"
            required
            emptyMessage="No courses found"
            useResults={useCourseResults}
            toOption={courseOption}
            value={form.values.course_id}
            onChange={(v, c) => {
              form.setFieldValue('course_id', v);
              setSelectedCourse(c);
            }}
            error={form.errors.course_id}
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
            <DateField label="Completion Date" required maxDate={officeToday()} {...form.getInputProps('completion_date')} />
            <NumberInput
              label="Hours"
              min={0}
              step={0.5}
              decimalScale={2}
              placeholder={selectedCourse ? String(selectedCourse.ce_hours) : "The course's CE hours"}
              {...form.getInputProps('hours')}
            />
          </Group>
          {/* The attendee's rating of the course: not the provider's to give. */}
          {!school && (
            <Input.Wrapper label="Rating">
              <Rating {...form.getInputProps('rating')} aria-label="Rating" />
            </Input.Wrapper>
          )}
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
    </FormModal>
  );
}
