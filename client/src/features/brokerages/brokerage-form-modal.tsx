import { Button, Group, Stack, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { BROKERAGE_STRINGS, brokerageCreateInput, brokerageUpdateInput, type Brokerage } from '@lm/shared';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useDirtyGuard } from '../../lib/dirty-guard.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { useCreateBrokerage, useUpdateBrokerage } from './api.ts';

type FormValues = {
  name: string;
  address: string;
  phone: string;
  email: string;
  website: string;
};

type CreateOutput = z.output<typeof brokerageCreateInput>;
type UpdateOutput = z.output<typeof brokerageUpdateInput>;

function BrokerageForm({ brokerage, onDone }: { brokerage: Brokerage | null; onDone: () => void }) {
  const create = useCreateBrokerage();
  const update = useUpdateBrokerage();
  // The fields go as typed: the schema trims them and an emptied optional field clears it ("" becomes null).
  const form = useSchemaForm({
    schema: brokerage ? brokerageUpdateInput : brokerageCreateInput,
    initialValues: {
      name: brokerage?.name ?? '',
      address: brokerage?.address ?? '',
      phone: brokerage?.phone ?? '',
      email: brokerage?.email ?? '',
      website: brokerage?.website ?? '',
    } satisfies FormValues,
    toInput: (values) => (brokerage ? { id: brokerage.brokerage_id, ...values } : values),
  });
  // Escape or × on a filled form, or leaving the page, asks first (components/form-modal.tsx).
  useDirtyGuard(form.isDirty());

  const onSubmit = (input: CreateOutput | UpdateOutput) => {
    const done = {
      onSuccess: () => {
        form.reset();
        onDone();
      },
      onError: (err: unknown) => void showServerErrors(form, err),
    };
    if ('id' in input) update.mutate(input, done);
    else create.mutate(input, done);
  };

  const busy = create.isPending || update.isPending;
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack>
        <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Address" {...form.getInputProps('address')} />
        <TextInput label="Phone" type="tel" {...form.getInputProps('phone')} />
        <TextInput label="Email" type="email" {...form.getInputProps('email')} />
        <TextInput label="Website" placeholder="https://" {...form.getInputProps('website')} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {brokerage ? BROKERAGE_STRINGS.updateSubmit : BROKERAGE_STRINGS.createSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Add/edit a brokerage: create mode without a selected record, edit mode with one. */
export function BrokerageFormModal({ opened, onClose, brokerage }: { opened: boolean; onClose: () => void; brokerage: Brokerage | null }) {
  return (
    <FormModal opened={opened} onClose={onClose} title={brokerage ? BROKERAGE_STRINGS.editTitle : BROKERAGE_STRINGS.addTitle}>
      {opened && <BrokerageForm key={brokerage?.brokerage_id ?? 'new'} brokerage={brokerage} onDone={onClose} />}
    </FormModal>
  );
}
