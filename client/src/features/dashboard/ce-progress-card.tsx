import { useState } from 'react';
import { Button, Card, Group, List, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { COMPLIANCE_COLORS, DASHBOARD_STRINGS, hoursPerMonth, type CeLicenseCard, type CeProgress } from '@lm/shared';
import { TranscriptDrawer } from '../../components/transcript-drawer.tsx';
import { ComplianceBadge } from '../../components/compliance-badge.tsx';
import { formatDate, hoursOf, hoursShort } from '../../lib/format.ts';

const percentOf = (completed: number, required: number) =>
  required > 0 ? Math.min(100, (completed / required) * 100) : completed > 0 ? 100 : 0;

/**
 * The Agent's Continuing Education Progress: one card per license, the one most in need first (the server's
 * order), each with its hours, the server's compliance judgement, the topics still needed, the pace to finish in
 * time and the license's CE transcript. Without a license, the empty figures (0 of 0 hours, no renewal date).
 */
export function CeProgressCard({ progress, licenses }: { progress: CeProgress; licenses: CeLicenseCard[] }) {
  const [transcriptId, setTranscriptId] = useState<number | null>(null);
  return (
    <Card withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="ce-progress">
      <Title order={2} size="h4" mb="md">
        {DASHBOARD_STRINGS.ceProgress}
      </Title>
      {licenses.length === 0 ? (
        <NoLicense progress={progress} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: licenses.length > 1 ? 2 : 1, xl: Math.min(licenses.length, 3) }} spacing="md">
          {licenses.map((l) => (
            <LicenseCeCard key={l.license_id} license={l} onTranscript={() => setTranscriptId(l.license_id)} />
          ))}
        </SimpleGrid>
      )}
      <TranscriptDrawer licenseId={transcriptId} onClose={() => setTranscriptId(null)} />
    </Card>
  );
}

/** The card's figures before the Agent holds a license (as the server sends them: zeros, no date). */
function NoLicense({ progress }: { progress: CeProgress }) {
  const { completed, required, renewal_date } = progress;
  const percent = percentOf(completed, required);
  return (
    <>
      <Group justify="space-between" mb={6}>
        <Text size="sm">{DASHBOARD_STRINGS.hoursCompleted(hoursOf(completed, required))}</Text>
        <Text size="sm" fw={600}>
          {percent.toFixed(0)}%
        </Text>
      </Group>
      <Progress value={Math.round(percent)} size="lg" radius="xl" aria-label="CE hours completed" />
      <Text size="sm" c="dimmed" mt="sm">
        {DASHBOARD_STRINGS.renewalDate(renewal_date ? formatDate(renewal_date) : DASHBOARD_STRINGS.noRenewalDate)}
      </Text>
    </>
  );
}

/** One license's CE: everything it shows about compliance is the server's answer (`compliance`). */
function LicenseCeCard({ license: l, onTranscript }: { license: CeLicenseCard; onTranscript: () => void }) {
  const { state, hours_remaining, topics_missing, days_left } = l.compliance;
  const percent = percentOf(l.ce_hours_completed, l.ce_hours_required);
  const title = DASHBOARD_STRINGS.ceLicenseTitle(l.state, l.license_type, l.license_number);
  const date = formatDate(l.expiration_date);
  // The pace only while the hours can still be taken in time (at risk, on track).
  const showPace = (state === 'at_risk' || state === 'on_track') && hours_remaining > 0;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title} data-testid="ce-license" data-state={state}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h5">
              {title}
            </Title>
            <Text size="sm" c="dimmed" data-testid="ce-license-expiry">
              {days_left < 0 ? DASHBOARD_STRINGS.expired(date) : DASHBOARD_STRINGS.expires(date)} · {DASHBOARD_STRINGS.daysLeft(days_left)}
            </Text>
          </div>
          <ComplianceBadge compliance={l.compliance} style={{ flexShrink: 0 }} />
        </Group>
        <Stack gap={6}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{DASHBOARD_STRINGS.hoursCompleted(hoursOf(l.ce_hours_completed, l.ce_hours_required))}</Text>
            <Text size="sm" fw={600}>
              {percent.toFixed(0)}%
            </Text>
          </Group>
          <Progress
            value={Math.round(percent)}
            color={COMPLIANCE_COLORS[state]}
            size="lg"
            radius="xl"
            aria-label={`CE hours of license ${l.license_number}: ${hoursOf(l.ce_hours_completed, l.ce_hours_required)}`}
          />
        </Stack>
        {topics_missing.length > 0 && state !== 'complete' && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {DASHBOARD_STRINGS.topicsMissing}
            </Text>
            <List size="sm" spacing={2} data-testid="topics-missing">
              {topics_missing.map((t) => (
                <List.Item key={t.topic}>{DASHBOARD_STRINGS.topicMissing(t.topic, hoursShort(t.hours))}</List.Item>
              ))}
            </List>
          </Stack>
        )}
        {showPace && (
          <Text size="sm" data-testid="ce-pace">
            {DASHBOARD_STRINGS.pace(hoursShort(hoursPerMonth(l.compliance)), date)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconFileText size={14} />}
            onClick={onTranscript}
            aria-label={DASHBOARD_STRINGS.viewTranscriptOf(l.license_number)}
          >
            {DASHBOARD_STRINGS.viewTranscript}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
