import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Group, Loader, NumberInput, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import {
  certificateCompletionInput,
  certificateCompletionsInput,
  EXTRACTION_STRINGS,
  fieldCheckColor,
  type CertificateCourse,
  type CertificateExtraction,
  type CertificateField,
  type CertificateFields,
  type CompletionSuggestion,
  type Course,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { courseOptionLabel, formatDate, formatHours, officeToday } from '../../lib/format.ts';
import { schemaErrors, showServerErrors, useSchemaForm, type SchemaForm } from '../../lib/schema-form.ts';
import { QueryError } from '../../components/query-error.tsx';
import { DateField } from '../../components/date-field.tsx';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import {
  useCertificateCoursePicker,
  useCertificateLicenses,
  useDocumentExtraction,
  useRecordAllFromCertificate,
  useRecordFromCertificate,
} from './api-extraction.ts';

const LABELS: Record<keyof CertificateFields, string> = {
  course_name: 'Course',
  provider: 'Provider',
  hours: 'Hours',
  completion_date: 'Completion date',
  holder_name: 'Name',
  license_number: 'License number',
  state: 'State',
  approval_number: 'Approval number',
};

function readable(key: keyof CertificateFields, value: string | number | null): string {
  if (value === null) return EXTRACTION_STRINGS.notFound;
  if (key === 'hours') return formatHours(Number(value));
  if (key === 'completion_date') return formatDate(String(value));
  return String(value);
}

/**
 * Whether a value can be trusted, in words and colour (docs/ocr.md "Judge"): green only when a second source
 * confirms it, amber "Check this", grey when nothing was found. The reading's confidence colours nothing.
 */
function CheckBadge({ field }: { field: CertificateField }) {
  const label =
    field.check === 'confirmed'
      ? EXTRACTION_STRINGS.confirmed
      : field.check === 'check'
        ? EXTRACTION_STRINGS.checkThis
        : EXTRACTION_STRINGS.notFound;
  return (
    <Badge color={fieldCheckColor(field.check)} variant="filled" style={{ flexShrink: 0, overflow: 'visible' }}>
      {label}
    </Badge>
  );
}

/** "Check this: <why>" in amber under a form input whose value the second source did not confirm. */
function checkNote(field: CertificateField | undefined): ReactNode {
  if (!field || field.check !== 'check') return undefined;
  return (
    <Text span inherit c="yellow">
      {field.note ? `${EXTRACTION_STRINGS.checkThis}: ${field.note}` : EXTRACTION_STRINGS.checkThis}
    </Text>
  );
}

function FieldsTable({ extraction }: { extraction: CertificateExtraction }) {
  const keys = Object.keys(LABELS) as Array<keyof CertificateFields>;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped verticalSpacing={4} aria-label="Values read from the certificate">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>Read</Table.Th>
            <Table.Th>Check</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const f = extraction.fields[key];
            return (
              <Table.Tr key={key}>
                <Table.Td>{LABELS[key]}</Table.Td>
                <Table.Td>
                  <Text size="sm" c={f.value === null ? 'dimmed' : undefined}>
                    {readable(key, f.value)}
                  </Text>
                  {f.check === 'check' && f.note && (
                    <Text size="xs" c="dimmed">
                      {f.note}
                    </Text>
                  )}
                </Table.Td>
                {/* As wide as its badge, never cut: the words are what a person reads. */}
                <Table.Td w="1%" style={{ whiteSpace: 'nowrap' }}>
                  <CheckBadge field={f} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface Values extends Record<string, unknown> {
  course_id: string | null;
  license_id: string | null;
  hours: number | string;
  completion_date: string | null;
}

const id = (v: string | null) => (v ? Number(v) : undefined);

/** The paths of a completion's inputs; an error on any other path is shown above the submit button. */
const INPUT_NAMES = new Set(['course_id', 'license_id', 'hours', 'completion_date']);

function toInput(v: Values) {
  return {
    course_id: id(v.course_id),
    license_id: id(v.license_id) ?? null,
    hours: v.hours === '' ? undefined : Number(v.hours),
    completion_date: v.completion_date ?? undefined,
  };
}

const valuesOf = (s: CompletionSuggestion): Values => ({
  course_id: s.course_id ? String(s.course_id) : null,
  license_id: s.license_id ? String(s.license_id) : null,
  hours: s.hours ?? '',
  completion_date: s.completion_date,
});

/** The course and license choices, shared by every completion form of the panel. */
function useChoices(ownerId: number | null) {
  const licenses = useCertificateLicenses(ownerId);
  return {
    licenses: (licenses.data ?? [])
      .filter((l) => ownerId === null || l.user_id === ownerId)
      .map((l) => ({ value: String(l.license_id), label: `${l.license_number} (${l.state})` })),
  };
}

// Two courses may share a name: the provider and the state tell them apart.
const courseOption = (c: Course) => ({ value: String(c.course_id), label: courseOptionLabel(c) });

type Choices = ReturnType<typeof useChoices>;
type Checked = Pick<CertificateFields, 'course_name' | 'hours' | 'completion_date'>;

type InputProps = ReturnType<SchemaForm<Values, typeof certificateCompletionInput>['getInputProps']>;

/** The four inputs of one completion; `input` gives a value's props (a transcript's under "entries.2."). */
function CompletionInputs({
  input,
  suggestion,
  fields,
  choices,
}: {
  input: (name: 'course_id' | 'license_id' | 'hours' | 'completion_date') => InputProps;
  suggestion: CompletionSuggestion;
  fields: Checked;
  choices: Choices;
}) {
  const suggested = suggestion.course_id
    ? `Suggested: ${suggestion.course_name}${suggestion.course_provider ? ` · ${suggestion.course_provider}` : ''}`
    : 'No course matched; choose one';
  const courseNote = checkNote(fields.course_name);
  return (
    <>
      <ServerSearchSelect<Course>
        label="Course"
        required
        placeholder="Select a course"
        emptyMessage="No courses found"
        useResults={useCertificateCoursePicker}
        toOption={courseOption}
        description={
          courseNote ? (
            <>
              {suggested}. {courseNote}
            </>
          ) : (
            suggested
          )
        }
        value={(input('course_id').value as string | null) ?? null}
        onChange={(v) => input('course_id').onChange(v)}
        error={input('course_id').error}
      />
      <Select
        label="License"
        clearable
        placeholder={choices.licenses.length ? 'The license the hours count toward' : 'No licenses'}
        description={suggestion.license_number ? `Suggested: ${suggestion.license_number}` : undefined}
        data={choices.licenses}
        {...input('license_id')}
      />
      <Group grow align="flex-start">
        <NumberInput label="Hours" required min={0} step={0.5} decimalScale={2} description={checkNote(fields.hours)} {...input('hours')} />
        <DateField
          label="Completion date"
          required
          maxDate={officeToday()}
          description={checkNote(fields.completion_date)}
          {...input('completion_date')}
        />
      </Group>
    </>
  );
}

function Recorded({ text }: { text: string }) {
  return (
    <Alert color="green" icon={<IconCheck size={18} />} role="status">
      {text}
    </Alert>
  );
}

/** The "Record completion" form, prefilled from the suggestion; the person confirms or corrects each value. */
function RecordCompletionForm({ documentId, extraction }: { documentId: number; extraction: CertificateExtraction }) {
  const s = extraction.suggestion;
  const choices = useChoices(s.user_id);
  const record = useRecordFromCertificate();
  const [recorded, setRecorded] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const form = useSchemaForm({ schema: certificateCompletionInput, initialValues: valuesOf(s), toInput });
  useEffect(() => {
    form.setValues(valuesOf(s));
    setRecorded(false);
    // A new reading (another version) starts the form again; a refetch of the same reading keeps what was typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [documentId, extraction.text, extraction.duration_ms]);

  if (recorded) return <Recorded text={EXTRACTION_STRINGS.recorded} />;

  const submit = form.onSubmit(
    (body) =>
      record.mutate({ id: documentId, ...body }, { onSuccess: () => setRecorded(true), onError: (err) => showServerErrors(form, err) }),
    // An error on no input of its own is said above the button, never swallowed.
    (errors) =>
      setInvalid(
        Object.entries(errors)
          .filter(([k]) => !INPUT_NAMES.has(k))
          .map(([, v]) => String(v)),
      ),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Record completion">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Record completion
        </Title>
        <Text size="sm" c="dimmed">
          Check the values read from the certificate. The completion waits for a reviewer&apos;s approval.
        </Text>
        <CompletionInputs input={(k) => form.getInputProps(k)} suggestion={s} fields={extraction.fields} choices={choices} />
        {invalid.length > 0 && (
          <Alert color="red" role="alert">
            {invalid.join('; ')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={record.isPending}>
            Record completion
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface TranscriptValues extends Record<string, unknown> {
  entries: Values[];
}

/**
 * A transcript (several courses, docs/ocr.md "Judge"): one completion per course, each prefilled from its own
 * suggestion, recorded all together ("Record all", all or none) or one of them alone.
 */
function TranscriptForm({ documentId, extraction }: { documentId: number; extraction: CertificateExtraction }) {
  const courses: CertificateCourse[] = extraction.courses;
  const choices = useChoices(extraction.suggestion.user_id);
  const recordAll = useRecordAllFromCertificate();
  const recordOne = useRecordFromCertificate();
  const [recorded, setRecorded] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string[]>([]);
  const initial = (): TranscriptValues => ({ entries: courses.map((c) => valuesOf(c.suggestion)) });
  const form = useSchemaForm({
    schema: certificateCompletionsInput,
    initialValues: initial(),
    toInput: (v: TranscriptValues) => ({ entries: v.entries.map(toInput) }),
  });
  useEffect(() => {
    form.setValues(initial());
    setRecorded(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [documentId, extraction.text, extraction.duration_ms]);

  if (recorded) return <Recorded text={recorded} />;

  const submitAll = form.onSubmit(
    (body) =>
      recordAll.mutate(
        { id: documentId, ...body },
        { onSuccess: () => setRecorded(EXTRACTION_STRINGS.recordedAll), onError: (err) => showServerErrors(form, err) },
      ),
    // An error on no input of its own (the list as a whole) is said above the button, never swallowed.
    (errors) =>
      setInvalid(
        Object.entries(errors)
          .filter(([k]) => !/^entries\.\d+\./.test(k))
          .map(([, v]) => String(v)),
      ),
  );
  const submitOne = (i: number) => {
    const input = toInput(form.getValues().entries[i]!);
    const errors = schemaErrors(certificateCompletionInput, input);
    if (Object.keys(errors).length) {
      form.setErrors(Object.fromEntries(Object.entries(errors).map(([k, v]) => [`entries.${i}.${k}`, v])));
      return;
    }
    recordOne.mutate(
      { id: documentId, ...certificateCompletionInput.parse(input) },
      {
        onSuccess: () => setRecorded(EXTRACTION_STRINGS.recorded),
        onError: (err) =>
          showServerErrors(
            { setErrors: (e) => form.setErrors(Object.fromEntries(Object.entries(e).map(([k, v]) => [`entries.${i}.${k}`, v]))) },
            err,
          ),
      },
    );
  };
  const busy = recordAll.isPending || recordOne.isPending;
  return (
    <form onSubmit={submitAll} noValidate aria-label="Record completions">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Record completions
        </Title>
        <Text size="sm" c="dimmed">
          One completion per course. Check the values read from the transcript; each completion waits for a reviewer&apos;s approval.
        </Text>
        {courses.map((c, i) => (
          <Paper key={i} withBorder p="sm" component="section" aria-label={`Course ${i + 1} of ${courses.length}`}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600} size="sm">
                  {`Course ${i + 1} of ${courses.length}: ${c.fields.course_name.value ?? EXTRACTION_STRINGS.notFound}`}
                </Text>
                <CheckBadge field={c.fields.course_name} />
              </Group>
              <CompletionInputs
                input={(k) => form.getInputProps(`entries.${i}.${k}`)}
                suggestion={c.suggestion}
                fields={c.fields}
                choices={choices}
              />
              <Group justify="flex-end">
                <Button variant="default" disabled={busy} onClick={() => submitOne(i)}>
                  {EXTRACTION_STRINGS.recordOne}
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
        {invalid.length > 0 && (
          <Alert color="red" role="alert">
            {invalid.join('; ')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={recordAll.isPending} disabled={recordOne.isPending}>
            {EXTRACTION_STRINGS.recordAll}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * What the server read from a certificate's version: pending (refetched every 2 s), failed with the reason, or
 * the fields with their confidence and the suggested course and license, and the form that records the
 * completion from them (docs/ocr.md). Nothing is approved from the reading alone.
 */
export function ExtractionPanel({ documentId, version }: { documentId: number; version: number }) {
  const { can } = useAuth();
  const query = useDocumentExtraction(documentId, version);
  if (query.isError) return <QueryError things="the certificate reading" query={query} />;
  const data = query.data;
  if (!data || (data.status === 'pending' && data.version === version) || data.version < version) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{EXTRACTION_STRINGS.pending}</Text>
      </Group>
    );
  }
  if (data.status === 'none') {
    return (
      <Text size="sm" c="dimmed">
        This document is not read automatically.
      </Text>
    );
  }
  if (data.status === 'failed' || !data.extraction) {
    return (
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="The certificate could not be read">
        {data.error ?? 'Enter the completion by hand.'}
      </Alert>
    );
  }
  const e = data.extraction;
  const transcript = e.kind === 'transcript' && e.courses.length > 1;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Read from {e.source === 'text_layer' ? "the PDF's text" : 'the image (OCR)'}. Green values agree with a second source (the
        catalogue, your name and licenses); check the others.
      </Text>
      {e.warnings.map((w) => (
        <Alert key={w.code} color="orange" icon={<IconAlertTriangle size={18} />} role="alert">
          {w.message}
        </Alert>
      ))}
      <FieldsTable extraction={e} />
      {!transcript && (
        <Text size="sm">
          Suggested course: <b>{e.suggestion.course_name ?? 'none matched'}</b>
          {' · '}License: <b>{e.suggestion.license_number ?? 'none'}</b>
        </Text>
      )}
      {can('certificates.recordCompletion') &&
        (transcript ? (
          <TranscriptForm documentId={documentId} extraction={e} />
        ) : (
          <RecordCompletionForm documentId={documentId} extraction={e} />
        ))}
    </Stack>
  );
}
