import { customType } from 'drizzle-orm/pg-core';

/**
 * An ISO 8601 UTC timestamp stored as `timestamp with time zone`. The app sees exactly the strings it sees on
 * SQLite (`2026-11-23T15:05:29.123Z`): whatever the driver returns (a string in the session's time zone or a
 * Date) is read back through Date.toISOString() (docs/architecture.md "PostgreSQL schema").
 */
export const isoTimestamp = customType<{ data: string; driverData: string | Date }>({
  dataType: () => 'timestamp with time zone',
  toDriver: (value) => value,
  fromDriver: (value) => new Date(value).toISOString(),
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
