/**
 * The bench's data (docs/performance.md "The data"), generated row by row from a small deterministic PRNG
 * so every run, on either engine, builds the same database. A sink writes the rows: bench/seed.sqlite.ts
 * (prepared statements in big transactions) or bench/seed.pg.ts (batched unnest inserts).
 *
 * Without a scale it builds the data of `npm run bench` and `npm run bench:api` (the numbers below). With
 * `{ licenses: N }` (`npm run bench:growth`, docs/performance.md "Growth") everything grows in proportion to the
 * licenses: users 0.4 per license in brokerages of about 100 people at every size, completions 1.2 and payments
 * 0.8 per license, courses with the square root, 10 audit rows per license; and the rows are messier, as the world
 * is: names with accents, apostrophes and hyphens, common surnames far more common than rare ones, license numbers
 * in several formats, expirations over three years back and three ahead, 2 % of the people deleted.
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
/** Audit rows per license of a scaled database. */
export const AUDIT_PER_LICENSE = 10;
/** People per brokerage at every scale. */
export const BROKERAGE_SIZE = 100;
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

/** The size of a scaled database; without one, the default data above. */
export interface Scale {
  licenses: number;
}

export interface Counts {
  users: number;
  brokerages: number;
  licenses: number;
  courses: number;
  completions: number;
  payments: number;
  auditRows: number;
}

/** The row counts `generate` writes for a scale. */
export function countsFor(scale?: Scale): Counts {
  if (!scale) {
    return {
      users: USERS,
      brokerages: BROKERAGES,
      licenses: LICENSES,
      courses: COURSES,
      completions: COMPLETIONS,
      payments: PAYMENTS,
      auditRows: AUDIT_ROWS,
    };
  }
  if (!Number.isInteger(scale.licenses) || scale.licenses < 100) throw new Error('A scale needs at least 100 licenses');
  const licenses = scale.licenses;
  const users = Math.max(2 * BROKERAGE_SIZE, Math.round((licenses * USERS) / LICENSES));
  return {
    users,
    brokerages: Math.round(users / BROKERAGE_SIZE),
    licenses,
    courses: Math.max(20, Math.round(COURSES * Math.sqrt(licenses / LICENSES))),
    completions: Math.round((licenses * COMPLETIONS) / LICENSES),
    payments: Math.round((licenses * PAYMENTS) / LICENSES),
    auditRows: AUDIT_PER_LICENSE * licenses,
  };
}

/** The role of user `i` (1-based): the first is the Admin, every 50th a School, every 10th a Broker, the rest Agents. */
export const roleOf = (i: number) => (i === 1 ? ROLE.Admin : i % 50 === 0 ? ROLE.School : i % 10 === 0 ? ROLE.Broker : ROLE.Agent);

// The messy names of a scaled database. Surnames are drawn with more weight at the front of the list (the common
// ones); a quarter are rare ones built from syllables and a tenth are double-barrelled.
const list = (...lines: string[]) => lines.join(',').split(',');
const FIRST_NAMES = list(
  "James,Mary,José,Zoë,Renée,Anne-Marie,D'Andre,Mohammed,Siobhán,Chloé,Wei,Priya,Jürgen,Ana,Michael,Jennifer,David",
  'Linda,Robert,Patricia,John,Elizabeth,Fatima,Łukasz,Ngozi,Carlos,Søren,Hélène,Jean-Luc,Dmitri,Aoife,Björn,Inés',
  'Kwame,Yuki,Thomas,Sarah,Daniel,Marie-Claire,Ólafur',
);
const LAST_NAMES = list(
  'Smith,Johnson,Williams,Brown,Jones,García,Miller,Davis,Rodríguez,Martínez,Hernández,López,González,Wilson',
  'Anderson,Thomas,Taylor,Moore,Jackson,Martin,Lee,Pérez,Thompson,White,Harris,Sánchez,Clark,Ramírez,Lewis',
  "Robinson,Walker,Young,Allen,King,Wright,Scott,Torres,Nguyen,Hill,Flores,O'Brien,O'Connor,D'Angelo,McDonald",
  'MacLeod,Müller,Schäfer,Øvergaard,Dubois,Lefèvre,Kowalski,Wiśniewski,Nowak,Kim,Park,Chen,Wang,Singh,Patel',
  'van der Berg,de la Cruz,St. John,Ben-David,Goldsmith,Smithers',
);
const SYLLABLES = list('ash,bel,cor,dan,el,fen,gar,hol,ith,jor,kel,lan,mor,nor,ost,pel,quin,ros,sel,tor,ulv,vin,wes,yar,zel');
const NUMBER_PREFIXES = list(',,SL,BK,RE-,S.,0');
/** An e-mail's local part from a name: accents dropped, anything else but letters and digits removed. */
const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();

export async function generate(sink: Sink, scale?: Scale): Promise<void> {
  const n = countsFor(scale);
  const messy = scale !== undefined;
  // A small deterministic PRNG, so every run builds the same data. The default data keeps the generator it always
  // had, so it draws exactly the numbers it always drew (its product overflows a double's 53 bits, which cuts its
  // cycle short: 10,000 draws of a holder among 4,000 people hit about 1,100 of them); a scaled database uses
  // mulberry32 (32-bit integer arithmetic), whose draws spread as they should.
  let seed = 42;
  const rand = messy
    ? () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
      }
    : () => {
        seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  const T = today();
  const STATES = ['CA', 'TX', 'FL', 'NY', 'WA', 'AZ', 'CO', 'GA', 'IL', 'NC'] as const;
  const capitalized = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const surname = (): string => {
    const r = rand();
    if (r < 0.1) return `${surname()}-${surname()}`;
    if (r < 0.35) return capitalized(Array.from({ length: int(2, 3) }, () => pick(SYLLABLES)).join(''));
    return LAST_NAMES[Math.floor(LAST_NAMES.length * rand() ** 1.5)]!;
  };

  sink.begin({
    table: 'brokerages',
    columns: [
      ['name', 'text'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= n.brokerages; i++) {
    const name = messy
      ? `${pick(LAST_NAMES)} & ${surname()} ${pick(['Realty', 'Real Estate', 'Properties', 'Homes', 'Group'])}`
      : `Brokerage ${i}`;
    await sink.row([name, iso(now - 900 * DAY), iso(now - 900 * DAY)]);
  }
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
      ['deleted_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  });
  for (let i = 1; i <= n.users; i++) {
    const role = roleOf(i);
    const created = now - int(1, 900) * DAY;
    const brokerage = role === ROLE.Admin || role === ROLE.School ? null : int(1, n.brokerages);
    let active = rand() < 0.9;
    const logins = int(0, 300);
    let first = `First${i}`;
    let last = `Last${i}`;
    let email = `user${i}@bench.test`;
    let deleted: string | null = null;
    if (messy && i === 1) active = true; // the Admin signs in
    if (messy && i > 1) {
      first = pick(FIRST_NAMES);
      last = surname();
      email = `${ascii(first)}.${ascii(last)}.${i}@bench.test`;
      if (rand() < 0.02) {
        deleted = iso(Math.min(now, created + int(1, 400) * DAY));
        active = false;
      }
    }
    await sink.row([email, 'x', first, last, role, brokerage, active, logins, deleted, iso(created), iso(created)]);
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
  // A scaled database spreads expirations over three years back and three ahead; its holders are Agents and
  // Brokers (a School's id is moved to the Agent before it), several licenses each.
  const [expFrom, expTo] = messy ? [-3 * 365, 3 * 365] : [-365, 730];
  for (let i = 1; i <= n.licenses; i++) {
    const exp = addDays(T, int(expFrom, expTo));
    const status =
      exp < T ? (rand() < 0.8 ? 'Expired' : 'Active') : pick(['Active', 'Active', 'Active', 'Active', 'Pending Renewal', 'Suspended']);
    const created = now - int(1, 900) * DAY;
    let holder = int(2, n.users);
    const state = pick(STATES);
    const ceDone = int(0, 45);
    const renewed = rand() < 0.2 ? iso(now - int(0, 365) * DAY) : null;
    let number = `LIC-${i}`;
    if (messy) {
      if (roleOf(holder) === ROLE.School) holder -= 1;
      number = `${pick(NUMBER_PREFIXES)}${String(i).padStart(7, '0')}`;
    }
    await sink.row([holder, number, state, addDays(exp, -730), exp, status, 45, ceDone, renewed, iso(created), iso(created)]);
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
  for (let i = 1; i <= n.courses; i++)
    await sink.row([
      `Course ${i}`,
      'Course',
      'Provider',
      pick([1, 2, 3, 4, 7.5]),
      50 * int(1, Math.floor(n.users / 50)),
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
  for (let i = 1; i <= n.completions; i++) {
    const created = now - int(0, 700) * DAY;
    const status = pick(['Approved', 'Approved', 'Approved', 'Pending', 'Rejected'] as const);
    await sink.row([
      int(2, n.users),
      int(1, n.courses),
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
  for (let i = 1; i <= n.payments; i++) {
    const created = now - int(0, 700) * DAY;
    await sink.row([
      int(2, n.users),
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
  for (let i = 0; i < n.auditRows; i++) {
    const action = pick(weighted);
    const table = action.startsWith('log') ? 'users' : pick(TABLES);
    const userId = action === 'login_failed' && rand() < 0.5 ? null : int(1, n.users);
    const target = int(1, n.licenses);
    await sink.row([
      iso(start + Math.floor((i * span) / n.auditRows)),
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
