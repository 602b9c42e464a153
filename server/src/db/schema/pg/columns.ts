import { customType } from 'drizzle-orm/pg-core';

/** PostgreSQL's text of a timestamptz in UTC (the pool's TimeZone): `2026-11-23 15:05:29.123456+00`. */
const PG_UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * The ISO string of a timestamptz as the driver returns it, what `new Date(value).toISOString()` gives: milliseconds
 * truncated to three digits, as Date does, and years 1 to 99 read right (Date's parse of this text takes them for
 * other dates). PostgreSQL's usual UTC text is rewritten as text (a Date's parse and toISOString cost about 0.6 µs,
 * 150 of them in a page of 50 licenses; docs/performance.md "API throughput"); anything else (another offset, a year
 * past 9999, a Date) goes through Date.
 */
export function isoFromPg(value: string | Date): string {
  const m = typeof value === 'string' ? PG_UTC_TEXT.exec(value) : null;
  if (!m) return new Date(value).toISOString();
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

/**
 * An ISO 8601 UTC timestamp stored as `timestamp with time zone`. The app sees exactly the strings it sees on
 * SQLite (`2026-11-23T15:05:29.123Z`): whatever the driver returns (a string in the session's time zone or a
 * Date) is read back as Date.toISOString() would write it (isoFromPg; docs/architecture.md "PostgreSQL schema").
 */
export const isoTimestamp = customType<{ data: string; driverData: string | Date }>({
  dataType: () => 'timestamp with time zone',
  toDriver: (value) => value,
  fromDriver: isoFromPg,
});

/**
 * licenses.cycle_start_date: a `date NOT NULL` without an SQL default. The app may omit it or pass '' (the
 * SQLite default); both reach PostgreSQL as NULL and the licenses_cycle_start_default BEFORE INSERT trigger sets
 * the issue date.
 */
export const cycleStartDate = customType<{ data: string; driverData: string | null }>({
  dataType: () => 'date',
  toDriver: (value) => (value === '' ? null : value),
  fromDriver: (value) => value ?? '',
});

/** ISO 8601 UTC timestamp, set when the row is written. */
export const createdAt = () =>
  isoTimestamp('created_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString());

export const updatedAt = () =>
  isoTimestamp('updated_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString())
    .$onUpdateFn(() => new Date().toISOString());
