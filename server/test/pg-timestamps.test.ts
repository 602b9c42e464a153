/** isoFromPg (db/schema/pg/columns.ts): PostgreSQL's timestamptz text read back exactly as Date.toISOString() would. */
import { describe, expect, it } from 'vitest';
import { isoFromPg } from '../src/db/schema/pg/columns.ts';

/** PostgreSQL's text of an instant in UTC, with `digits` fractional digits (trailing zeros dropped, as it writes). */
function pgText(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

describe('isoFromPg', () => {
  it('equals Date for PostgreSQL UTC text: whole seconds, 1 to 6 fractional digits, years 1 to 9999', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const cases: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const ms = Date.UTC(1, 0, 1) + (next() / 2 ** 31) * (Date.UTC(9999, 11, 31) - Date.UTC(1, 0, 1));
      const micros = i % 4 === 0 ? 0 : next() % 1000;
      cases.push(pgText(Math.floor(ms / (i % 3 === 0 ? 1000 : 1)) * (i % 3 === 0 ? 1000 : 1), micros));
    }
    cases.push('2026-11-23 15:05:29+00', '2026-11-23 15:05:29.1+00', '2026-11-23 15:05:29.999999+00', '0999-01-01 00:00:00+00');
    for (const text of cases) expect(isoFromPg(text), text).toBe(new Date(text).toISOString());
  });

  it('goes through Date for anything else: another offset, a Date', () => {
    expect(isoFromPg('2026-11-23 15:05:29.5+05:30')).toBe('2026-11-23T09:35:29.500Z');
    expect(isoFromPg(new Date('2026-11-23T15:05:29.123Z'))).toBe('2026-11-23T15:05:29.123Z');
  });
});
