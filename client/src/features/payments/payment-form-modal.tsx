import { useEffect, useMemo } from 'react';
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  hasAtMostTwoDecimals,
  holderLabel,
  localDateString,
  PAYMENT_MESSAGES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_STRINGS,
  PAYMENT_TYPES,
  type Payment,
  type PaymentMethod,
  type PaymentStatus,
  type PaymentType,
} from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';

interface Values {
  user_id: string | null;
  amount: number | string;
  payment_type: PaymentType | null;
  payment_method: PaymentMethod;
  status: PaymentStatus;
  payment_date: string;
  license_id: string | null;
  description: string;
}

/** docs/product.md: License Fee, Credit Card, Completed, payment_date today. */
function defaults(): Values {
  return {
    user_id: null,
    amount: '',
    payment_type: 'License Fee',
    payment_method: 'Credit Card',
    status: 'Completed',
    payment_date: localDateString(),
    license_id: null,
    description: '',
  };
}

function valuesOf(payment: Payment | null): Values {
  if (!payment) return defaults();
  return {
    user_id: String(payment.user_id),
    amount: payment.amount,
    payment_type: payment.payment_type,
    payment_method: payment.payment_method,
    status: payment.status,
    payment_date: payment.payment_date,
    license_id: payment.license_id === null ? null : String(payment.license_id),
    description: payment.description ?? '',
  };
}

/** Record or edit a payment: 'Record New Payment' / 'Edit Payment'. */
export function PaymentFormModal({ opened, payment, onClose }: { opened: boolean; payment: Payment | null; onClose: () => void }) {
  const utils = trpc.useUtils();
  const form = useForm<Values>({
    initialValues: valuesOf(payment),
    validate: {
      user_id: (v) => (v ? null : PAYMENT_MESSAGES.userRequired),
      amount: (v) => {
        if (typeof v !== 'number' || !(v > 0)) return PAYMENT_MESSAGES.amountPositive;
        return hasAtMostTwoDecimals(v) ? null : PAYMENT_MESSAGES.amountDecimals;
      },
      payment_type: (v) => (v ? null : PAYMENT_MESSAGES.typeRequired),
    },
  });

  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(payment);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, payment]);

  const payers = trpc.licenses.holders.useQuery(undefined, { enabled: opened, staleTime: 60_000 });
  const userId = form.values.user_id ? Number(form.values.user_id) : null;
  const userLicenses = trpc.licenses.list.useQuery({ user_id: userId ?? undefined }, { enabled: opened && userId !== null });

  const payerOptions = useMemo(() => {
    const options = (payers.data ?? []).map((h) => ({ value: String(h.user_id), label: holderLabel(h) }));
    if (payment && !options.some((o) => o.value === String(payment.user_id))) {
      options.unshift({ value: String(payment.user_id), label: `${payment.first_name} ${payment.last_name}` });
    }
    return options;
  }, [payers.data, payment]);
  const licenseOptions = (userLicenses.data ?? []).map((l) => ({
    value: String(l.license_id),
    label: `${l.license_number} (${l.state}, ${l.license_type})`,
  }));

  const done = (message: string) => {
    notify.success(message);
    void utils.payments.invalidate();
    onClose();
  };
  const create = trpc.payments.create.useMutation({ onSuccess: () => done(PAYMENT_STRINGS.created) });
  const update = trpc.payments.update.useMutation({ onSuccess: () => done(PAYMENT_STRINGS.updated) });
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((v) => {
    const body = {
      user_id: Number(v.user_id),
      amount: Number(v.amount),
      payment_type: v.payment_type!,
      payment_method: v.payment_method,
      status: v.status,
      payment_date: v.payment_date || localDateString(),
      license_id: v.license_id ? Number(v.license_id) : null,
      description: v.description.trim() || null,
    };
    const onError = (err: unknown) => {
      form.setErrors(fieldErrors(err));
      notify.failure(err, payment ? PAYMENT_STRINGS.updateFailed : PAYMENT_STRINGS.createFailed);
    };
    if (payment) update.mutate({ id: payment.payment_id, ...body }, { onError });
    else create.mutate(body, { onError });
  });

  const userInput = form.getInputProps('user_id');
  return (
    <Modal opened={opened} onClose={onClose} title={payment ? PAYMENT_STRINGS.editTitle : PAYMENT_STRINGS.addTitle} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="User"
            placeholder={payers.isLoading ? 'Loading...' : 'Select a user'}
            required
            searchable
            nothingFoundMessage="No users found"
            data={payerOptions}
            {...userInput}
            onChange={(v) => {
              // A payment may link only a license of its own payer.
              form.setFieldValue('license_id', null);
              userInput.onChange(v);
            }}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label="Amount"
              required
              min={0}
              step={0.01}
              decimalScale={2}
              fixedDecimalScale
              prefix="$"
              thousandSeparator=","
              {...form.getInputProps('amount')}
            />
            <TextInput label="Payment Date" type="date" {...form.getInputProps('payment_date')} />
            <Select label="Payment Type" required data={[...PAYMENT_TYPES]} {...form.getInputProps('payment_type')} />
            <Select label="Payment Method" data={[...PAYMENT_METHODS]} allowDeselect={false} {...form.getInputProps('payment_method')} />
            <Select label="Status" data={[...PAYMENT_STATUSES]} allowDeselect={false} {...form.getInputProps('status')} />
            <Select
              label="License"
              placeholder={userId === null ? 'Select a user first' : licenseOptions.length ? 'None' : 'No licenses'}
              disabled={userId === null}
              clearable
              data={licenseOptions}
              {...form.getInputProps('license_id')}
            />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} maxRows={6} {...form.getInputProps('description')} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? PAYMENT_STRINGS.saving : payment ? PAYMENT_STRINGS.update : PAYMENT_STRINGS.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
