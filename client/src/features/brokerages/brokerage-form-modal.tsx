import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { BROKERAGE_MESSAGES, BROKERAGE_STRINGS, EMAIL_RE, type Brokerage } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';

interface FormValues {
  name: string;
  address: string;
  phone: string;
  email: string;
  website: string;
}

function BrokerageForm({ brokerage, onDone }: { brokerage: Brokerage | null; onDone: () => void }) {
  const isEdit = brokerage !== null;
  const utils = trpc.useUtils();
  const create = trpc.brokerages.create.useMutation();
  const update = trpc.brokerages.update.useMutation();
  const form = useForm<FormValues>({
    initialValues: {
      name: brokerage?.name ?? '',
      address: brokerage?.address ?? '',
      phone: brokerage?.phone ?? '',
      email: brokerage?.email ?? '',
      website: brokerage?.website ?? '',
    },
    validate: {
      name: (v) => (v.trim() ? null : BROKERAGE_MESSAGES.nameRequired),
      email: (v) => (!v.trim() || EMAIL_RE.test(v.trim()) ? null : BROKERAGE_MESSAGES.emailInvalid),
      website: (v) => (!v.trim() || /^https?:\/\/\S+$/i.test(v.trim()) ? null : BROKERAGE_MESSAGES.websiteInvalid),
    },
  });

  const onSubmit = async (values: FormValues) => {
    try {
      if (isEdit) {
        await update.mutateAsync({ id: brokerage.brokerage_id, ...values });
        notify.success(BROKERAGE_STRINGS.updated);
      } else {
        await create.mutateAsync(values);
        notify.success(BROKERAGE_STRINGS.created);
      }
      await utils.brokerages.invalidate();
      form.reset();
      onDone();
    } catch (err) {
      form.setErrors(fieldErrors(err));
      notify.failure(err, isEdit ? BROKERAGE_STRINGS.updateFailed : BROKERAGE_STRINGS.createFailed);
    }
  };

  const busy = create.isPending || update.isPending;
  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
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
            {isEdit ? BROKERAGE_STRINGS.updateSubmit : BROKERAGE_STRINGS.createSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Add/edit a brokerage: create mode without a selected record, edit mode with one. */
export function BrokerageFormModal({ opened, onClose, brokerage }: { opened: boolean; onClose: () => void; brokerage: Brokerage | null }) {
  return (
    <Modal opened={opened} onClose={onClose} title={brokerage ? BROKERAGE_STRINGS.editTitle : BROKERAGE_STRINGS.addTitle}>
      {opened && <BrokerageForm key={brokerage?.brokerage_id ?? 'new'} brokerage={brokerage} onDone={onClose} />}
    </Modal>
  );
}
