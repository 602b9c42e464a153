import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatHours, formatMoney, hoursOf, hoursText, signedHours } from './format.ts';

describe('formatDate', () => {
  it('shows a calendar date as is, without a time-zone shift', () => {
    expect(formatDate('2026-01-01')).toBe('2026-01-01');
    expect(formatDate('2028-12-31')).toBe('2028-12-31');
  });

  it("shows a timestamp as its day in the reader's locale and time zone", () => {
    const local = new Date(2026, 2, 5, 23, 30); // late evening, local time
    const text = formatDate(local.toISOString());
    expect(text).toBe(local.toLocaleDateString());
    expect(text).toContain('2026');
    expect(text).toMatch(/\b5\b/);
    expect(text).not.toContain(':');
  });

  it('gives the fallback for a missing value and the value itself when unreadable', () => {
    expect(formatDate(null, 'N/A')).toBe('N/A');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('not a date');
  });
});

describe('formatDateTime', () => {
  const local = new Date(2026, 2, 5, 14, 7, 30);

  it('writes the local date and time to the minute, and to the second when asked', () => {
    const text = formatDateTime(local.toISOString());
    expect(text).toContain('2026');
    expect(text).toMatch(/(2:07|14:07)/);
    expect(text).not.toContain(':30');
    expect(formatDateTime(local.toISOString(), '', { seconds: true })).toMatch(/(2:07:30|14:07:30)/);
  });

  it('gives the fallback for a missing value and the value itself when unreadable', () => {
    expect(formatDateTime(null, 'Never')).toBe('Never');
    expect(formatDateTime('', 'N/A')).toBe('N/A');
    expect(formatDateTime('garbage')).toBe('garbage');
  });
});

describe('formatMoney and formatCount', () => {
  it('writes dollars with a separator and 2 decimals', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(19.9)).toBe('$19.90');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
  });

  it('writes counts with thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});

describe('CE hours', () => {
  it('writes hours with at most 2 decimals and no trailing zeros', () => {
    expect(formatHours(12)).toBe('12');
    expect(formatHours(4.5)).toBe('4.5');
    expect(formatHours(1.25)).toBe('1.25');
    expect(formatHours(1 / 3)).toBe('0.33');
  });

  it('writes hours, singular and signed', () => {
    expect(hoursText(1)).toBe('1 hour');
    expect(hoursText(4.5)).toBe('4.5 hours');
    expect(hoursOf(4.5, 12)).toBe('4.5 of 12 hours');
    expect(hoursOf(0, 1)).toBe('0 of 1 hour');
    expect(signedHours(2)).toBe('+2');
    expect(signedHours(-1.25)).toBe('−1.25');
  });
});
