import { useEffect, useRef } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { FormModal } from '../../components/form-modal.tsx';
import { DateField } from '../../components/date-field.tsx';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import {
  createLicenseInput,
  holderLabel,
  LICENSE_DEFAULTS,
  LICENSE_FORM_STATUSES,
  LICENSE_STATE_CODES,
  LICENSE_STRINGS,
  LICENSE_TYPES,
  type License,
  type LicenseHolder,
  type LicenseDefaults,
  type LicenseStatus,
  type LicenseType,
} from '@lm/shared';
import { blankToUndefined, showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { hoursShort, hoursText } from '../../lib/format.ts';
import { useCreateLicense, useHolderPicker, useLicenseDefaults, useUpdateLicense } from './api.ts';

// A type, not an interface: useSchemaForm takes a Record.
type Values = {
  user_id: string | null;
  license_number: string;
  state: string | null;
  license_type: LicenseType;
  issue_date: string;
  expiration_date: string;
  status: LicenseStatus;
  ce_hours_required: number | string;
  ce_hours_completed: number | string;
};

/** A new license starts from the shared defaults (Sales, Active, CE hours 0) and the office's default CE hours. */
export function licenseFormValues(license: License | null, defaultCeHours = 0): Values {
  if (!license) {
    return {
      user_id: null,
      license_number: '',
      state: null,
      issue_date: '',
      expiration_date: '',
      ...LICENSE_DEFAULTS,
      ce_hours_required: defaultCeHours,
    };
  }
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

const holderOption = (h: LicenseHolder) => ({ value: String(h.user_id), label: holderLabel(h) });

/** The select holds the holder's id as text; an emptied field is absent (the schema's message, or its default). */
export const licenseFormInput = (v: Values) => blankToUndefined({ ...v, user_id: v.user_id ? Number(v.user_id) : undefined });

/**
 * Where the suggested CE hours come from, under the field: "From the CA Sales CE rule: 45 hours every 4 years,
 * including Ethics 8 h, Agency 3 h" or "Office default (System Settings)".
 */
export function ceHoursSource(defaults: LicenseDefaults): string {
  const { rule } = defaults;
  if (defaults.source !== 'rule' || !rule) return LICENSE_STRINGS.ceFromSettings;
  return LICENSE_STRINGS.ceFromRule(
    rule.state,
    rule.license_type,
    hoursText(rule.hours_required),
    rule.cycle_years,
    rule.topics.map((t) => `${t.topic} ${hoursShort(t.hours)}`),
  );
}

/**
 * Add or edit a license: submit 'Create License' / 'Update License'. Both check the whole license with the
 * shared create schema (the server's messages, the date order), and send what it produced.
 */
export function LicenseFormModal({ opened, license, onClose }: { opened: boolean; license: License | null; onClose: () => void }) {
  const form = useSchemaForm({ schema: createLicenseInput, initialValues: licenseFormValues(license), toInput: licenseFormInput });
  // A new license's CE hours required: the state rule's for the chosen state and type, else the office default.
  const creating = opened && !license;
  const { state, license_type } = form.values;
  const defaults = useLicenseDefaults(creating, state ? { state, license_type } : {});
  const suggested = creating ? defaults.data : undefined;
  // The previous answer stays under the field while the next loads, but only the new one fills it.
  const suggestedHours = creating && !defaults.isPlaceholderData ? defaults.data?.ce_hours_required : undefined;
  // Once the person has typed in the field, a later choice of state or type leaves it alone.
  const typedCeHours = useRef(false);

  // Each opening starts from the selected license (edit) or the defaults (create).
  useEffect(() => {
    if (!opened) return;
    typedCeHours.current = false;
    const v = licenseFormValues(license, license ? 0 : (defaults.data?.ce_hours_required ?? 0));
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, license]);

  // The server's answer for the state and type (or the office default) fills the field, unless typed in.
  useEffect(() => {
    if (suggestedHours === undefined || typedCeHours.current) return;
    form.setFieldValue('ce_hours_required', suggestedHours);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [suggestedHours, defaults.data]);
  const ceHoursInput = form.getInputProps('ce_hours_required');

  // 'Pending Renewal' is not offered, but a license already in it keeps it.
  const statusOptions: string[] = [...LICENSE_FORM_STATUSES];
  if (license && !statusOptions.includes(license.status)) statusOptions.push(license.status);

  const create = useCreateLicense();
  const update = useUpdateLicense();
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((body) => {
    const after = { onSuccess: onClose, onError: (err: unknown) => showServerErrors(form, err) };
    if (license) update.mutate({ id: license.license_id, ...body }, after);
    else create.mutate(body, after);
  });

  return (
    <FormModal
      dirty={form.isDirty()}
      opened={opened}
      onClose={onClose}
      title={license ? LICENSE_STRINGS.editTitle : LICENSE_STRINGS.addTitle}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {/* Only Agents and Brokers, as 'first last (role)', searched on the server; an edited license's holder is read by id. */}
          <ServerSearchSelect<LicenseHolder>
            label="License Holder"
            placeholder="Select an Agent or Broker"
            required
            allowDeselect={false}
            emptyMessage="No Agents or Brokers found"
            useResults={useHolderPicker}
            toOption={holderOption}
            value={form.values.user_id}
            onChange={(v) => form.setFieldValue('user_id', v)}
            error={form.errors.user_id}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="License Number" required {...form.getInputProps('license_number')} />
            {/* Choosing the chosen state again keeps it (a required field is never emptied by a second Enter). */}
            <Select
              label="State"
              required
              searchable
              allowDeselect={false}
              data={[...LICENSE_STATE_CODES]}
              {...form.getInputProps('state')}
            />
            <Select label="License Type" data={[...LICENSE_TYPES]} allowDeselect={false} {...form.getInputProps('license_type')} />
            <Select label="Status" data={statusOptions} allowDeselect={false} {...form.getInputProps('status')} />
            <DateField label="Issue Date" required {...form.getInputProps('issue_date')} />
            <DateField label="Expiration Date" required {...form.getInputProps('expiration_date')} />
            <NumberInput
              label="CE Hours Required"
              description={suggested ? ceHoursSource(suggested) : undefined}
              // Under the input, so the two CE inputs stay side by side however long the rule's topics run.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              min={0}
              step={0.5}
              decimalScale={2}
              {...ceHoursInput}
              onChange={(v) => {
                typedCeHours.current = true;
                ceHoursInput.onChange(v);
              }}
            />
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
    </FormModal>
  );
}
