import { useState } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { COMPLETION_STRINGS, type CompletionPerson } from '@lm/shared';
import { useCompletionPeople } from './api.ts';

const nameOf = (p: CompletionPerson) => `${p.first_name} ${p.last_name}`;

/** The licenses under a person's name in the dropdown (several people may share a name). */
function licensesLine(p: CompletionPerson): string {
  if (p.licenses.length === 0) return 'No licenses';
  const shown = p.licenses.slice(0, 3).map((l) => `${l.license_number} (${l.state})`);
  return p.licenses.length > 3 ? `${shown.join(', ')} +${p.licenses.length - 3}` : shown.join(', ');
}

/**
 * The Record Completion form's person select for a School: the Agents and Brokers matching what is typed (name
 * or license number), searched on the server (completions.people, at most 20). It hands the chosen person with
 * their licenses to the form, which offers those licenses.
 */
export function PersonSearchSelect({
  enabled,
  person,
  onChange,
  error,
}: {
  enabled: boolean;
  person: CompletionPerson | null;
  onChange: (person: CompletionPerson | null) => void;
  error?: React.ReactNode;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // Once a person is chosen the input shows their name: that is no new search.
  const term = person && debounced === nameOf(person) ? '' : debounced;
  const people = useCompletionPeople(term, enabled);
  const found = people.data ?? [];
  const all = person && !found.some((p) => p.user_id === person.user_id) ? [person, ...found] : found;
  const byId = new Map(all.map((p) => [String(p.user_id), p]));

  return (
    <Select
      label={COMPLETION_STRINGS.person}
      placeholder={COMPLETION_STRINGS.personPlaceholder}
      required
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has matched name or license number already.
      filter={({ options }) => options}
      nothingFoundMessage={people.isFetching ? 'Searching...' : COMPLETION_STRINGS.personEmpty}
      data={all.map((p) => ({ value: String(p.user_id), label: nameOf(p) }))}
      value={person ? String(person.user_id) : null}
      onChange={(v) => onChange(v ? (byId.get(v) ?? null) : null)}
      renderOption={({ option }) => {
        const p = byId.get(option.value);
        return (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            {p && (
              <Text size="xs" c="dimmed">
                {licensesLine(p)}
              </Text>
            )}
          </Stack>
        );
      }}
      error={error}
    />
  );
}
