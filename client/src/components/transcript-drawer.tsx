import { useState, type ReactNode } from 'react';
import { Accordion, Badge, Button, Divider, Drawer, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { CE_STRINGS, transcriptFileName, type Transcript, type TranscriptClosedCycle } from '@lm/shared';
import { downloadFile, fileCallMessage } from '../lib/download.ts';
import { formatDate, formatDateTime, hoursOf, officeToday } from '../lib/format.ts';
import { notify } from '../lib/notify.ts';
import { trpc } from '../lib/trpc.ts';
import { CycleFiguresView, CycleLedger } from './ce-parts.tsx';
import { LicenseStatusBadge } from './license-status-badge.tsx';
import { QueryError } from './query-error.tsx';

const DOWNLOAD_FAILED = CE_STRINGS.downloadFailed;

/**
 * The drawer is shared by two features (the Licenses table and the Agent's CE Progress card on the
 * dashboard), and features do not import each other (eslint.config.js), so it loads the transcript itself
 * through lib/trpc.ts. Writes stay with the licenses feature: it passes its adjustment form as `adjustment`.
 */
function useTranscript(licenseId: number | null) {
  return trpc.licenses.transcript.useQuery({ id: licenseId ?? 0 }, { enabled: licenseId !== null });
}

/** Saves GET /api/licenses/{id}/transcript/export as the server names it (the fallback name only when its Content-Disposition is missing). Throws FileCallError. */
function downloadTranscriptCsv(licenseId: number, licenseNumber: string): Promise<string> {
  return downloadFile(`/api/licenses/${licenseId}/transcript/export`, {
    fileName: transcriptFileName(licenseNumber, officeToday()),
    failure: DOWNLOAD_FAILED,
  });
}

type AdjustmentSlot = (licenseId: number) => ReactNode;

/**
 * The CE transcript of one license: the current cycle (figures, topics, completions, adjustments), the
 * closed cycles, the CSV download and, when the opener passes `adjustment` (the Licenses screen, for Admins
 * and Brokers), the form that adds manual adjustments. Opened from a row of the Licenses table and from the
 * Agent's CE Progress card.
 */
export function TranscriptDrawer({
  licenseId,
  onClose,
  adjustment,
}: {
  licenseId: number | null;
  onClose: () => void;
  adjustment?: AdjustmentSlot;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={licenseId !== null}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'xl'}
      title={
        <Title order={3} component="span">
          {CE_STRINGS.transcript}
        </Title>
      }
      closeButtonProps={{ 'aria-label': 'Close transcript' }}
    >
      {licenseId !== null && <TranscriptBody licenseId={licenseId} adjustment={adjustment} />}
    </Drawer>
  );
}

function TranscriptBody({ licenseId, adjustment }: { licenseId: number; adjustment?: AdjustmentSlot }) {
  const query = useTranscript(licenseId);
  if (query.isError) return <QueryError things="the transcript" query={query} />;
  if (!query.data) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the transcript">
        <Skeleton h={48} />
        <Skeleton h={72} />
        <Skeleton h={24} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  return <TranscriptView transcript={query.data} adjustment={adjustment} />;
}

function TranscriptView({ transcript, adjustment }: { transcript: Transcript; adjustment?: AdjustmentSlot }) {
  const { license, current, closed } = transcript;
  const [downloading, setDownloading] = useState(false);

  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadTranscriptCsv(license.license_id, license.license_number);
    } catch (err) {
      notify.error(fileCallMessage(err, DOWNLOAD_FAILED));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="lg" data-testid="transcript">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text fw={600}>
            {license.first_name} {license.last_name}
          </Text>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {license.license_number} · {license.state} · {license.license_type}
            </Text>
            <LicenseStatusBadge status={license.status} />
          </Group>
          <Text size="sm" c="dimmed">
            Issued {formatDate(license.issue_date)} · Expires {formatDate(license.expiration_date)}
          </Text>
        </Stack>
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => void onDownload()} loading={downloading}>
          Download CSV
        </Button>
      </Group>

      <Stack gap="sm" component="section" aria-labelledby="transcript-current">
        <Stack gap={0}>
          <Title order={2} size="h4" id="transcript-current">
            Current cycle
          </Title>
          <Text size="sm" c="dimmed">
            {formatDate(current.start_date)} to {formatDate(current.end_date)} · {ruleText(current.rule)}
          </Text>
        </Stack>
        <CycleFiguresView cycle={current} />
        <CycleLedger cycle={current} />
        {adjustment?.(license.license_id)}
      </Stack>

      <Divider />

      <Stack gap="sm" component="section" aria-labelledby="transcript-closed">
        <Title order={2} size="h4" id="transcript-closed">
          Closed cycles
        </Title>
        {closed.length === 0 ? (
          <Text size="sm" c="dimmed">
            No closed cycles yet: the first renewal closes this one.
          </Text>
        ) : (
          <Accordion variant="separated" multiple chevronPosition="right">
            {closed.map((c) => (
              <ClosedCycle key={c.cycle_id} cycle={c} />
            ))}
          </Accordion>
        )}
      </Stack>
    </Stack>
  );
}

function ClosedCycle({ cycle }: { cycle: TranscriptClosedCycle }) {
  return (
    <Accordion.Item value={String(cycle.cycle_id)} data-testid="closed-cycle">
      <Accordion.Control>
        <Group justify="space-between" gap="xs" wrap="wrap" pr="xs">
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {formatDate(cycle.start_date)} to {formatDate(cycle.end_date)}
            </Text>
            <Text size="xs" c="dimmed">
              {hoursOf(cycle.completed, cycle.required)}
            </Text>
          </Stack>
          {cycle.renewed_with_ce_outstanding ? (
            <Badge variant="light" color="orange">
              Renewed with CE outstanding
            </Badge>
          ) : (
            <Badge variant="light" color={cycle.complete ? 'green' : 'gray'}>
              {cycle.complete ? 'Complete' : 'Incomplete'}
            </Badge>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Closed {formatDateTime(cycle.closed_at)}
            {cycle.closed_by_name ? ` by ${cycle.closed_by_name}` : ''} · {ruleText(cycle.rule)}
          </Text>
          <CycleFiguresView cycle={cycle} />
          <CycleLedger cycle={cycle} />
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

function ruleText(rule: Transcript['current']['rule']): string {
  return rule ? `${rule.state} ${rule.license_type} CE rule` : "No state CE rule: the license's own required hours";
}
