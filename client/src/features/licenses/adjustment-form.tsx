import { Button, Group, NumberInput, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { CE_STRINGS, ceAdjustInput } from '@lm/shared';
import { fieldErrors } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useAdjustLicense } from './api.ts';

interface Values {
  hours: number | string;
  reason: string;
}

const EMPTY: Values = { hours: '', reason: '' };
const ADJUST_FAILED = CE_STRINGS.adjustFailed;

/** Adds a signed number of CE hours, with a reason, to the license's current cycle (Admin and Broker). */
export function AdjustmentForm({ licenseId }: { licenseId: number }) {
  const adjust = useAdjustLicense();
  const form = useForm<Values>({
    initialValues: EMPTY,
    // The shared schema's messages, first per field; an emptied number is "not a number".
    validate: (v) => {
      const parsed = ceAdjustInput.safeParse({ id: licenseId, hours: v.hours === '' ? undefined : Number(v.hours), reason: v.reason });
      if (parsed.success) return {};
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
      return errors;
    },
  });

  const submit = form.onSubmit((v) =>
    adjust.mutate(
      { id: licenseId, hours: Number(v.hours), reason: v.reason.trim() },
      {
        onSuccess: () => {
          notify.success(CE_STRINGS.adjusted);
          form.setValues(EMPTY);
          form.resetDirty(EMPTY);
        },
        onError: (err) => {
          form.setErrors(fieldErrors(err));
          notify.failure(err, ADJUST_FAILED);
        },
      },
    ),
  );

  return (
    <Paper withBorder radius="md" p="sm">
      <form onSubmit={submit} noValidate aria-label={CE_STRINGS.adjust}>
        <Stack gap="xs">
          <Title order={5}>{CE_STRINGS.adjust}</Title>
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
