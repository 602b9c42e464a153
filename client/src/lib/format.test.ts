import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  dateInputFormat,
  formatCount,
  formatDate,
  formatDatesIn,
  formatDateTime,
  formatHours,
  formatMoney,
  formatTime,
  hoursOf,
  hoursText,
  officeToday,
  parseDateInput,
  setOfficeCalendar,
  signedHours,
  spanText,
  type OfficeCalendar,
} from './format.ts';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const office = (over: Partial<OfficeCalendar> = {}) =>
  setOfficeCalendar({ date_format: 'MM/DD/YYYY', time_zone: 'America/New_York', today: '2026-12-04', ...over });

// The office's calendar is one per page: every test starts from the defaults (the browser's zone, no answer yet).
afterEach(() => {
  vi.useRealTimers();
  setOfficeCalendar({ date_format: 'MM/DD/YYYY', time_zone: BROWSER_ZONE, today: '' });
});

describe('formatDate', () => {
  it("writes a calendar date in the office's format, without a time-zone shift", () => {
    expect(formatDate('2026-01-01')).toBe('01/01/2026');
    expect(formatDate('2028-12-31')).toBe('12/31/2028');
    office({ date_format: 'YYYY-MM-DD', time_zone: 'Pacific/Kiritimati' });
    expect(formatDate('2028-12-31')).toBe('2028-12-31');
  });

  it("writes a timestamp as its day in the office's time zone", () => {
    // 03:30 UTC on 5 March is still 4 March in New York, already 5 March in Kiritimati (UTC+14).
    office();
    expect(formatDate('2026-03-05T03:30:00.000Z')).toBe('03/04/2026');
    office({ time_zone: 'Pacific/Kiritimati', date_format: 'YYYY-MM-DD' });
    expect(formatDate('2026-03-05T03:30:00.000Z')).toBe('2026-03-05');
  });

  it('gives the fallback for a missing value and the value itself when unreadable', () => {
    expect(formatDate(null, 'N/A')).toBe('N/A');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('not a date');
  });
});

describe('formatDateTime and formatTime', () => {
  const at = '2026-03-05T19:07:30.000Z'; // 2:07:30 PM in New York (EST)

  it("writes the office's date and time to the minute, and to the second when asked", () => {
    office({ time_zone: BROWSER_ZONE });
    const local = new Date(at);
    const hour = local.getHours();
    const h12 = hour % 12 || 12;
    const min = String(local.getMinutes()).padStart(2, '0');
    expect(formatDateTime(at)).toBe(`${formatDate(at)} ${h12}:${min} ${hour < 12 ? 'AM' : 'PM'}`);
    expect(formatDateTime(at, '', { seconds: true })).toContain(`${h12}:${min}:30 `);
  });

  it("says the office's zone to a reader elsewhere, and writes 24-hour times with YYYY-MM-DD", () => {
    const zone = BROWSER_ZONE === 'America/New_York' ? 'America/Chicago' : 'America/New_York';
    office({ time_zone: zone });
    expect(formatDateTime(at)).toBe(zone === 'America/New_York' ? '03/05/2026 2:07 PM EST' : '03/05/2026 1:07 PM CST');
    office({ time_zone: zone, date_format: 'YYYY-MM-DD' });
    expect(formatDateTime(at, '', { seconds: true })).toBe(
      zone === 'America/New_York' ? '2026-03-05 14:07:30 EST' : '2026-03-05 13:07:30 CST',
    );
    expect(formatTime(at)).toBe(zone === 'America/New_York' ? '14:07 EST' : '13:07 CST');
  });

  it('gives the fallback for a missing value and the value itself when unreadable', () => {
    expect(formatDateTime(null, 'Never')).toBe('Never');
    expect(formatDateTime('', 'N/A')).toBe('N/A');
    expect(formatDateTime('garbage')).toBe('garbage');
  });
});

describe("the office's today", () => {
  it("is the server's date, not the browser's: 9:30 p.m. in California is already tomorrow in New York", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T05:30:00Z')); // 9:30 PM Pacific on 4 December, 12:30 AM in New York on 5 December
    office({ today: '2026-12-05' });
    expect(officeToday()).toBe('2026-12-05');
    // The page stays open past midnight in New York: the date moves on with it.
    vi.setSystemTime(new Date('2026-12-06T05:30:00Z'));
    expect(officeToday()).toBe('2026-12-06');
  });

  it('is the date in the browser until the server has answered', () => {
    const there = new Intl.DateTimeFormat('en-CA', { timeZone: BROWSER_ZONE }).format(new Date());
    expect(officeToday()).toBe(there);
  });
});

describe('relative phrases', () => {
  it('writes spans of days, months and years', () => {
    expect(spanText(1, '2026-12-04')).toBe('1 day');
    expect(spanText(90, '2026-12-04')).toBe('90 days');
    expect(spanText(1467, '2026-12-04')).toBe('4 years');
    expect(spanText(200, '2026-12-04')).toBe('6 months');
    expect(spanText(400, '2026-12-04')).toBe('1 year 1 month');
  });
});

describe('dates inside a text the server wrote', () => {
  it("writes each calendar date in the office's format", () => {
    expect(formatDatesIn('Your completion on 2026-12-01 was approved; expires 2028-01-31.')).toBe(
      'Your completion on 12/01/2026 was approved; expires 01/31/2028.',
    );
    office({ date_format: 'YYYY-MM-DD' });
    expect(formatDatesIn('dated 2026-12-04')).toBe('dated 2026-12-04');
  });
});

describe('date inputs', () => {
  it("read the office's format and YYYY-MM-DD, and nothing that is not a whole, real date", () => {
    expect(dateInputFormat()).toBe('MM/DD/YYYY');
    expect(parseDateInput('07/30/2026')).toBe('2026-07-30');
    expect(parseDateInput('7/3/2026')).toBe('2026-07-03');
    expect(parseDateInput('2026-07-30')).toBe('2026-07-30');
    expect(parseDateInput('02/30/2026')).toBeNull();
    expect(parseDateInput('07/30')).toBeNull();
    expect(parseDateInput('1')).toBeNull();
    office({ date_format: 'YYYY-MM-DD' });
    expect(dateInputFormat()).toBe('YYYY-MM-DD');
    expect(parseDateInput('07/30/2026')).toBeNull();
    expect(parseDateInput('2026-07-30')).toBe('2026-07-30');
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
