import { useEffect, useMemo } from 'react';
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  holderLabel,
  LICENSE_FORM_STATUSES,
  LICENSE_MESSAGES,
  LICENSE_STATE_CODES,
  LICENSE_STRINGS,
  LICENSE_TYPES,
  type License,
  type LicenseStatus,
  type LicenseType,
} from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';
import { useRefreshLicenseData } from './api.ts';

interface Values {
  user_id: string | null;
  license_number: string;
  state: string | null;
  license_type: LicenseType;
  issue_date: string;
  expiration_date: string;
  status: LicenseStatus;
  ce_hours_required: number | string;
  ce_hours_completed: number | string;
}

/** docs/product.md section 9: Sales, Active, CE hours 0. */
const DEFAULTS: Values = {
  user_id: null,
  license_number: '',
  state: null,
  license_type: 'Sales',
  issue_date: '',
  expiration_date: '',
  status: 'Active',
  ce_hours_required: 0,
  ce_hours_completed: 0,
};

function valuesOf(license: License | null, defaultCeHours = 0): Values {
  if (!license) return { ...DEFAULTS, ce_hours_required: defaultCeHours };
  return {
    user_id: String(license.user_id),
    license_number: license.license_number,
    state: license.state,
    license_type: license.license_type,
    issue_date: license.issue_date,
    expiration_date: license.expiration_date,
    status: license.status,
    ce_hours_required: license.ce_hours_required,
    ce_hours_completed: license.ce_hours_completed,
  };
}

const ceHours = (v: number | string) => (v === '' || (typeof v === 'number' && v >= 0) ? null : LICENSE_MESSAGES.ceNotNegative);

/** Add or edit a license: submit 'Create License' / 'Update License'. */
export function LicenseFormModal({ opened, license, onClose }: { opened: boolean; license: License | null; onClose: () => void }) {
  const refresh = useRefreshLicenseData();
  const holders = trpc.licenses.holders.useQuery(undefined, { enabled: opened, staleTime: 60_000 });
  // CE hours required starts at settings.default_ce_hours.
  const defaults = trpc.licenses.defaults.useQuery(undefined, { enabled: opened, staleTime: 60_000 });
  const defaultCeHours = defaults.data?.ce_hours_required ?? 0;
  const form = useForm<Values>({
    initialValues: valuesOf(license),
    validate: {
      user_id: (v) => (v ? null : LICENSE_MESSAGES.userRequired),
      license_number: (v) => (v.trim() ? null : LICENSE_MESSAGES.numberRequired),
      state: (v) => (v ? null : LICENSE_MESSAGES.stateRequired),
      issue_date: (v) => (v ? null : LICENSE_MESSAGES.issueDateRequired),
      expiration_date: (v, all) => {
        if (!v) return LICENSE_MESSAGES.expirationDateRequired;
        return all.issue_date && all.issue_date > v ? LICENSE_MESSAGES.datesOrder : null;
      },
      ce_hours_required: ceHours,
      ce_hours_completed: ceHours,
    },
  });

  // Each opening starts from the selected license (edit) or the defaults (create).
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(license, defaultCeHours);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, license, defaultCeHours]);

  // Only Agents and Brokers, as 'first last (role)'. An edited license keeps its holder in the list.
  const holderOptions = useMemo(() => {
    const options = (holders.data ?? []).map((h) => ({ value: String(h.user_id), label: holderLabel(h) }));
    if (license && !options.some((o) => o.value === String(license.user_id))) {
      options.unshift({ value: String(license.user_id), label: `${license.first_name} ${license.last_name}` });
    }
    return options;
  }, [holders.data, license]);

  // 'Pending Renewal' is not offered, but a license already in it keeps it.
  const statusOptions: string[] = [...LICENSE_FORM_STATUSES];
  if (license && !statusOptions.includes(license.status)) statusOptions.push(license.status);

  const done = (message: string) => {
    notify.success(message);
    refresh();
    onClose();
  };
  const create = trpc.licenses.create.useMutation({ onSuccess: () => done(LICENSE_STRINGS.created) });
  const update = trpc.licenses.update.useMutation({ onSuccess: () => done(LICENSE_STRINGS.updated) });
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((v) => {
    const body = {
      user_id: Number(v.user_id),
      license_number: v.license_number.trim(),
      state: v.state ?? '',
      license_type: v.license_type,
      issue_date: v.issue_date,
      expiration_date: v.expiration_date,
      status: v.status,
      ce_hours_required: v.ce_hours_required === '' ? 0 : Number(v.ce_hours_required),
      ce_hours_completed: v.ce_hours_completed === '' ? 0 : Number(v.ce_hours_completed),
    };
    const onError = (err: unknown) => {
      form.setErrors(fieldErrors(err));
      notify.failure(err, license ? LICENSE_STRINGS.updateFailed : LICENSE_STRINGS.createFailed);
    };
    if (license) update.mutate({ id: license.license_id, ...body }, { onError });
    else create.mutate(body, { onError });
  });

  return (
    <Modal opened={opened} onClose={onClose} title={license ? LICENSE_STRINGS.editTitle : LICENSE_STRINGS.addTitle} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="License Holder"
            placeholder={holders.isLoading ? 'Loading...' : 'Select an Agent or Broker'}
            required
            searchable
            nothingFoundMessage="No Agents or Brokers found"
            data={holderOptions}
            {...form.getInputProps('user_id')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="License Number" required {...form.getInputProps('license_number')} />
            <Select label="State" required searchable data={[...LICENSE_STATE_CODES]} {...form.getInputProps('state')} />
            <Select label="License Type" data={[...LICENSE_TYPES]} allowDeselect={false} {...form.getInputProps('license_type')} />
            <Select label="Status" data={statusOptions} allowDeselect={false} {...form.getInputProps('status')} />
            <TextInput label="Issue Date" type="date" required {...form.getInputProps('issue_date')} />
            <TextInput label="Expiration Date" type="date" required {...form.getInputProps('expiration_date')} />
            <NumberInput label="CE Hours Required" min={0} step={0.5} decimalScale={2} {...form.getInputProps('ce_hours_required')} />
            <NumberInput label="CE Hours Completed" min={0} step={0.5} decimalScale={2} {...form.getInputProps('ce_hours_completed')} />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? LICENSE_STRINGS.saving : license ? LICENSE_STRINGS.update : LICENSE_STRINGS.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
