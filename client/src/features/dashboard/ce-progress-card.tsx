import { useState } from 'react';
import { Button, Card, Divider, Group, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { DASHBOARD_STRINGS, type CeProgress } from '@lm/shared';
import { useMyLicenses } from './api.ts';
import { QueryError } from '../../components/query-error.tsx';
import { TranscriptDrawer } from '../../components/transcript-drawer.tsx';
import { formatDate, hoursOf } from '../../lib/format.ts';

/**
 * The Agent's Continuing Education Progress: hours completed of required and the renewal date, then each
 * of its licenses with a link to that license's CE transcript (the Licenses screen's drawer).
 */
export function CeProgressCard({ progress }: { progress: CeProgress }) {
  const { completed, required, renewal_date } = progress;
  const percent = required > 0 ? Math.min(100, (completed / required) * 100) : completed > 0 ? 100 : 0;
  const [transcriptId, setTranscriptId] = useState<number | null>(null);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="ce-progress">
      <Title order={2} size="h4" mb="md">
        {DASHBOARD_STRINGS.ceProgress}
      </Title>
      <Group justify="space-between" mb={6}>
        <Text size="sm">{hoursOf(completed, required)} completed</Text>
        <Text size="sm" fw={600}>
          {percent.toFixed(0)}%
        </Text>
      </Group>
      <Progress
        value={Math.round(percent)}
        color={percent >= 100 ? 'green' : 'blue'}
        size="lg"
        radius="xl"
        aria-label="CE hours completed"
      />
      <Text size="sm" c="dimmed" mt="sm">
        Renewal date: {renewal_date ? formatDate(renewal_date) : 'N/A'}
      </Text>
      <MyLicenses onOpen={setTranscriptId} />
      <TranscriptDrawer licenseId={transcriptId} onClose={() => setTranscriptId(null)} />
    </Card>
  );
}

/** The Agent's own licenses (the server scopes the list), each with its cycle's hours and its transcript. */
function MyLicenses({ onOpen }: { onOpen: (licenseId: number) => void }) {
  const query = useMyLicenses();
  if (query.isError) return <QueryError things="your licenses" query={query} />;
  if (query.isLoading) return <Skeleton h={40} mt="md" />;
  const licenses = query.data ?? [];
  if (licenses.length === 0) return null;
  return (
    <>
      <Divider my="md" />
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {licenses.map((l) => (
          <Group key={l.license_id} component="li" justify="space-between" gap="xs" wrap="wrap" data-testid="ce-license">
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={500}>
                {l.license_number} · {l.state} {l.license_type}
              </Text>
              <Text size="xs" c="dimmed">
                {hoursOf(l.ce_hours_completed, l.ce_hours_required)} this cycle
              </Text>
            </div>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconFileText size={14} />}
              onClick={() => onOpen(l.license_id)}
              aria-label={`View transcript of license ${l.license_number}`}
            >
              View transcript
            </Button>
          </Group>
        ))}
      </Stack>
    </>
  );
}
