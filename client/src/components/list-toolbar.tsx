import type { ReactNode } from 'react';
import { Card, Group, Select, TextInput, type ComboboxData, type MantineSpacing, type MantineStyleProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useUrlSearch } from '../lib/use-url-state.ts';
import { ExportButton } from './export-button.tsx';
import { DateField } from './date-field.tsx';
import { ServerSearchSelect, type ServerSearchSelectProps } from './server-search-select.tsx';

type Width = MantineStyleProps['w'];

/** The Status filter of a list with an active flag (users, courses): 'active' / 'inactive' in the URL. */
export const ACTIVE_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

interface FieldBase<K extends string> {
  /** The list filter (a key of useListState's `filters`) the field reads and sets. */
  name: K;
  /** The visible label ('Status'); or `ariaLabel`, the accessible name of a field shown without one ('Filter by role'). */
  label?: string;
  ariaLabel?: string;
  placeholder?: string;
  w: Width;
  /** What the field shows when the filter's value is not simply `filters[name]` (e.g. an older URL key). */
  value?: string;
  /** Sets more than the one filter (e.g. clears a dependent one); `setFilters({ [name]: value })` otherwise. */
  onChange?: (value: string) => void;
}

/** Typed text that reaches the URL a moment later (useUrlSearch): a search box, or a free-text filter. */
export interface ToolbarText<K extends string> extends FieldBase<K> {
  type: 'search' | 'text';
  /** The debounce in ms (300 unless the list says otherwise). */
  wait?: number;
  inputMode?: 'numeric';
}

/** A choice among `data`; cleared it is '' (all). */
export interface ToolbarSelect<K extends string> extends FieldBase<K> {
  type?: 'select';
  data: ComboboxData;
  searchable?: boolean;
}

/** A calendar date (YYYY-MM-DD), optionally bounded by `min` / `max`. */
export interface ToolbarDate<K extends string> extends FieldBase<K> {
  type: 'date';
  min?: string;
  max?: string;
}

/**
 * A choice the server searches as the person types (components/server-search-select.tsx): a filter among more
 * than a list can load (owners, licenses, brokerages). `picker.useResults` is the feature's query hook.
 */
export interface ToolbarPicker<K extends string> extends FieldBase<K> {
  type: 'picker';
  picker: PickerField;
}

/** A searching picker's own props, with its item type left open (each field names its own). */
export type PickerField = Pick<ServerSearchSelectProps<never>, 'toOption' | 'emptyMessage' | 'renderItem'> & {
  useResults: ServerSearchSelectProps<unknown>['useResults'];
};

export type ToolbarField<K extends string> = ToolbarText<K> | ToolbarSelect<K> | ToolbarDate<K> | ToolbarPicker<K>;

export interface ListToolbarProps<F extends Record<string, string>> {
  /** The list's state in the URL (lib/use-url-state.ts useListState): the fields read and set its filters. */
  list: { filters: F; setFilters: (patch: Partial<F>) => void };
  /** The filters in order; false / null / undefined leave one out (one the caller's role does not have). */
  fields: (ToolbarField<keyof F & string> | false | null | undefined)[];
  /** Controls of the list's own after the fields (the audit log's "Clear filters"). */
  children?: ReactNode;
  /** Export CSV of the list's current view (components/export-button.tsx): its path, its query and what the rows are. */
  exportCsv?: { path: string; params: Record<string, string | number | undefined>; things: string };
  /** On the right after Export CSV: the list's own buttons (e.g. "Add License"). */
  actions?: ReactNode;
  /**
   * 'bar' (the default): the fields on the left, Export and the actions on the right, above the table.
   * 'card': the fields in a bordered card (the page header holds Export and the actions).
   */
  variant?: 'bar' | 'card';
  mb?: MantineSpacing;
}

function TextField({ field, value, onChange }: { field: ToolbarText<string>; value: string; onChange: (value: string) => void }) {
  // The box types freely; the URL (and the query) follow a moment later.
  const [text, onText] = useUrlSearch(value, onChange, field.wait);
  return (
    <TextInput
      label={field.label}
      aria-label={field.ariaLabel}
      placeholder={field.placeholder}
      leftSection={field.type === 'search' ? <IconSearch size={16} /> : undefined}
      inputMode={field.inputMode}
      value={text}
      onChange={(e) => onText(e.currentTarget.value)}
      w={field.w}
    />
  );
}

function Field({ field, value, onChange }: { field: ToolbarField<string>; value: string; onChange: (value: string) => void }) {
  switch (field.type) {
    case 'search':
    case 'text':
      return <TextField field={field} value={value} onChange={onChange} />;
    case 'date':
      return (
        <DateField
          label={field.label}
          aria-label={field.ariaLabel}
          value={value}
          minDate={field.min || undefined}
          maxDate={field.max || undefined}
          onChange={onChange}
          clearable
          w={field.w}
        />
      );
    case 'picker':
      return (
        <ServerSearchSelect<unknown>
          {...(field.picker as Pick<ServerSearchSelectProps<unknown>, 'useResults' | 'toOption' | 'emptyMessage' | 'renderItem'>)}
          label={field.label}
          aria-label={field.ariaLabel}
          placeholder={field.placeholder}
          value={value || null}
          onChange={(v) => onChange(v ?? '')}
          clearable
          w={field.w}
        />
      );
    default:
      return (
        <Select
          label={field.label}
          aria-label={field.ariaLabel}
          placeholder={field.placeholder}
          data={field.data}
          value={value || null}
          onChange={(v) => onChange(v ?? '')}
          searchable={field.searchable}
          clearable
          w={field.w}
        />
      );
  }
}

/**
 * The one filter bar of a list (docs/architecture.md "Client"): a search box, filter selects, text and date
 * filters, each bound to a filter of the list's URL state (a change returns to page 1), then Export CSV of the same
 * view and the list's own buttons.
 */
export function ListToolbar<F extends Record<string, string>>({
  list,
  fields,
  children,
  exportCsv,
  actions,
  variant = 'bar',
  mb,
}: ListToolbarProps<F>) {
  const controls = (
    <Group align="flex-end" wrap="wrap" gap="sm">
      {fields.map(
        (field) =>
          field && (
            <Field
              key={field.name}
              field={field}
              value={field.value ?? list.filters[field.name] ?? ''}
              onChange={field.onChange ?? ((value) => list.setFilters({ [field.name]: value } as Partial<F>))}
            />
          ),
      )}
      {children}
    </Group>
  );
  const right = (exportCsv || actions) && (
    <Group gap="sm">
      {exportCsv && <ExportButton {...exportCsv} />}
      {actions}
    </Group>
  );
  if (variant === 'card') {
    return (
      <Card withBorder padding="sm" mb={mb}>
        <Group justify="space-between" align="flex-end" wrap="wrap">
          {controls}
          {right}
        </Group>
      </Card>
    );
  }
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" mb={mb}>
      {controls}
      {right}
    </Group>
  );
}
