import { useEffect } from 'react';
import { Alert, Button, Checkbox, Group, List, Modal, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { CE_STRINGS, renewLicenseInput, type License, type RenewalPreview } from '@lm/shared';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { QueryError } from '../../components/query-error.tsx';
import { useRenewalPreview, useRenewLicense } from './api.ts';
import { CeHoursBar } from '../../components/ce-parts.tsx';
import { formatDate, formatHours, hoursText } from '../../lib/format.ts';

/**
 * Renew asks first: the new expiration date and whether this cycle's CE is complete. With CE outstanding
 * the office must tick a second, explicit choice; the server records such a renewal as done with CE
 * outstanding (and refuses it without `allow_incomplete`).
 */
export function RenewModal({ license, onClose }: { license: License | null; onClose: () => void }) {
  return (
    <Modal
      opened={license !== null}
      onClose={onClose}
      title={license ? `${CE_STRINGS.renewConfirm} ${license.license_number}` : CE_STRINGS.renewConfirm}
      size="md"
    >
      {license && <RenewBody key={license.license_id} license={license} onClose={onClose} />}
    </Modal>
  );
}

function RenewBody({ license, onClose }: { license: License; onClose: () => void }) {
  const preview = useRenewalPreview(license.license_id);
  const renew = useRenewLicense();
  const data = preview.data;
  const outstanding = data ? !data.complete : false;
  // docs/product.md: the call carries the new expiration date and the status; the preview computed the date.
  // With CE outstanding the second choice is the schema's allow_incomplete.
  const form = useSchemaForm({
    schema: renewLicenseInput,
    initialValues: { allow_incomplete: false },
    toInput: (v: { allow_incomplete: boolean }) => ({
      id: license.license_id,
      expiration_date: data?.new_expiration_date,
      status: 'Active',
      allow_incomplete: outstanding ? v.allow_incomplete : undefined,
    }),
  });
  const anyway = form.values.allow_incomplete;

  // A fresh preview (e.g. after a refetch) asks for the second choice again.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => form.setFieldValue('allow_incomplete', false), [data?.complete]);

  const submit = form.onSubmit((input) => renew.mutate(input, { onSuccess: onClose, onError: () => void preview.refetch() }));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {license.first_name} {license.last_name} · {license.state} {license.license_type}
        </Text>
        {preview.isError && <QueryError things="the renewal preview" query={preview} />}
        {!data && !preview.isError && (
          <Stack gap="sm" aria-busy="true" aria-label="Loading the renewal preview">
            <Skeleton h={52} />
            <Skeleton h={40} />
            <Skeleton h={60} />
          </Stack>
        )}
        {data && <PreviewFigures preview={data} />}
        {data && outstanding && (
          <Checkbox
            {...form.getInputProps('allow_incomplete', { type: 'checkbox' })}
            label={CE_STRINGS.renewOutstanding}
            description="The renewal is recorded as made with CE outstanding, and the missing hours stay on the closed cycle."
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={renew.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            color={outstanding ? 'orange' : undefined}
            loading={renew.isPending}
            disabled={!data || (outstanding && !anyway)}
          >
            {outstanding ? CE_STRINGS.renewAnyway : 'Renew'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PreviewFigures({ preview }: { preview: RenewalPreview }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="xs">
        <DateFigure label="Current expiration" date={formatDate(preview.current_expiration_date)} />
        <DateFigure label="New expiration" date={formatDate(preview.new_expiration_date)} strong />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        The license becomes Active for {preview.cycle_years} {preview.cycle_years === 1 ? 'year' : 'years'}; the next cycle requires{' '}
        {hoursText(preview.next_required)} of CE.
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          CE this cycle
        </Text>
        <CeHoursBar completed={preview.completed} required={preview.required} remaining={preview.remaining} complete={preview.complete} />
      </Stack>
      {preview.complete ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />}>
          CE for this cycle is complete.
        </Alert>
      ) : (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="CE outstanding" role="alert">
          <Stack gap={4}>
            <Text size="sm">
              {preview.remaining > 0
                ? `${hoursText(preview.remaining)} of the ${formatHours(preview.required)} required are not done.`
                : 'The hours are done, but required topics are not.'}
            </Text>
            {preview.outstanding_topics.length > 0 && (
              <List size="sm" spacing={2}>
                {preview.outstanding_topics.map((t) => (
                  <List.Item key={t.topic}>
                    {t.topic}: {hoursText(t.remaining)} remaining
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function DateFigure({ label, date, strong }: { label: string; date: string; strong?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={strong ? 700 : 500} data-testid={`renew-${label.toLowerCase().replace(' ', '-')}`}>
        {date}
      </Text>
    </Stack>
  );
}
