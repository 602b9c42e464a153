import { describe, expect, it } from 'vitest';
import { addDays, addYears, calendarSpan, daysBetween, writeCalendarDate } from './dates.ts';
import { passwordProblems } from './auth.ts';
import { roleName } from './roles.ts';

describe('calendar arithmetic', () => {
  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
  it('adds years, moving 29 February to 28 February', () => {
    expect(addYears('2026-05-15', 2)).toBe('2028-05-15');
    expect(addYears('2028-02-29', 2)).toBe('2030-02-28');
  });
  it('counts days between dates', () => {
    expect(daysBetween('2026-11-22', '2026-12-02')).toBe(10);
    expect(daysBetween('2026-11-22', '2026-11-01')).toBe(-21);
  });
});

describe('password rule', () => {
  it('needs the minimum length, upper, lower and a digit', () => {
    expect(passwordProblems('Short1', 8)).toMatch(/at least 8/);
    expect(passwordProblems('alllowercase1', 8)).toMatch(/uppercase/);
    expect(passwordProblems('GoodPassw0rd', 8)).toBeNull();
  });
});

describe('roles', () => {
  it('uses the canonical ids', () => {
    expect([1, 2, 3, 4].map(roleName)).toEqual(['Admin', 'Broker', 'Agent', 'School']);
  });
});

describe('writing dates and spans', () => {
  it('writes a calendar date in either office format, without a time-zone shift', () => {
    expect(writeCalendarDate('2026-07-30', 'MM/DD/YYYY')).toBe('07/30/2026');
    expect(writeCalendarDate('2026-07-30', 'YYYY-MM-DD')).toBe('2026-07-30');
    expect(writeCalendarDate('not a date', 'MM/DD/YYYY')).toBe('not a date');
  });
  it('counts whole years and months, the rest in days', () => {
    expect(calendarSpan('2026-12-04', '2029-04-10')).toEqual({ years: 2, months: 4, days: 6 });
    expect(calendarSpan('2026-12-04', '2030-12-04')).toEqual({ years: 4, months: 0, days: 0 });
    expect(calendarSpan('2026-12-04', '2027-12-03')).toEqual({ years: 0, months: 11, days: 29 });
    expect(calendarSpan('2026-01-31', '2026-02-28')).toEqual({ years: 0, months: 0, days: 28 });
    expect(calendarSpan('2026-01-31', '2026-03-01')).toEqual({ years: 0, months: 1, days: 1 });
  });
});
