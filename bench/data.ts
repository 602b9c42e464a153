/**
 * The bench's data (docs/performance.md "The data"), generated row by row from a small deterministic PRNG
 * so every run, on either engine, builds the same database. A sink writes the rows: bench/seed.sqlite.ts
 * (prepared statements in one transaction) or bench/seed.pg.ts (batched unnest inserts).
 */
import { addDays, ROLE } from '@lm/shared';
import { today } from '../server/src/core/dates.ts';

export const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
export const USERS = 20_000;
export const BROKERAGES = 200;
export const LICENSES = 50_000;
export const COURSES = 300;
export const COMPLETIONS = 60_000;
export const PAYMENTS = 40_000;
const DAY = 86_400_000;

/** Column types, for the sinks that need them (PostgreSQL arrays). */
export type ColumnType = 'text' | 'int' | 'float' | 'bool' | 'timestamptz' | 'date';
export interface TableSpec {
  table: string;
  columns: Array<[name: string, type: ColumnType]>;
}
export type Value = string | number | boolean | null;

export interface Sink {
  /** Starts a table; `row` is then called once per row, values in column order. */
  begin(spec: TableSpec): void;
  row(values: Value[]): void | Promise<void>;
  end(): void | Promise<void>;
}

export async function generate(sink: Sink): Promise<void> {
  // A small deterministic PRNG, so every run builds the same data.
  let seed = 42;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  const T = today();
  const STATES = ['CA', 'TX', 'FL', 'NY', 'WA', 'AZ', 'CO', 'GA', 'IL', 'NC'] as const;

  sink.begin({
    table: 'brokerages',
    columns: [
      ['name', 'text'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= BROKERAGES; i++) await sink.row([`Brokerage ${i}`, iso(now - 900 * DAY), iso(now - 900 * DAY)]);
  await sink.end();

  sink.begin({
    table: 'users',
    columns: [
      ['email', 'text'],
      ['password_hash', 'text'],
      ['first_name', 'text'],
      ['last_name', 'text'],
      ['role_id', 'int'],
      ['brokerage_id', 'int'],
      ['is_active', 'bool'],
      ['login_count', 'int'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= USERS; i++) {
    const role = i === 1 ? ROLE.Admin : i % 50 === 0 ? ROLE.School : i % 10 === 0 ? ROLE.Broker : ROLE.Agent;
    const created = now - int(1, 900) * DAY;
    await sink.row([
      `user${i}@bench.test`,
      'x',
      `First${i}`,
      `Last${i}`,
      role,
      role === ROLE.Admin || role === ROLE.School ? null : int(1, BROKERAGES),
      rand() < 0.9,
      int(0, 300),
      iso(created),
      iso(created),
    ]);
  }
  await sink.end();

  sink.begin({
    table: 'licenses',
    columns: [
      ['user_id', 'int'],
      ['license_number', 'text'],
      ['state', 'text'],
      ['issue_date', 'date'],
      ['expiration_date', 'date'],
      ['status', 'text'],
      ['ce_hours_required', 'float'],
      ['ce_hours_completed', 'float'],
      ['renewed_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= LICENSES; i++) {
    const exp = addDays(T, int(-365, 730));
    const status =
      exp < T ? (rand() < 0.8 ? 'Expired' : 'Active') : pick(['Active', 'Active', 'Active', 'Active', 'Pending Renewal', 'Suspended']);
    const created = now - int(1, 900) * DAY;
    await sink.row([
      int(2, USERS),
      `LIC-${i}`,
      pick(STATES),
      addDays(exp, -730),
      exp,
      status,
      45,
      int(0, 45),
      rand() < 0.2 ? iso(now - int(0, 365) * DAY) : null,
      iso(created),
      iso(created),
    ]);
  }
  await sink.end();

  sink.begin({
    table: 'courses',
    columns: [
      ['course_name', 'text'],
      ['description', 'text'],
      ['provider', 'text'],
      ['ce_hours', 'float'],
      ['school_id', 'int'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= COURSES; i++)
    await sink.row([
      `Course ${i}`,
      'Course',
      'Provider',
      pick([1, 2, 3, 4, 7.5]),
      50 * int(1, USERS / 50),
      iso(now - 800 * DAY),
      iso(now - 800 * DAY),
    ]);
  await sink.end();

  sink.begin({
    table: 'completions',
    columns: [
      ['user_id', 'int'],
      ['course_id', 'int'],
      ['completion_date', 'date'],
      ['hours', 'float'],
      ['status', 'text'],
      ['rating', 'int'],
      ['reviewed_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= COMPLETIONS; i++) {
    const created = now - int(0, 700) * DAY;
    const status = pick(['Approved', 'Approved', 'Approved', 'Pending', 'Rejected'] as const);
    await sink.row([
      int(2, USERS),
      int(1, COURSES),
      new Date(created).toISOString().slice(0, 10),
      3,
      status,
      rand() < 0.6 ? int(1, 5) : null,
      status === 'Pending' ? null : iso(created + int(0, 10) * DAY),
      iso(created),
      iso(created),
    ]);
  }
  await sink.end();

  sink.begin({
    table: 'payments',
    columns: [
      ['user_id', 'int'],
      ['amount_cents', 'int'],
      ['status', 'text'],
      ['payment_date', 'date'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= PAYMENTS; i++) {
    const created = now - int(0, 700) * DAY;
    await sink.row([
      int(2, USERS),
      int(1_000, 50_000),
      pick(['Completed', 'Completed', 'Completed', 'Pending', 'Failed', 'Refunded']),
      new Date(created).toISOString().slice(0, 10),
      iso(created),
      iso(created),
    ]);
  }
  await sink.end();

  // The audit log: two years of history, oldest first, so log_id grows with timestamp.
  sink.begin({
    table: 'audit_logs',
    columns: [
      ['timestamp', 'timestamptz'],
      ['user_id', 'int'],
      ['action', 'text'],
      ['target_table', 'text'],
      ['target_id', 'int'],
      ['ip_address', 'text'],
      ['old_values', 'text'],
      ['new_values', 'text'],
    ],
  });
  const ACTIONS = [
    ['create', 30],
    ['update', 33],
    ['delete', 4],
    ['login', 20],
    ['login_failed', 3],
    ['logout', 6],
    ['renew', 2],
    ['bulk_update', 1],
    ['review', 1],
  ] as const;
  const weighted = ACTIONS.flatMap(([name, w]) => Array<string>(w).fill(name));
  const TABLES = [
    'users',
    'licenses',
    'licenses',
    'licenses',
    'courses',
    'completions',
    'completions',
    'payments',
    'payments',
    'brokerages',
  ];
  const span = 730 * DAY;
  const start = now - span;
  for (let i = 0; i < AUDIT_ROWS; i++) {
    const action = pick(weighted);
    const table = action.startsWith('log') ? 'users' : pick(TABLES);
    const userId = action === 'login_failed' && rand() < 0.5 ? null : int(1, USERS);
    const target = int(1, 50_000);
    await sink.row([
      iso(start + Math.floor((i * span) / AUDIT_ROWS)),
      userId,
      action,
      table,
      target,
      `10.0.${int(0, 255)}.${int(1, 254)}`,
      action === 'update' ? `{"status":"Active","ce_hours_completed":${int(0, 40)}}` : null,
      action === 'delete' ? null : `{"id":${target},"status":"Active","note":"bench row ${i}"}`,
    ]);
  }
  await sink.end();
}
