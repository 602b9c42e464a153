import { useEffect } from 'react';
import { ActionIcon, Button, Checkbox, Group, Input, NumberInput, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { FormModal } from '../../components/form-modal.tsx';
import { randomId } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  CE_STRINGS,
  CE_TOPICS,
  ceRuleCreateInput,
  DEFAULT_CYCLE_YEARS,
  LICENSE_STATE_CODES,
  LICENSE_TYPES,
  type CeRule,
  type CeTopic,
  type LicenseType,
} from '@lm/shared';
import { showServerErrors, useSchemaForm } from '../../lib/schema-form.ts';
import { useCreateCeRule, useUpdateCeRule } from './api.ts';

interface TopicRow {
  key: string;
  topic: CeTopic | null;
  hours: number | string;
}

interface Values extends Record<string, unknown> {
  state: string | null;
  license_type: LicenseType;
  hours_required: number | string;
  cycle_years: number | string;
  topics: TopicRow[];
  allow_repeat_credit: boolean;
  notes: string;
}

function valuesOf(rule: CeRule | null): Values {
  if (!rule) {
    return {
      state: null,
      license_type: 'Sales',
      hours_required: '',
      cycle_years: DEFAULT_CYCLE_YEARS,
      topics: [],
      allow_repeat_credit: false,
      notes: '',
    };
  }
  return {
    state: rule.state,
    license_type: rule.license_type,
    hours_required: rule.hours_required,
    cycle_years: rule.cycle_years,
    topics: rule.topics.map((t) => ({ key: randomId(), topic: t.topic, hours: t.hours })),
    allow_repeat_credit: rule.allow_repeat_credit,
    notes: rule.notes ?? '',
  };
}

const num = (v: number | string) => (v === '' ? undefined : Number(v));

/** The form's values as the shared schema reads them (emptied numbers and topics are absent: the schema says what is missing). */
export function ruleFormInput(v: Values) {
  return {
    state: v.state ?? undefined,
    license_type: v.license_type,
    hours_required: num(v.hours_required),
    cycle_years: num(v.cycle_years),
    topics: v.topics.map((t) => ({ topic: t.topic ?? undefined, hours: num(t.hours) })),
    allow_repeat_credit: v.allow_repeat_credit,
    notes: v.notes,
  };
}

/** Add or edit a state CE rule: hours per cycle, cycle length, and the required topics with their hours. */
export function CeRuleFormModal({ opened, rule, onClose }: { opened: boolean; rule: CeRule | null; onClose: () => void }) {
  const form = useSchemaForm({ schema: ceRuleCreateInput, initialValues: valuesOf(rule), toInput: ruleFormInput });

  // Each opening starts from the selected rule (edit) or an empty one (create).
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(rule);
    form.setValues(v);
    form.resetDirty(v);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, rule]);

  const create = useCreateCeRule();
  const update = useUpdateCeRule();
  const busy = create.isPending || update.isPending;

  const submit = form.onSubmit((body) => {
    const callbacks = { onSuccess: onClose, onError: (err: unknown) => showServerErrors(form, err) };
    if (rule) update.mutate({ id: rule.rule_id, ...body }, callbacks);
    else create.mutate(body, callbacks);
  });

  const topics = form.values.topics;
  const topicTotal = topics.reduce((s, t) => s + (Number(t.hours) || 0), 0);
  const chosen = new Set(topics.map((t) => t.topic));
  const topicsError = form.errors.topics;

  return (
    <FormModal dirty={form.isDirty()} opened={opened} onClose={onClose} title={rule ? CE_STRINGS.editRule : CE_STRINGS.addRule} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select label="State" required searchable data={[...LICENSE_STATE_CODES]} {...form.getInputProps('state')} />
            <Select label="License Type" data={[...LICENSE_TYPES]} allowDeselect={false} {...form.getInputProps('license_type')} />
            <NumberInput
              label="Hours per cycle"
              required
              min={0}
              max={1000}
              step={1}
              decimalScale={2}
              {...form.getInputProps('hours_required')}
            />
            <NumberInput
              label="Cycle length (years)"
              required
              min={1}
              max={10}
              step={1}
              allowDecimal={false}
              {...form.getInputProps('cycle_years')}
            />
          </SimpleGrid>

          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm" fw={500}>
                Required topics
              </Text>
              <Text size="xs" c="dimmed" data-testid="topics-total">
                {Math.round(topicTotal * 100) / 100} of {form.values.hours_required === '' ? 0 : form.values.hours_required} hours in topics
              </Text>
            </Group>
            {topics.length === 0 && (
              <Text size="sm" c="dimmed">
                No topic requirements: any approved CE counts.
              </Text>
            )}
            {topics.map((t, i) => (
              <Group key={t.key} align="flex-start" gap="xs" wrap="nowrap">
                <Select
                  aria-label={`Topic ${i + 1}`}
                  placeholder="Topic"
                  searchable
                  data={CE_TOPICS.filter((c) => c === t.topic || !chosen.has(c))}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`topics.${i}.topic`)}
                />
                <NumberInput
                  aria-label={`Hours of topic ${i + 1}`}
                  placeholder="Hours"
                  min={0}
                  step={1}
                  decimalScale={2}
                  w={110}
                  {...form.getInputProps(`topics.${i}.hours`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={`Remove topic ${i + 1}${t.topic ? ` (${t.topic})` : ''}`}
                  onClick={() => form.removeListItem('topics', i)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            {typeof topicsError === 'string' && <Input.Error role="alert">{topicsError}</Input.Error>}
            <Group>
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                disabled={topics.length >= CE_TOPICS.length}
                onClick={() => form.insertListItem('topics', { key: randomId(), topic: null, hours: '' })}
              >
                Add topic
              </Button>
            </Group>
          </Stack>

          <Checkbox
            label="A course completed again in the same cycle counts again"
            description="Most states give credit for a course once per renewal period; tick this only where the state allows repeats."
            {...form.getInputProps('allow_repeat_credit', { type: 'checkbox' })}
          />

          <Textarea label="Notes" autosize minRows={2} maxRows={5} {...form.getInputProps('notes')} />

          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {rule ? CE_STRINGS.updateRule : CE_STRINGS.createRule}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
