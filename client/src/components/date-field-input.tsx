import { useState } from 'react';
import { DateInput } from '@mantine/dates';
import { dateInputFormat, parseDateInput } from '../lib/format.ts';
import type { DateFieldProps } from './date-field.tsx';

/**
 * The date input itself (Mantine's DateInput and dayjs), a chunk of its own: components/date-field.tsx loads it. The
 * calendar opens on a click or ArrowDown, not on focus, and closes once a date is typed or picked, on Escape (which
 * then does not also close the dialog around it) and when the field is left: a typed date never leaves a calendar
 * over the form's buttons.
 */
export default function DateFieldInput({
  value,
  onChange,
  placeholder,
  popoverProps,
  onClick,
  onKeyDown,
  onBlur,
  ...props
}: DateFieldProps) {
  const format = dateInputFormat();
  const [open, setOpen] = useState(false);
  return (
    <DateInput
      {...props}
      value={value || null}
      onChange={(v) => {
        setOpen(false);
        onChange(v ?? '');
      }}
      valueFormat={format}
      dateParser={parseDateInput}
      placeholder={placeholder ?? format}
      popoverProps={{ ...popoverProps, opened: open, onChange: setOpen }}
      onClick={(e) => {
        setOpen(true);
        onClick?.(e);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') setOpen(true);
        if (e.key === 'Escape' && open) {
          setOpen(false);
          e.stopPropagation();
        }
        onKeyDown?.(e);
      }}
      onBlur={(e) => {
        setOpen(false);
        onBlur?.(e);
      }}
    />
  );
}
