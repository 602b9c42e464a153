import { useState, type ReactNode } from 'react';
import { Select, type ComboboxItem, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';

/** What a picker's query hook answers: the matches of the typed text (undefined before the first answer). */
export interface PickerResults<T> {
  data: T[] | undefined;
  isFetching: boolean;
}

/**
 * What a picker asks its endpoint (shared/src/pickers.ts pickerQuery): the typed text ('' = the first page), or
 * `ids`, the chosen value to show by name when it is not known yet (an edit form, a filter read from the URL).
 */
export interface PickerAsk {
  search: string;
  ids?: string;
}

/** The debounce between a keystroke and the server's search. */
export const PICKER_DEBOUNCE_MS = 250;

export interface ServerSearchSelectProps<T> extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter' | 'renderOption' | 'nothingFoundMessage'
> {
  /**
   * The feature's query hook (components never import features), e.g. the holder picker's GET /licenses/holders:
   * the first matches of `ask.search`, or the items of `ask.ids`; asked only while `enabled`. It is called twice:
   * for the matches (once the field is used) and for the chosen value when its item is not known.
   */
  useResults: (ask: PickerAsk, enabled: boolean) => PickerResults<T>;
  /** The item as an option: its id as text and the label the input shows once chosen. */
  toOption: (item: T) => ComboboxItem;
  /** The chosen value (an id as text), or null. */
  value: string | null;
  /**
   * The chosen item when the caller knows it (an edit form's current holder, one read by id): shown by name even
   * when it is not among the matches.
   */
  selected?: T | null;
  /** The chosen value's label while its item is unknown (e.g. a payment's payer who no longer holds a license). */
  valueLabel?: string;
  onChange: (value: string | null, item: T | null) => void;
  /** Options offered before the matches whatever is typed (e.g. "None"). */
  fixed?: ComboboxItem[];
  /** "No Agents or Brokers found": what the list says when nothing matches. */
  emptyMessage: string;
  /** More than the label in the dropdown (e.g. a person's licenses under the name). */
  renderItem?: (item: T, option: ComboboxItem) => ReactNode;
}

/**
 * The one searching picker (docs/decisions.md "Pickers search the server"): a searchable Mantine Select whose
 * options are what the server found for the typed text (debounced; the server has matched, so the options are
 * not filtered again here), "Searching..." while it asks, the empty message when nothing matches. The chosen
 * option stays shown when a later search does not find it. Being a Mantine combobox, it keeps its label, the
 * arrow keys and the listbox roles.
 */
export function ServerSearchSelect<T>({
  useResults,
  toOption,
  value,
  selected,
  valueLabel,
  onChange,
  fixed = [],
  emptyMessage,
  renderItem,
  onDropdownOpen,
  ...props
}: ServerSearchSelectProps<T>) {
  const [search, setSearch] = useState('');
  const [used, setUsed] = useState(false);
  const [debounced] = useDebouncedValue(search, PICKER_DEBOUNCE_MS);
  // The item last chosen here: it keeps its label whatever is searched next.
  const [picked, setPicked] = useState<T | null>(null);
  const isValue = (item: T | null | undefined): item is T => item != null && value !== null && toOption(item).value === value;
  const given = isValue(selected) ? selected : isValue(picked) ? picked : undefined;
  // A chosen value nobody has named yet (an edit form's, a filter's from the URL) is read by id.
  const unknown = value !== null && !given && !fixed.some((o) => o.value === value);
  const chosenRead = useResults({ search: '', ids: value ?? '' }, unknown);
  const chosen = given ?? (unknown ? chosenRead.data?.find(isValue) : undefined);
  const chosenLabel = chosen
    ? toOption(chosen).label
    : (fixed.find((o) => o.value === value)?.label ?? (value !== null ? valueLabel : undefined));
  // Once an option is chosen the input shows its label: that is no new search.
  const term = debounced === chosenLabel ? '' : debounced.trim();
  const results = useResults({ search: term }, used);
  const found = results.data ?? [];
  const byValue = new Map<string, T>();
  for (const item of found) byValue.set(toOption(item).value, item);
  if (chosen && value !== null && !byValue.has(value)) byValue.set(value, chosen);
  const options = [...fixed, ...[...byValue.values()].map(toOption)];
  if (value !== null && chosenLabel !== undefined && !options.some((o) => o.value === value))
    options.unshift({ value, label: chosenLabel });
  // Mantine keeps the search text apart from the value; what is being typed is what the server is asked.
  const waiting = results.isFetching || search.trim() !== debounced.trim();

  return (
    <Select
      {...props}
      searchable
      searchValue={search}
      onSearchChange={(s) => {
        setSearch(s);
        if (s !== chosenLabel) setUsed(true);
      }}
      onDropdownOpen={() => {
        setUsed(true);
        onDropdownOpen?.();
      }}
      // The server has matched already.
      filter={({ options: all }) => all}
      nothingFoundMessage={waiting ? 'Searching...' : emptyMessage}
      data={options}
      value={value}
      onChange={(v) => {
        const item = v === null ? null : (byValue.get(v) ?? null);
        setPicked(item);
        onChange(v, item);
      }}
      renderOption={
        renderItem
          ? ({ option }) => {
              const item = byValue.get(option.value);
              return item ? renderItem(item, option) : option.label;
            }
          : undefined
      }
    />
  );
}
