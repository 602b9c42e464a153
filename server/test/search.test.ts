/**
 * "Contains" search served by an index (server/src/db/search.ts; docs/decisions.md "Search at any size"): the
 * lists answer exactly what the old LIKE/ILIKE scan answered, on a messy set, on both engines; the SQLite index
 * follows every change (and a restore); the plans use the index.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { addDays, ROLE } from '@lm/shared';
import { completions, courses, licenses, users } from '../src/db/schema/index.ts';
import { containsText } from '../src/db/sql.ts';
import { ENGINE } from '../src/db/client.ts';
import { licensesMatching, peopleMatching, peopleWithLicenseMatching, searchFilter, searchTerms } from '../src/db/search.ts';
import { today } from '../src/core/dates.ts';
import { callerFor, seedBrokerage, TEST_PASSWORD, type Roles, type TestEnv, useTestEnv } from './helpers.ts';
import { queryPlan } from './db-tools.ts';

const t = useTestEnv();
let env: TestEnv;
let roles: Roles;
const TODAY = today();
const tag = `s${Date.now() % 100000}`;

/** People with accents, apostrophes, LIKE's wildcards and short names; license numbers with dashes, % and _. */
const PEOPLE: Array<[first: string, last: string, phone: string | null, numbers: string[]]> = [
  ['José', 'Ñúñez', '555-0101', ['CA-100-A', 'TX_200']],
  ['JOSÉ', "O'Brien", null, ['NY-300%B']],
  ['Jo', 'Li', '(555) 0102', ['FL-4']],
  ['Anne-Marie', 'de la Cruz', null, ['WA-500_5', 'WA-5005']],
  ['Zoë', 'Smith_Jones', '5550103', ['AZ-100%']],
  ['Ed', "D'Angelo 100%", null, ['GA-ÉÉ-1']],
  ['Mary', 'Smithson', null, []],
];

const SEARCHES = [
  'j',
  'o',
  '%',
  '_',
  "'",
  '-',
  'é',
  'É',
  'ñ',
  'Ñ', // 1 character
  'jo',
  'Jo',
  'li',
  '%B',
  '_2',
  "'b",
  '-5',
  '10',
  'éé',
  'oë', // 2 characters
  'jos',
  'JOS',
  'josé',
  'JOSÉ',
  'jose',
  'ñúñ',
  'ÑÚÑ',
  "o'b",
  "O'BRIEN",
  'é ñ',
  'sé Ñ',
  'José Ñúñez',
  'Jo Li',
  '100%',
  '00%',
  '_200',
  'x_200',
  'h_j',
  'smith',
  'SMITH_',
  'smithson',
  'ca-100',
  'CA-100-a',
  'wa-500',
  'wa-5005',
  '-5',
  '555',
  '0102',
  '(555)',
  'de la',
  'Marie de',
  'Zoë Smith',
  'ZOË',
  'ÉÉ-1',
  'éé-1',
  '"',
  'a"b',
  'nothing here',
  'e-m',
  'José\u0301',
  'Jose\u0301',
  'ann',
  '%%%',
  '___',
  '\\',
  'a\\b',
];

beforeAll(async () => {
  ({ env, roles } = t);
  const brokerageId = await seedBrokerage(env, `Search Realty ${tag}`);
  await env.db.transaction(async (tx) => {
    for (const [i, [first, last, phone, numbers]] of PEOPLE.entries()) {
      const [u] = await tx
        .insert(users)
        .values({
          email: `${tag}.p${i}@search.example`,
          password_hash: 'x',
          first_name: first,
          last_name: last,
          phone_number: phone,
          role_id: ROLE.Agent,
          brokerage_id: brokerageId,
        })
        .returning();
      for (const [k, number] of numbers.entries()) {
        await tx.insert(licenses).values({
          user_id: u!.user_id,
          license_number: number,
          state: ['CA', 'TX', 'NY', 'FL'][k % 4]!,
          issue_date: '2025-01-15',
          expiration_date: addDays(TODAY, 100 + i),
        });
      }
    }
  });
});

const fullName = sql`(${users.first_name} || ' ' || ${users.last_name})`;
const admin = () => callerFor(env, roles.admin.user_id);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** What the licenses list answered before the index: LIKE/ILIKE on every row (of the text as the API reads it). */
async function oldLicenses(raw: string): Promise<number[]> {
  const text = raw.normalize('NFC');
  const rows = await env.db
    .select({ id: licenses.license_id })
    .from(licenses)
    .innerJoin(users, eq(users.user_id, licenses.user_id))
    .where(or(containsText(fullName, text), containsText(licenses.license_number, text)));
  return sorted(rows.map((r) => r.id));
}

async function oldUsers(raw: string): Promise<number[]> {
  const text = raw.normalize('NFC');
  const rows = await env.db
    .select({ id: users.user_id })
    .from(users)
    .where(
      and(
        isNull(users.deleted_at),
        or(containsText(fullName, text), containsText(users.email, text), containsText(users.phone_number, text)),
      ),
    );
  return sorted(rows.map((r) => r.id));
}

async function newLicenses(text: string): Promise<number[]> {
  const page = await admin().licenses.page({ search: text, limit: 100 });
  expect(page.pagination.total).toBeLessThan(100);
  return sorted(page.licenses.map((l) => l.license_id));
}

async function newUsers(text: string): Promise<number[]> {
  const page = await admin().users.list({ search: text, limit: 100 });
  expect(page.pagination.total).toBeLessThan(100);
  return sorted(page.users.map((u) => u.user_id));
}

describe('search answers what LIKE answered (messy names, numbers, 1-3+ characters)', () => {
  it('the licenses list: holder name or license number', async () => {
    let some = 0;
    for (const text of SEARCHES) {
      const expected = await oldLicenses(text);
      if (expected.length) some++;
      expect({ text, ids: await newLicenses(text) }).toEqual({ text, ids: expected });
    }
    expect(some).toBeGreaterThan(SEARCHES.length / 2);
  });

  it('the users list: name, e-mail or phone', async () => {
    for (const text of SEARCHES) {
      expect({ text, ids: await newUsers(text) }).toEqual({ text, ids: await oldUsers(text) });
    }
  });

  it('the people conditions: name only, license number only', async () => {
    for (const text of SEARCHES) {
      const terms = searchTerms(text);
      const byName = await env.db.select({ id: users.user_id }).from(users).where(peopleMatching(users.user_id, terms));
      const oldByName = await env.db.select({ id: users.user_id }).from(users).where(containsText(fullName, text));
      expect({ text, ids: sorted(byName.map((r) => r.id)) }).toEqual({ text, ids: sorted(oldByName.map((r) => r.id)) });
      const byNumber = await env.db.select({ id: users.user_id }).from(users).where(peopleWithLicenseMatching(users.user_id, terms));
      const oldByNumber = await env.db
        .select({ id: users.user_id })
        .from(users)
        .where(
          inArray(users.user_id, sql`(SELECT ${licenses.user_id} FROM ${licenses} WHERE ${containsText(licenses.license_number, text)})`),
        );
      expect({ text, ids: sorted(byNumber.map((r) => r.id)) }).toEqual({ text, ids: sorted(oldByNumber.map((r) => r.id)) });
    }
  });

  it('counts characters, not UTF-16 units: 3 characters use the index', () => {
    expect(['ab', 'é', '😀😀', 'abc', 'ÑÚÑ', '😀😀😀'].map(searchFilter)).toEqual([
      'search_scan',
      'search_scan',
      'search_scan',
      'search',
      'search',
      'search',
    ]);
  });

  it('the completions list and the people search of the completion form', async () => {
    const [course] = await env.db.transaction((tx) =>
      tx
        .insert(courses)
        .values({ course_name: `Ethics ${tag} Ñúñez 100%`, provider: 'P', description: 'D', ce_hours: 3 })
        .returning(),
    );
    const [holder] = await env.db.select().from(licenses).where(eq(licenses.license_number, 'TX_200'));
    const [other] = await env.db.select().from(licenses).where(eq(licenses.license_number, 'FL-4'));
    await env.db.transaction(async (tx) => {
      await tx.insert(completions).values([
        { user_id: holder!.user_id, course_id: course!.course_id, license_id: holder!.license_id, completion_date: TODAY, hours: 3 },
        { user_id: other!.user_id, course_id: course!.course_id, license_id: null, completion_date: TODAY, hours: 3 },
      ]);
    });
    for (const text of ['x_2', '_200', 'tx_', 'ñúñ', 'jo l', 'Jo', '100%', tag, 'fl-4', 'nothing']) {
      const page = await admin().completions.page({ search: text, limit: 100 });
      const expected = await env.db
        .select({ id: completions.completion_id })
        .from(completions)
        .innerJoin(users, eq(users.user_id, completions.user_id))
        .innerJoin(courses, eq(courses.course_id, completions.course_id))
        .leftJoin(licenses, eq(licenses.license_id, completions.license_id))
        .where(or(containsText(fullName, text), containsText(courses.course_name, text), containsText(licenses.license_number, text)));
      expect({ text, ids: sorted(page.completions.map((c) => c.completion_id)) }).toEqual({ text, ids: sorted(expected.map((r) => r.id)) });
      const people = await admin().completions.people({ search: text });
      const oldPeople = await env.db
        .select({ id: users.user_id })
        .from(users)
        .where(
          and(
            inArray(users.role_id, [ROLE.Agent, ROLE.Broker]),
            eq(users.is_active, true),
            isNull(users.deleted_at),
            or(
              containsText(fullName, text),
              inArray(
                users.user_id,
                sql`(SELECT ${licenses.user_id} FROM ${licenses} WHERE ${containsText(licenses.license_number, text)})`,
              ),
            ),
          ),
        )
        .orderBy(asc(users.user_id))
        .limit(20);
      expect({ text, ids: sorted(people.map((p) => p.user_id)) }).toEqual({ text, ids: oldPeople.map((r) => r.id) });
    }
  });
});

describe('the index follows every change', () => {
  it('create, rename, renumber, move and delete', async () => {
    const caller = admin();
    const brokerageId = await seedBrokerage(env, `Follow ${tag}`);
    const created = await caller.users.create({
      email: `${tag}.follow@search.example`,
      first_name: 'Quintessa',
      last_name: 'Vandermolen',
      role_id: ROLE.Agent,
      brokerage_id: brokerageId,
      password: TEST_PASSWORD,
    });
    const userId = created.user_id;
    expect(await newUsers('quintess')).toEqual([userId]);
    const license = await caller.licenses.create({
      user_id: userId,
      license_number: `QX-${tag}-77`,
      state: 'CA',
      issue_date: '2025-01-15',
      expiration_date: addDays(TODAY, 300),
    });
    expect(await newLicenses('vanderm')).toEqual([license.license_id]);
    expect(await newLicenses(`qx-${tag}`)).toEqual([license.license_id]);

    await caller.users.update({ id: userId, last_name: 'Oyelaran-Whitcombe' });
    expect(await newLicenses('vanderm')).toEqual([]);
    expect(await newUsers('vanderm')).toEqual([]);
    expect(await newLicenses('oyelaran-w')).toEqual([license.license_id]);
    expect(await newUsers('n-whit')).toEqual([userId]);

    await caller.licenses.update({ id: license.license_id, license_number: `ZZ-${tag}-88` });
    expect(await newLicenses(`qx-${tag}`)).toEqual([]);
    expect(await newLicenses(`zz-${tag}-8`)).toEqual([license.license_id]);
    expect(await newLicenses('oyelaran')).toEqual([license.license_id]);

    await caller.licenses.delete({ id: license.license_id });
    expect(await newLicenses(`zz-${tag}`)).toEqual([]);
    expect(await newLicenses('oyelaran')).toEqual([]);
    expect(await newUsers('oyelaran')).toEqual([userId]);

    for (const text of ['oyelaran', 'vanderm', `zz-${tag}`, `qx-${tag}`, 'jos', "o'b"]) {
      expect({ text, ids: await newLicenses(text) }).toEqual({ text, ids: await oldLicenses(text) });
      expect({ text, ids: await newUsers(text) }).toEqual({ text, ids: await oldUsers(text) });
    }
  });

  it('a restore leaves the index right', async () => {
    const caller = admin();
    const backup = await caller.admin.backups.create({ description: `search ${tag}`, include_files: false });
    const [smith] = await env.db.select().from(users).where(eq(users.last_name, 'Smithson'));
    await env.db.transaction((tx) => tx.update(users).set({ last_name: 'Krzyzanowski' }).where(eq(users.user_id, smith!.user_id)));
    await env.db.transaction((tx) =>
      tx.insert(licenses).values({
        user_id: smith!.user_id,
        license_number: `RESTORE-${tag}`,
        state: 'CA',
        issue_date: '2025-01-15',
        expiration_date: addDays(TODAY, 50),
      }),
    );
    expect(await newLicenses('krzyz')).toHaveLength(1);
    await caller.admin.backups.restore({ id: backup.id, include_users: true, include_licenses: true, include_courses: true });
    expect(await newLicenses('krzyz')).toEqual([]);
    expect(await newUsers('krzyz')).toEqual([]);
    expect(await newUsers('smithson')).toEqual([smith!.user_id]);
    for (const text of ['smith', `restore-${tag}`, 'jos', 'ñúñ', '100%', 'wa-5', "o'b", 'e-m']) {
      expect({ text, ids: await newLicenses(text) }).toEqual({ text, ids: await oldLicenses(text) });
      expect({ text, ids: await newUsers(text) }).toEqual({ text, ids: await oldUsers(text) });
    }
  });
});

describe('the plans use the index', () => {
  /** The plan of a query, one line per step. */
  async function plan(where: SQL, from: 'licenses' | 'users'): Promise<string> {
    const q =
      from === 'licenses'
        ? env.db.select({ id: licenses.license_id }).from(licenses).where(where)
        : env.db.select({ id: users.user_id }).from(users).where(where);
    // Few rows: the planner would rather read every row (a sequential scan, or the primary key's whole index).
    return queryPlan(env.db, q.toSQL(), ['enable_seqscan', 'enable_indexscan']);
  }

  it('licenses: the FTS5 table (SQLite) or both trigram indexes (PostgreSQL)', async () => {
    const text = await plan(licensesMatching(licenses.license_id, searchTerms('smith')), 'licenses');
    if (ENGINE === 'postgres') {
      expect(text).toMatch(/Bitmap Index Scan on licenses_number_trgm_idx/);
      expect(text).toMatch(/Bitmap Index Scan on users_name_trgm_idx/);
    } else {
      expect(text).toMatch(/SCAN license_search VIRTUAL TABLE INDEX/);
    }
  });

  it('people: the FTS5 table (SQLite) or the trigram indexes (PostgreSQL)', async () => {
    const text = await plan(peopleMatching(users.user_id, searchTerms('smith'), 'contact'), 'users');
    if (ENGINE === 'postgres') {
      expect(text).toMatch(/Bitmap Index Scan on users_name_trgm_idx/);
      expect(text).toMatch(/Bitmap Index Scan on users_email_trgm_idx/);
      expect(text).toMatch(/Bitmap Index Scan on users_phone_trgm_idx/);
    } else {
      expect(text).toMatch(/SCAN user_search VIRTUAL TABLE INDEX/);
    }
  });
});
