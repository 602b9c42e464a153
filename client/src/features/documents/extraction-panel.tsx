import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, NumberInput, Progress, Select, Stack, Table, Text, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import {
  certificateCompletionInput,
  confidenceColor,
  EXTRACTION_STRINGS,
  localDateString,
  type CertificateExtraction,
  type CertificateFields,
} from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { formatDate, formatHours } from '../../lib/format.ts';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { QueryError } from '../../components/query-error.tsx';
import { useCertificateCourses, useCertificateLicenses, useDocumentExtraction, useRecordFromCertificate } from './api-extraction.ts';

const LABELS: Record<keyof CertificateFields, string> = {
  course_name: 'Course',
  provider: 'Provider',
  hours: 'Hours',
  completion_date: 'Completion date',
  holder_name: 'Name',
  license_number: 'License number',
};

function readable(key: keyof CertificateFields, value: string | number | null): string {
  if (value === null) return 'Not found';
  if (key === 'hours') return formatHours(Number(value));
  if (key === 'completion_date') return formatDate(String(value));
  return String(value);
}

function Confidence({ value, label }: { value: number; label: string }) {
  const pct = Math.round(value * 100);
  const color = confidenceColor(value);
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress value={pct} color={color} w={60} aria-label={`${label} confidence`} />
      <Badge color={color} variant="light" miw={52}>
        {pct}%
      </Badge>
    </Group>
  );
}

function FieldsTable({ extraction }: { extraction: CertificateExtraction }) {
  const keys = Object.keys(LABELS) as Array<keyof CertificateFields>;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>Read</Table.Th>
            <Table.Th>Confidence</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const f = extraction.fields[key];
            return (
              <Table.Tr key={key}>
                <Table.Td>{LABELS[key]}</Table.Td>
                <Table.Td c={f.value === null ? 'dimmed' : undefined}>{readable(key, f.value)}</Table.Td>
                <Table.Td>
                  <Confidence value={f.confidence} label={LABELS[key]} />
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

function toInput(v: Values) {
  return {
    course_id: id(v.course_id),
    license_id: id(v.license_id) ?? null,
    hours: v.hours === '' ? undefined : Number(v.hours),
    completion_date: v.completion_date ?? undefined,
  };
}

/** The "Record completion" form, prefilled from the suggestion; the person confirms or corrects each value. */
function RecordCompletionForm({ documentId, extraction }: { documentId: number; extraction: CertificateExtraction }) {
  const s = extraction.suggestion;
  const courses = useCertificateCourses(true);
  const licenses = useCertificateLicenses(true);
  const record = useRecordFromCertificate();
  const [recorded, setRecorded] = useState(false);
  const initial = (): Values => ({
    course_id: s.course_id ? String(s.course_id) : null,
    license_id: s.license_id ? String(s.license_id) : null,
    hours: s.hours ?? '',
    completion_date: s.completion_date,
  });
  const form = useSchemaForm({ schema: certificateCompletionInput, initialValues: initial(), toInput });
  useEffect(() => {
    form.setValues(initial());
    setRecorded(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [documentId, extraction]);

  const licenseChoices = (licenses.data ?? [])
    .filter((l) => s.user_id === null || l.user_id === s.user_id)
    .map((l) => ({ value: String(l.license_id), label: `${l.license_number} (${l.state})` }));

  if (recorded) {
    return (
      <Alert color="green" icon={<IconCheck size={18} />} role="status">
        {EXTRACTION_STRINGS.recorded}
      </Alert>
    );
  }

  const submit = form.onSubmit((body) =>
    record.mutate({ id: documentId, ...body }, { onSuccess: () => setRecorded(true), onError: (err) => showServerErrors(form, err) }),
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
        <Select
          label="Course"
          required
          searchable
          placeholder={courses.isLoading ? 'Loading courses...' : 'Select a course'}
          description={
            s.course_id ? `Suggested: ${s.course_name} (${Math.round(s.course_match * 100)}% match)` : 'No course matched; choose one'
          }
          data={(courses.data ?? []).map((c) => ({ value: String(c.course_id), label: `${c.course_name} (${formatHours(c.ce_hours)} h)` }))}
          {...form.getInputProps('course_id')}
        />
        <Select
          label="License"
          clearable
          placeholder={licenseChoices.length ? 'The license the hours count toward' : 'No licenses'}
          description={s.license_number ? `Suggested: ${s.license_number}` : undefined}
          data={licenseChoices}
          {...form.getInputProps('license_id')}
        />
        <Group grow align="flex-start">
          <NumberInput label="Hours" required min={0} step={0.5} decimalScale={2} {...form.getInputProps('hours')} />
          <DateInput
            label="Completion date"
            required
            valueFormat="YYYY-MM-DD"
            maxDate={localDateString()}
            {...form.getInputProps('completion_date')}
          />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" loading={record.isPending}>
            Record completion
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
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Read from {e.source === 'text_layer' ? "the PDF's text" : 'the image (OCR)'}, {Math.round(e.text_confidence * 100)}% text
        confidence.
      </Text>
      <FieldsTable extraction={e} />
      <Text size="sm">
        Suggested course: <b>{e.suggestion.course_name ?? 'none matched'}</b>
        {' · '}License: <b>{e.suggestion.license_number ?? 'none'}</b>
      </Text>
      {can('certificates.recordCompletion') && <RecordCompletionForm documentId={documentId} extraction={e} />}
    </Stack>
  );
}
