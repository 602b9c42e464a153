import { describe, expect, it } from 'vitest';
import { IMPORT_FIELDS } from '@lm/shared';
import { countsText, fieldOptions, kindToShow, missingRequired, nextMapping, NOT_IMPORTED, resultText } from './mapping.ts';

const roster = IMPORT_FIELDS.roster.map(({ id, label, required }) => ({ id, label, required }));

describe('the mapping table', () => {
  it('offers "Do not import" first and marks the required fields', () => {
    const options = fieldOptions(roster);
    expect(options[0]).toEqual({ value: NOT_IMPORTED, label: 'Do not import' });
    expect(options.find((o) => o.value === 'email')?.label).toBe('Email (required)');
    expect(options.find((o) => o.value === 'phone_number')?.label).toBe('Phone');
    expect(options).toHaveLength(roster.length + 1);
  });

  it('gives a field to one column only: the column that had it is no longer imported', () => {
    const mapping = { 'E-mail': 'email', 'Work mail': null, Surname: 'last_name' };
    expect(nextMapping(mapping, 'Work mail', 'email')).toEqual({ 'E-mail': null, 'Work mail': 'email', Surname: 'last_name' });
    // Another field leaves the rest as it was.
    expect(nextMapping(mapping, 'Work mail', 'phone_number')).toEqual({
      'E-mail': 'email',
      'Work mail': 'phone_number',
      Surname: 'last_name',
    });
  });

  it('"Do not import" (or a cleared Select) sends null and keeps the column in the mapping', () => {
    const mapping = { 'E-mail': 'email', Surname: 'last_name' };
    expect(nextMapping(mapping, 'Surname', NOT_IMPORTED)).toEqual({ 'E-mail': 'email', Surname: null });
    expect(nextMapping(mapping, 'Surname', null)).toEqual({ 'E-mail': 'email', Surname: null });
  });

  it('names the required fields no column maps to, in the fields’ order', () => {
    expect(missingRequired(roster, { Email: 'email', First: null }).map((f) => f.label)).toEqual(['First Name', 'Last Name']);
    expect(missingRequired(roster, { a: 'first_name', b: 'last_name', c: 'email' })).toEqual([]);
  });
});

describe('counts in words', () => {
  it('says a past import’s counts on one line', () => {
    expect(countsText({ create: 1200, update: 3, unchanged: 0, error: 1 })).toBe('1,200 new · 3 updated · 0 unchanged · 1 error');
  });

  it('says what a commit wrote, and what it skipped only when it skipped something', () => {
    expect(resultText({ create: 195, update: 0, unchanged: 0, error: 5 })).toBe(
      '195 rows written (195 created, 0 updated); 5 rows skipped with errors',
    );
    expect(resultText({ create: 0, update: 1, unchanged: 2, error: 0 })).toBe(
      '1 row written (0 created, 1 updated); 2 rows already up to date',
    );
  });
});

describe('the kind the page shows', () => {
  it('is the one asked for when allowed, else the first allowed, else none', () => {
    expect(kindToShow('completions', ['roster', 'completions'])).toBe('completions');
    expect(kindToShow('roster', ['completions'])).toBe('completions');
    expect(kindToShow(null, ['roster'])).toBe('roster');
    expect(kindToShow('roster', [])).toBeNull();
  });
});
