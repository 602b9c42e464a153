import { useEffect, useState } from 'react';
import { Alert, Button, Card, NumberInput, Select, Skeleton, Stack, Switch, Tabs, Textarea, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import { DEFAULT_SETTINGS, SETTINGS_RANGES, SETTINGS_STRINGS, SETTINGS_TABS, settingsSchema, type Settings } from '@lm/shared';
import { notify } from '../../lib/notify.ts';
import { fieldErrors, httpStatus } from '../../lib/errors.ts';
import { useSchemaForm } from '../../lib/schema-form.ts';
import { useAuth } from '../../lib/auth.tsx';
import { DraftRestoredAlert, useFormDraft } from '../../lib/dirty-guard.tsx';
import { useDeliveryStatus, useResetSettings, useSettings, useUpdateSettings } from './api.ts';
import { confirm } from '../../components/confirm.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryError } from '../../components/query-error.tsx';
import {
  DATE_FORMAT_OPTIONS,
  FREQUENCY_OPTIONS,
  LOG_LEVEL_OPTIONS,
  NUMBER_FIELDS,
  SETTING_LABELS,
  SMS_UNAVAILABLE,
  type SWITCH_FIELDS,
} from './settings-fields.ts';

type TabValue = (typeof SETTINGS_TABS)[number]['value'];

/** The form's own view of a setting: a number input may be empty while the user types. */
type FormValues = { [K in keyof Settings]: Settings[K] extends number ? number | string : Settings[K] };

const tabOf = (field: string): TabValue | undefined => SETTINGS_TABS.find((t) => (t.fields as readonly string[]).includes(field))?.value;

/** The form's values as the schema reads them: an emptied number is absent (the schema's "not a number" message). */
function toInput(values: FormValues): Record<string, unknown> {
  const input: Record<string, unknown> = { ...values };
  for (const f of NUMBER_FIELDS) if (input[f] === '') input[f] = undefined;
  return input;
}

export function SettingsPage() {
  const query = useSettings();
  // docs/product.md section 4: a 404 from the settings call means the defaults are used.
  const notFound = query.isError && httpStatus(query.error) === 404;
  const failed = query.isError && !notFound;

  useEffect(() => {
    if (failed) notify.error(SETTINGS_STRINGS.fetchFailed);
  }, [failed]);

  if (failed) {
    return (
      <>
        <PageHeader title={SETTINGS_STRINGS.title} />
        <QueryError things="system settings" query={query} />
      </>
    );
  }
  const initial = query.data?.settings ?? (notFound ? DEFAULT_SETTINGS : null);
  if (!initial) {
    return (
      <>
        <PageHeader title={SETTINGS_STRINGS.title} />
        <Stack>
          <Skeleton h={36} />
          <Skeleton h={320} />
        </Stack>
      </>
    );
  }
  return <SettingsForm initial={initial} />;
}

function SettingsForm({ initial }: { initial: Settings }) {
  const [tab, setTab] = useState<TabValue>('general');
  // The shared schema's messages (docs/product.md section 5), the same the server answers.
  const form = useSchemaForm({ schema: settingsSchema, initialValues: initial as FormValues, toInput });
  const saved = (settings: Settings) => {
    form.setInitialValues(settings);
    form.setValues(settings);
    form.resetDirty(settings);
  };
  // Unsaved edits ask before leaving and survive a reload or an ended session (docs/decisions.md "Nothing lost").
  const { user } = useAuth();
  const draft = useFormDraft(form, user ? `settings.${user.user_id}` : null);
  const update = useUpdateSettings(saved);
  const reset = useResetSettings(saved);

  // Whether an SMS gateway exists (none yet): the SMS switch is not offered without one.
  const delivery = useDeliveryStatus();
  const smsGateway = delivery.data?.sms_gateway ?? false;

  const showErrorsTab = (errors: Record<string, unknown>) => {
    const first = Object.keys(errors).map(tabOf).find(Boolean);
    if (first && !Object.keys(errors).some((k) => tabOf(k) === tab)) setTab(first);
  };

  const onSave = (settings: Settings) => {
    update.mutate(
      { settings },
      {
        onError: (err) => {
          // The server names the fields under `settings.`; the form's are bare.
          const errors = Object.fromEntries(Object.entries(fieldErrors(err)).map(([k, v]) => [k.replace(/^settings\./, ''), v]));
          form.setErrors(errors);
          showErrorsTab(errors);
        },
      },
    );
  };

  const onReset = async () => {
    if (!(await confirm(SETTINGS_STRINGS.resetConfirm, { title: SETTINGS_STRINGS.reset, confirmLabel: 'Reset' }))) return;
    reset.mutate();
  };

  const text = (field: 'app_name' | 'support_email' | 'support_phone', required = false) => (
    <TextInput {...SETTING_LABELS[field]} withAsterisk={required} key={form.key(field)} {...form.getInputProps(field)} />
  );
  const number = (field: (typeof NUMBER_FIELDS)[number], step = 1) => (
    <NumberInput
      {...SETTING_LABELS[field]}
      min={SETTINGS_RANGES[field].min}
      max={SETTINGS_RANGES[field].max}
      step={step}
      allowDecimal={step !== 1}
      // Keep what was typed, so an out-of-range value shows its message instead of silently changing.
      clampBehavior="none"
      key={form.key(field)}
      {...form.getInputProps(field)}
    />
  );
  const toggle = (field: (typeof SWITCH_FIELDS)[number]) => (
    <Switch {...SETTING_LABELS[field]} key={form.key(field)} {...form.getInputProps(field, { type: 'checkbox' })} />
  );

  return (
    <form onSubmit={form.onSubmit(onSave, showErrorsTab)} noValidate>
      <PageHeader
        title={SETTINGS_STRINGS.title}
        actions={
          <>
            <Button variant="default" leftSection={<IconRestore size={16} />} onClick={() => void onReset()} loading={reset.isPending}>
              {SETTINGS_STRINGS.reset}
            </Button>
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={update.isPending}>
              {SETTINGS_STRINGS.save}
            </Button>
          </>
        }
      />
      <DraftRestoredAlert draft={draft} />
      {form.values.maintenance_mode && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} mb="md" title="Maintenance mode">
          While maintenance mode is on, only Admins can use the system.
        </Alert>
      )}
      <Card withBorder radius="md" padding="lg">
        <Tabs value={tab} onChange={(v) => v && setTab(v as TabValue)} keepMounted>
          <Tabs.List mb="lg">
            {SETTINGS_TABS.map((t) => (
              <Tabs.Tab key={t.value} value={t.value}>
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>

          <Tabs.Panel value="general">
            <Stack maw={560}>
              {text('app_name', true)}
              <Textarea
                {...SETTING_LABELS.app_description}
                autosize
                minRows={2}
                key={form.key('app_description')}
                {...form.getInputProps('app_description')}
              />
              {text('support_email', true)}
              {text('support_phone')}
              <Select
                {...SETTING_LABELS.date_format}
                data={DATE_FORMAT_OPTIONS}
                allowDeselect={false}
                key={form.key('date_format')}
                {...form.getInputProps('date_format')}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="license">
            <Stack maw={560}>
              {number('default_ce_hours', 0.5)}
              {number('license_expiry_warning_days')}
              {toggle('auto_renewal_enabled')}
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="notifications">
            <Stack maw={560}>
              {toggle('email_notifications_enabled')}
              <Switch
                {...SETTING_LABELS.sms_notifications_enabled}
                description={smsGateway ? SETTING_LABELS.sms_notifications_enabled.description : SMS_UNAVAILABLE}
                disabled={!smsGateway}
                key={form.key('sms_notifications_enabled')}
                {...form.getInputProps('sms_notifications_enabled', { type: 'checkbox' })}
              />
              <Select
                {...SETTING_LABELS.notification_frequency}
                data={FREQUENCY_OPTIONS}
                allowDeselect={false}
                key={form.key('notification_frequency')}
                {...form.getInputProps('notification_frequency')}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="security">
            <Stack maw={560}>
              {number('password_min_length')}
              {number('session_timeout_minutes')}
              {number('max_login_attempts')}
              {number('lockout_duration_minutes')}
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="uploads">
            <Stack maw={560}>
              {number('max_file_size_mb')}
              <TextInput
                {...SETTING_LABELS.allowed_file_types}
                key={form.key('allowed_file_types')}
                {...form.getInputProps('allowed_file_types')}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="system">
            <Stack maw={560}>
              {toggle('maintenance_mode')}
              {toggle('debug_mode')}
              <Select
                {...SETTING_LABELS.log_level}
                data={LOG_LEVEL_OPTIONS}
                allowDeselect={false}
                key={form.key('log_level')}
                {...form.getInputProps('log_level')}
              />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Card>
    </form>
  );
}
