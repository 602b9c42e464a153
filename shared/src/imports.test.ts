import { describe, expect, it } from 'vitest';
import { IMPORT_FIELDS, normaliseHeader, readSpreadsheetDate } from './imports.ts';

describe('readSpreadsheetDate', () => {
  const us = (v: string) => readSpreadsheetDate(v, 'MM/DD/YYYY');
  const iso = (v: string) => readSpreadsheetDate(v, 'YYYY-MM-DD');
  it('reads the usual forms', () => {
    expect(us('2026-11-05')).toEqual({ date: '2026-11-05' });
    expect(us('11/05/2026')).toEqual({ date: '2026-11-05' });
    expect(us('5 Nov 2026')).toEqual({ date: '2026-11-05' });
    expect(us('Nov 5, 2026')).toEqual({ date: '2026-11-05' });
    expect(us('November 5 2026')).toEqual({ date: '2026-11-05' });
    expect(us('46331')).toEqual({ date: '2026-11-05' });
    expect(us('2026-11-05T00:00:00.000Z')).toEqual({ date: '2026-11-05' });
  });
  it('lets the office setting decide month/day only where it says', () => {
    expect(iso('11/05/2026')).toHaveProperty('error');
    expect(iso('25/05/2026')).toEqual({ date: '2026-05-25' });
    expect(us('25/05/2026')).toEqual({ date: '2026-05-25' });
    expect(iso('05/05/2026')).toEqual({ date: '2026-05-05' });
  });
  it('refuses ambiguous and impossible dates with a message', () => {
    expect(us('05/11/26')).toEqual({ error: expect.stringContaining('ambiguous') });
    expect(us('02/30/2026')).toEqual({ error: expect.stringContaining('not a real calendar date') });
    expect(us('soon')).toEqual({ error: expect.stringContaining('not a date') });
    expect(us('0')).toHaveProperty('error');
  });
});

describe('header synonyms', () => {
  it('are unique within a kind', () => {
    for (const fields of Object.values(IMPORT_FIELDS)) {
      const seen = new Map<string, string>();
      for (const f of fields)
        for (const s of f.synonyms) {
          expect(seen.get(s) ?? f.id, `${s} in ${f.id} and ${seen.get(s)}`).toBe(f.id);
          seen.set(s, f.id);
        }
    }
  });
  it('normalise case, punctuation and spaces', () => {
    expect(normaliseHeader(' E-mail Address ')).toBe('emailaddress');
    expect(normaliseHeader('License #')).toBe('licensenumber');
  });
});
