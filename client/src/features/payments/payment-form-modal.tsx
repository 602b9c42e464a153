import { useEffect } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { FormModal } from '../../components/form-modal.tsx';
import { DateField } from '../../components/date-field.tsx';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import { officeToday } from '../../lib/format.ts';
import {
  createPaymentInput,
  holderLabel,
  PAYMENT_DEFAULTS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_STRINGS,
  PAYMENT_TYPES,
  type LicenseHolder,
  type Payment,
  type PaymentMethod,
  type PaymentStatus,
  type PaymentType,
} from '@lm/shared';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useCreatePayment, usePayerLicenses, usePayerPicker, useUpdatePayment } from './api.ts';

// A type, not an interface: useSchemaForm takes a Record.
type Values = {
  user_id: string | null;
  amount: number | string;
  payment_type: PaymentType | null;
  payment_method: PaymentMethod;
  status: PaymentStatus;
  payment_date: string;
  license_id: string | null;
  description: string;
};

/** A new payment starts from the shared defaults (License Fee, Credit Card, Completed) and today. */
export function paymentFormValues(payment: Payment | null): Values {
  if (!payment) {
    return { user_id: null, amount: '', ...PAYMENT_DEFAULTS, payment_date: officeToday(), license_id: null, description: '' };
  }
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

/**
 * The form's values as the schema takes them: ids from the selects' text; an emptied amount or date is absent
 * (the amount's message; the server's today); an emptied type stays null, so it answers 'Payment type is
 * required' instead of falling back to the default; no license is null (unlinks on edit).
 */
export const paymentFormInput = (v: Values) => ({
  ...v,
  user_id: v.user_id ? Number(v.user_id) : undefined,
  amount: v.amount === '' ? undefined : Number(v.amount),
  payment_date: v.payment_date || undefined,
  license_id: v.license_id ? Number(v.license_id) : null,
});

const payerOption = (h: LicenseHolder) => ({ value: String(h.user_id), label: holderLabel(h) });

/** Record or edit a payment: 'Record New Payment' / 'Edit Payment'. Both check the whole payment with the shared create schema. */
export function PaymentFormModal({ opened, payment, onClose }: { opened: boolean; payment: Payment | null; onClose: () => void }) {
  const form = useSchemaForm({ schema: createPaymentInput, initialValues: paymentFormValues(payment), toInput: paymentFormInput });

  useEffect(() => {
    if (!opened) return;
    const v = paymentFormValues(payment);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, payment]);

  const userId = form.values.user_id ? Number(form.values.user_id) : null;
  const userLicenses = usePayerLicenses(userId, opened);

  const licenseOptions = (userLicenses.data ?? []).map((l) => ({
    value: String(l.license_id),
    label: `${l.license_number} (${l.state}, ${l.license_type})`,
  }));

  const create = useCreatePayment();
  const update = useUpdatePayment();
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((body) => {
    const after = { onSuccess: onClose, onError: (err: unknown) => showServerErrors(form, err) };
    if (payment) update.mutate({ id: payment.payment_id, ...body }, after);
    else create.mutate(body, after);
  });

  return (
    <FormModal
      dirty={form.isDirty()}
      opened={opened}
      onClose={onClose}
      title={payment ? PAYMENT_STRINGS.editTitle : PAYMENT_STRINGS.addTitle}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {/* The Agents and Brokers in scope, searched on the server; an edited payment keeps its payer by name. */}
          <ServerSearchSelect<LicenseHolder>
            label="User"
            placeholder="Select a user"
            required
            emptyMessage="No users found"
            useResults={usePayerPicker}
            toOption={payerOption}
            value={form.values.user_id}
            valueLabel={
              payment && String(payment.user_id) === form.values.user_id ? `${payment.first_name} ${payment.last_name}` : undefined
            }
            onChange={(v) => {
              // A payment may link only a license of its own payer.
              form.setFieldValue('license_id', null);
              form.setFieldValue('user_id', v);
            }}
            error={form.errors.user_id}
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
            <DateField label="Payment Date" {...form.getInputProps('payment_date')} />
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
    </FormModal>
  );
}
