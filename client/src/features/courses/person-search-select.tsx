import { Stack, Text } from '@mantine/core';
import { COMPLETION_STRINGS, type CompletionPerson } from '@lm/shared';
import { ServerSearchSelect } from '../../components/server-search-select.tsx';
import { useCompletionPeople } from './api.ts';

const personOption = (p: CompletionPerson) => ({ value: String(p.user_id), label: `${p.first_name} ${p.last_name}` });

/** The licenses under a person's name in the dropdown (several people may share a name). */
function licensesLine(p: CompletionPerson): string {
  if (p.licenses.length === 0) return 'No licenses';
  const shown = p.licenses.slice(0, 3).map((l) => `${l.license_number} (${l.state})`);
  return p.licenses.length > 3 ? `${shown.join(', ')} +${p.licenses.length - 3}` : shown.join(', ');
}

/**
 * The Record Completion form's person select for a School: the Agents and Brokers matching what is typed (name
 * or license number), searched on the server (completions.people, at most 20) through the one searching picker.
 * It hands the chosen person with their licenses to the form, which offers those licenses.
 */
export function PersonSearchSelect({
  person,
  onChange,
  error,
}: {
  person: CompletionPerson | null;
  onChange: (person: CompletionPerson | null) => void;
  error?: React.ReactNode;
}) {
  return (
    <ServerSearchSelect<CompletionPerson>
      label={COMPLETION_STRINGS.person}
      placeholder={COMPLETION_STRINGS.personPlaceholder}
      required
      emptyMessage={COMPLETION_STRINGS.personEmpty}
      useResults={useCompletionPeople}
      toOption={personOption}
      value={person ? String(person.user_id) : null}
      selected={person}
      onChange={(_, p) => onChange(p)}
      renderItem={(p, option) => (
        <Stack gap={0}>
          <Text size="sm">{option.label}</Text>
          <Text size="xs" c="dimmed">
            {licensesLine(p)}
          </Text>
        </Stack>
      )}
      error={error}
    />
  );
}
