import { lazy, Suspense } from 'react';
import { TextInput } from '@mantine/core';
import type { DateInputProps } from '@mantine/dates';
import { dateInputFormat, formatDate } from '../lib/format.ts';

export type DateFieldProps = Omit<DateInputProps, 'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser'> & {
  /** YYYY-MM-DD, or '' / null when empty. */
  value?: string | null;
  /** YYYY-MM-DD, or '' once emptied. */
  onChange: (value: string) => void;
};

// The calendar and dayjs load with the first date field drawn, not with every list and form (docs/performance.md).
const DateFieldInput = lazy(() => import('./date-field-input.tsx'));

/**
 * Every date input: shown and typed in the office's format (Settings › General, lib/format.ts), always YYYY-MM-DD to
 * the form and the server. Typing takes the office's format or YYYY-MM-DD; the calendar picks too. While its code
 * loads, the same field read-only with the same value, so nothing moves and nothing typed is lost.
 */
export function DateField(props: DateFieldProps) {
  const { label, description, error, required, withAsterisk, w, miw, maw, placeholder, value, 'aria-label': ariaLabel } = props;
  return (
    <Suspense
      fallback={
        <TextInput
          label={label}
          description={description}
          error={error}
          required={required}
          withAsterisk={withAsterisk}
          w={w}
          miw={miw}
          maw={maw}
          aria-label={ariaLabel}
          placeholder={placeholder ?? dateInputFormat()}
          value={formatDate(value)}
          readOnly
        />
      }
    >
      <DateFieldInput {...props} />
    </Suspense>
  );
}
