import { Button, Group, NumberInput, Paper, Stack, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { CE_STRINGS, ceAdjustInput } from '@lm/shared';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useAdjustLicense } from './api.ts';

type Values = { hours: number | string; reason: string };

const EMPTY: Values = { hours: '', reason: '' };

/** Adds a signed number of CE hours, with a reason, to the license's current cycle (Admin and Broker). */
export function AdjustmentForm({ licenseId }: { licenseId: number }) {
  const adjust = useAdjustLicense();
  // The shared schema's messages; an emptied number is absent ("not a number").
  const form = useSchemaForm({
    schema: ceAdjustInput,
    initialValues: EMPTY,
    toInput: (v: Values) => ({ id: licenseId, hours: v.hours === '' ? undefined : Number(v.hours), reason: v.reason }),
  });

  const submit = form.onSubmit((input) =>
    adjust.mutate(input, {
      onSuccess: () => {
        form.setValues(EMPTY);
        form.resetDirty(EMPTY);
      },
      onError: (err) => showServerErrors(form, err),
    }),
  );

  return (
    <Paper withBorder radius="md" p="sm">
      <form onSubmit={submit} noValidate aria-label={CE_STRINGS.adjust}>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {CE_STRINGS.adjust}
          </Title>
          <Group align="flex-start" gap="xs" wrap="wrap">
            <NumberInput
              label="Hours"
              description="Negative removes hours"
              placeholder="e.g. 2 or -1.5"
              step={0.5}
              decimalScale={2}
              allowNegative
              w={170}
              {...form.getInputProps('hours')}
            />
            <TextInput
              label="Reason"
              description="Kept on the transcript"
              placeholder="e.g. Out-of-state course credited"
              style={{ flex: 1, minWidth: 200 }}
              {...form.getInputProps('reason')}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" size="sm" leftSection={<IconPlus size={16} />} loading={adjust.isPending}>
              Add Adjustment
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
