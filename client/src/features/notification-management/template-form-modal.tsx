import { useEffect, useRef } from 'react';
import {
  Badge,
  Button,
  Divider,
  Grid,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { FormModal } from '../../components/form-modal.tsx';
import {
  extractVariables,
  NOTIFICATION_MANAGEMENT_STRINGS,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  renderTemplate,
  SAMPLE_VALUES,
  templateCreateInput,
  TEMPLATE_VARIABLES,
  TEMPLATE_VARIABLE_NAMES,
  TRIGGER_EVENT_LABELS,
  TRIGGER_EVENTS,
  type NotificationTemplate,
  type NotificationType,
  type TriggerEvent,
} from '@lm/shared';
import { notify } from '../../lib/notify.ts';
import { blankToUndefined, showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { DraftRestoredAlert, useFormDraft } from '../../lib/dirty-guard.tsx';
import { useSaveTemplate } from './api.ts';
import { usePublicSettings } from '../../lib/public-settings.ts';

// A type (not an interface) so it fits the form helper's Record<string, unknown>.
type Values = {
  name: string;
  subject: string;
  body: string;
  type: NotificationType;
  trigger_event: TriggerEvent | '';
  is_active: boolean;
};

const DEFAULTS: Values = { name: '', subject: '', body: '', type: 'email', trigger_event: '', is_active: true };

function valuesOf(t: NotificationTemplate | null): Values {
  if (!t) return DEFAULTS;
  return { name: t.name, subject: t.subject, body: t.body, type: t.type, trigger_event: t.trigger_event, is_active: t.is_active };
}

/** The form's values as the schema reads them: the variables are those the subject and body use. */
const toInput = (v: Values) => ({ ...blankToUndefined(v), variables: extractVariables(v.subject, v.body) });

/** Add or edit a template, with the {{variable}} list and a live preview rendered with sample values. */
export function TemplateFormModal({
  opened,
  template,
  onClose,
}: {
  opened: boolean;
  template: NotificationTemplate | null;
  onClose: () => void;
}) {
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  // The shared schema's messages (docs/product.md section 5), the same the server answers.
  const form = useSchemaForm({ schema: templateCreateInput, initialValues: valuesOf(template), toInput });
  const { date_format: dateFormat } = usePublicSettings();

  // Each opening starts from the selected template (edit) or the defaults (add).
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(template);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, template]);
  // A long form: unsaved edits survive a reload or an ended session (docs/decisions.md "Nothing lost").
  const draft = useFormDraft(form, opened ? `template.${template?.id ?? 'new'}` : null, () => {
    const v = valuesOf(template);
    form.setValues(v);
    form.resetDirty(v);
  });

  const { create, update, busy } = useSaveTemplate(onClose);

  const submit = form.onSubmit((data) => {
    const onError = (err: unknown) => {
      showServerErrors(form, err);
      notify.failure(err, NOTIFICATION_MANAGEMENT_STRINGS.saveFailed);
    };
    if (template) update.mutate({ id: template.id, ...data }, { onError });
    else create.mutate(data, { onError });
  });

  /** Puts {{name}} into the body at the cursor (or at the end). */
  const insertVariable = (name: string) => {
    const token = `{{${name}}}`;
    const el = bodyRef.current;
    const current = form.values.body;
    const start = el?.selectionStart ?? current.length;
    const end = el?.selectionEnd ?? current.length;
    form.setFieldValue('body', current.slice(0, start) + token + current.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const used = new Set(extractVariables(form.values.subject, form.values.body));

  return (
    <FormModal
      dirty={form.isDirty()}
      opened={opened}
      onClose={onClose}
      title={template ? NOTIFICATION_MANAGEMENT_STRINGS.editTitle : NOTIFICATION_MANAGEMENT_STRINGS.addTitle}
      size="70rem"
    >
      <form onSubmit={submit} noValidate>
        <DraftRestoredAlert draft={draft} />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack>
              <TextInput label="Template Name" required data-autofocus {...form.getInputProps('name')} />
              <Group grow align="flex-start">
                <Select
                  label="Type"
                  data={NOTIFICATION_TYPES.map((t) => ({ value: t, label: NOTIFICATION_TYPE_LABELS[t] }))}
                  allowDeselect={false}
                  {...form.getInputProps('type')}
                />
                <Select
                  label="Trigger Event"
                  required
                  placeholder="Select trigger event"
                  data={TRIGGER_EVENTS.map((t) => ({ value: t, label: TRIGGER_EVENT_LABELS[t] }))}
                  {...form.getInputProps('trigger_event')}
                  value={form.values.trigger_event || null}
                  onChange={(v) => form.setFieldValue('trigger_event', (v ?? '') as TriggerEvent | '')}
                />
              </Group>
              <TextInput label="Subject" required {...form.getInputProps('subject')} />
              <Textarea label="Body" required autosize minRows={7} maxRows={16} ref={bodyRef} {...form.getInputProps('body')} />
              <Switch label="Active" {...form.getInputProps('is_active', { type: 'checkbox' })} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack>
              <div>
                <Text size="sm" fw={500}>
                  Available variables
                </Text>
                <Text size="xs" c="dimmed" mb={6}>
                  Click one to insert it into the body.
                </Text>
                <Group gap={6} aria-label="Available variables">
                  {TEMPLATE_VARIABLE_NAMES.map((name) => (
                    <Tooltip key={name} label={TEMPLATE_VARIABLES[name].description} withArrow>
                      <Badge
                        component="button"
                        type="button"
                        variant={used.has(name) ? 'filled' : 'light'}
                        color="blue"
                        tt="none"
                        style={{ cursor: 'pointer' }}
                        onClick={() => insertVariable(name)}
                      >
                        {`{{${name}}}`}
                      </Badge>
                    </Tooltip>
                  ))}
                </Group>
              </div>
              <Divider />
              <Paper withBorder p="md" radius="md" bg="var(--mantine-color-default-hover)" aria-label="Preview">
                <Title order={3} size="h6" mb="xs">
                  Preview
                </Title>
                <Text size="xs" c="dimmed">
                  Subject
                </Text>
                <Text fw={600} mb="sm" data-testid="preview-subject" style={{ wordBreak: 'break-word' }}>
                  {renderTemplate(form.values.subject, SAMPLE_VALUES, dateFormat) || '—'}
                </Text>
                <Text size="xs" c="dimmed">
                  Body
                </Text>
                <Text size="sm" data-testid="preview-body" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {renderTemplate(form.values.body, SAMPLE_VALUES, dateFormat) || '—'}
                </Text>
              </Paper>
              <Text size="xs" c="dimmed">
                The preview uses sample values; real notifications use the recipient&apos;s own data.
              </Text>
            </Stack>
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {template ? 'Update Template' : 'Create Template'}
          </Button>
        </Group>
      </form>
    </FormModal>
  );
}
