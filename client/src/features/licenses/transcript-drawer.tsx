import { useState } from 'react';
import { Accordion, Badge, Button, Divider, Drawer, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { CE_STRINGS, type Transcript, type TranscriptClosedCycle } from '@lm/shared';
import { useAuth } from '../../lib/auth.tsx';
import { fileCallMessage } from '../../lib/download.ts';
import { notify } from '../../lib/notify.ts';
import { QueryError } from '../../components/query-error.tsx';
import { downloadTranscriptCsv, useTranscript } from './api.ts';
import { AdjustmentForm } from './adjustment-form.tsx';
import { CycleFiguresView, CycleLedger } from './ce-parts.tsx';
import { formatDateTime, hoursOf } from './format.ts';
import { LicenseStatusBadge } from './license-badges.tsx';

const DOWNLOAD_FAILED = CE_STRINGS.downloadFailed;

/**
 * The CE transcript of one license: the current cycle (figures, topics, completions, adjustments), the
 * closed cycles, the CSV download and, for Admins and Brokers, manual adjustments. Opened from a row of
 * the Licenses table and from the Agent's CE Progress card.
 */
export function TranscriptDrawer({ licenseId, onClose }: { licenseId: number | null; onClose: () => void }) {
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
      {licenseId !== null && <TranscriptBody licenseId={licenseId} />}
    </Drawer>
  );
}

function TranscriptBody({ licenseId }: { licenseId: number }) {
  const { hasRole } = useAuth();
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
  return <TranscriptView transcript={query.data} canAdjust={hasRole('Admin', 'Broker')} />;
}

function TranscriptView({ transcript, canAdjust }: { transcript: Transcript; canAdjust: boolean }) {
  const { license, current, closed } = transcript;
  const [downloading, setDownloading] = useState(false);

  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadTranscriptCsv(license.license_id, license.license_number, DOWNLOAD_FAILED);
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
        </Stack>
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => void onDownload()} loading={downloading}>
          Download CSV
        </Button>
      </Group>

      <Stack gap="sm" component="section" aria-labelledby="transcript-current">
        <Stack gap={0}>
          <Title order={4} id="transcript-current">
            Current cycle
          </Title>
          <Text size="sm" c="dimmed">
            {current.start_date} to {current.end_date} · {ruleText(current.rule)}
          </Text>
        </Stack>
        <CycleFiguresView cycle={current} />
        <CycleLedger cycle={current} />
        {canAdjust && <AdjustmentForm key={license.license_id} licenseId={license.license_id} />}
      </Stack>

      <Divider />

      <Stack gap="sm" component="section" aria-labelledby="transcript-closed">
        <Title order={4} id="transcript-closed">
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
              {cycle.start_date} to {cycle.end_date}
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
