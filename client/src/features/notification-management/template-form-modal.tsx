import { useEffect, useRef } from 'react';
import {
  Badge,
  Button,
  Divider,
  Grid,
  Group,
  Modal,
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
import { useForm } from '@mantine/form';
import {
  extractVariables,
  NOTIFICATION_STRINGS,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  renderTemplate,
  SAMPLE_VALUES,
  TEMPLATE_MESSAGES,
  TEMPLATE_VARIABLES,
  TEMPLATE_VARIABLE_NAMES,
  TRIGGER_EVENT_LABELS,
  TRIGGER_EVENTS,
  type NotificationTemplate,
  type NotificationType,
  type TriggerEvent,
} from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';
import { fieldErrors } from '../../lib/errors.ts';

interface Values {
  name: string;
  subject: string;
  body: string;
  type: NotificationType;
  trigger_event: TriggerEvent | '';
  is_active: boolean;
}

const DEFAULTS: Values = { name: '', subject: '', body: '', type: 'email', trigger_event: '', is_active: true };

function valuesOf(t: NotificationTemplate | null): Values {
  if (!t) return DEFAULTS;
  return { name: t.name, subject: t.subject, body: t.body, type: t.type, trigger_event: t.trigger_event, is_active: t.is_active };
}

const required = (message: string) => (v: string) => (v.trim() ? null : message);

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
  const utils = trpc.useUtils();
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(template),
    validate: {
      name: required(TEMPLATE_MESSAGES.name),
      subject: required(TEMPLATE_MESSAGES.subject),
      body: required(TEMPLATE_MESSAGES.body),
      trigger_event: required(TEMPLATE_MESSAGES.trigger),
    },
  });

  // Each opening starts from the selected template (edit) or the defaults (add).
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(template);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, template]);

  const done = () => {
    notify.success(NOTIFICATION_STRINGS.saved);
    void utils.admin.notifications.list.invalidate();
    onClose();
  };
  const create = trpc.admin.notifications.create.useMutation({ onSuccess: done });
  const update = trpc.admin.notifications.update.useMutation({ onSuccess: done });
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((v) => {
    const body = {
      name: v.name,
      subject: v.subject,
      body: v.body,
      type: v.type,
      trigger_event: v.trigger_event as TriggerEvent,
      is_active: v.is_active,
      variables: extractVariables(v.subject, v.body),
    };
    const onError = (err: unknown) => {
      form.setErrors(fieldErrors(err));
      notify.failure(err, NOTIFICATION_STRINGS.saveFailed);
    };
    if (template) update.mutate({ id: template.id, ...body }, { onError });
    else create.mutate(body, { onError });
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
    <Modal opened={opened} onClose={onClose} title={template ? NOTIFICATION_STRINGS.editTitle : NOTIFICATION_STRINGS.addTitle} size="70rem">
      <form onSubmit={submit} noValidate>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack>
              <TextInput label="Template Name" required {...form.getInputProps('name')} />
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
                <Title order={6} mb="xs">
                  Preview
                </Title>
                <Text size="xs" c="dimmed">
                  Subject
                </Text>
                <Text fw={600} mb="sm" data-testid="preview-subject" style={{ wordBreak: 'break-word' }}>
                  {renderTemplate(form.values.subject, SAMPLE_VALUES) || '—'}
                </Text>
                <Text size="xs" c="dimmed">
                  Body
                </Text>
                <Text size="sm" data-testid="preview-body" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {renderTemplate(form.values.body, SAMPLE_VALUES) || '—'}
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
    </Modal>
  );
}
