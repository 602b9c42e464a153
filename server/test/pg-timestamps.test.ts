/** isoFromPg (db/schema/pg/columns.ts): PostgreSQL's timestamptz text read back exactly as Date.toISOString() would. */
import { describe, expect, it } from 'vitest';
import { isoFromPg } from '../src/db/schema/pg/columns.ts';

/** PostgreSQL's text of an instant in UTC plus `micros` microseconds (trailing zeros of the fraction dropped, as it writes). */
function pgText(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

describe('isoFromPg', () => {
  it("is the instant's ISO string for PostgreSQL UTC text: whole seconds, 1 to 6 fractional digits, years 1 to 9999", () => {
    let seed = 42;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    const first = new Date(0).setUTCFullYear(1, 0, 1);
    const last = new Date(0).setUTCFullYear(9999, 11, 31);
    const cases: Array<[text: string, iso: string]> = [];
    for (let i = 0; i < 5_000; i++) {
      const ms = Math.floor(first + (next() / 2_147_483_647) * (last - first));
      // A third of them on a whole second, so that some have no fraction or only microseconds.
      const instant = i % 3 === 0 ? ms - (((ms % 1000) + 1000) % 1000) : ms;
      const micros = i % 4 === 0 ? 0 : next() % 1000;
      // Microseconds are dropped, as Date drops them.
      cases.push([pgText(instant, micros), new Date(instant).toISOString()]);
    }
    cases.push(
      ['2026-11-23 15:05:29+00', '2026-11-23T15:05:29.000Z'],
      ['2026-11-23 15:05:29.1+00', '2026-11-23T15:05:29.100Z'],
      ['2026-11-23 15:05:29.999999+00', '2026-11-23T15:05:29.999Z'],
      ['0999-01-01 00:00:00+00', '0999-01-01T00:00:00.000Z'],
    );
    for (const [text, iso] of cases) expect(isoFromPg(text), text).toBe(iso);
    // Where Date's own parse of the text is right (it reads years 1 to 99 as other dates), both agree.
    for (const [text] of cases.filter(([t]) => t >= '0100')) expect(isoFromPg(text), text).toBe(new Date(text).toISOString());
  });

  it('goes through Date for anything else: another offset, a Date', () => {
    expect(isoFromPg('2026-11-23 15:05:29.5+05:30')).toBe('2026-11-23T09:35:29.500Z');
    expect(isoFromPg(new Date('2026-11-23T15:05:29.123Z'))).toBe('2026-11-23T15:05:29.123Z');
  });
});
