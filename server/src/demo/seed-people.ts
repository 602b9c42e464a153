import { eq } from 'drizzle-orm';
import { ROLE, type RoleName } from '@lm/shared';
import { brokerages, users } from '../db/schema/index.ts';
import type { Tx } from '../db/client.ts';
import { audit } from '../core/audit.ts';
import type { DemoContext } from './context.ts';

/**
 * Two brokerages per state. Brokerage i is in STATES[i % 4] (the licensing seed relies on this order:
 * it gives the four people of each brokerage one license in each expiry band of its state).
 */
const BROKERAGES = [
  {
    name: 'Golden Gate Realty',
    address: '500 Market St, San Francisco, CA 94105',
    phone: '(415) 555-0142',
    email: 'office@goldengaterealty.example',
    website: 'https://goldengaterealty.example',
  },
  {
    name: 'Lone Star Homes',
    address: '1200 Congress Ave, Austin, TX 78701',
    phone: '(512) 555-0178',
    email: 'hello@lonestarhomes.example',
    website: 'https://lonestarhomes.example',
  },
  {
    name: 'Sunshine Coast Properties',
    address: '88 Brickell Ave, Miami, FL 33131',
    phone: '(305) 555-0110',
    email: 'info@sunshinecoast.example',
    website: 'https://sunshinecoast.example',
  },
  {
    name: 'Empire State Brokers',
    address: '350 5th Ave, New York, NY 10118',
    phone: '(212) 555-0199',
    email: 'contact@empirestatebrokers.example',
    website: 'https://empirestatebrokers.example',
  },
  {
    name: 'Pacific Crest Real Estate',
    address: '2100 Harbor Blvd, San Diego, CA 92101',
    phone: '(619) 555-0131',
    email: 'team@pacificcrest.example',
    website: 'https://pacificcrest.example',
  },
  {
    name: 'Bayou City Realty',
    address: '910 Louisiana St, Houston, TX 77002',
    phone: '(713) 555-0165',
    email: 'office@bayoucityrealty.example',
    website: 'http://bayoucityrealty.example',
  },
  {
    name: 'Gulf Breeze Homes',
    address: '400 N Tampa St, Tampa, FL 33602',
    phone: '(813) 555-0120',
    email: 'hello@gulfbreezehomes.example',
    website: 'https://gulfbreezehomes.example',
  },
  {
    name: 'Hudson Valley Realty Group',
    address: '75 Main St, Poughkeepsie, NY 12601',
    phone: '(845) 555-0187',
    email: 'info@hudsonvalleyrealty.example',
    website: null,
  },
];

const FIRST = [
  'Maria',
  'James',
  'Priya',
  'Daniel',
  'Sofia',
  'Michael',
  'Aisha',
  'Robert',
  'Elena',
  'David',
  'Grace',
  'Luis',
  'Hannah',
  'Omar',
  'Chloe',
  'Ethan',
];
const LAST = [
  'Garcia',
  'Johnson',
  'Patel',
  'Kim',
  'Rossi',
  'Brown',
  'Hassan',
  'Miller',
  'Novak',
  'Nguyen',
  'Okafor',
  'Hernandez',
  'Schmidt',
  'Ali',
  'Dubois',
  'Walker',
];
const STATES = ['CA', 'TX', 'FL', 'NY'];
const CITIES = ['San Francisco', 'Austin', 'Miami', 'New York', 'San Diego', 'Houston', 'Tampa', 'Poughkeepsie'];
const STREETS = ['Oak Ave', 'Maple St', 'Cedar Ln', 'Pine Rd', 'Elm St', 'Birch Way', 'Willow Dr', 'Spruce Ct'];
const ZIPS = ['94105', '78701', '33131', '10118', '92101', '77002', '33602', '12601'];

/** A name from the two lists that no other demo person has (index n walks both lists at different rates). */
const personName = (n: number) => [FIRST[n % FIRST.length]!, LAST[(n * 5 + Math.floor(n / FIRST.length)) % LAST.length]!] as const;

/**
 * Two brokerages in each state (CA, TX, FL, NY), each with a Broker and three Agents; a school in each
 * state; one Agent with no brokerage; one deactivated and one deleted former Agent (history stays).
 * The demo logins broker@, agent@ and school@demo.test are the first of each.
 */
export async function seedPeople(db: Tx, ctx: DemoContext): Promise<void> {
  const actor = { userId: ctx.adminId, ip: '127.0.0.1' };
  let n = 0;
  const add = async (role: RoleName, first: string, last: string, email: string, brokerageId: number | null, place: number) => {
    n++;
    const row = (
      await db
        .insert(users)
        .values({
          email,
          password_hash: ctx.passwordHash,
          first_name: first,
          last_name: last,
          role_id: ROLE[role],
          brokerage_id: brokerageId,
          phone_number: `(555) 010-${String(1000 + n).slice(-4)}`,
          address: `${100 + n * 7} ${STREETS[n % STREETS.length]}`,
          city: CITIES[place % CITIES.length]!,
          state: STATES[place % STATES.length]!,
          zip_code: ZIPS[place % ZIPS.length]!,
          created_at: ctx.daysAgo(400 - n * 3),
          last_login: n % 5 === 0 ? null : ctx.daysAgo(n % 20),
          login_count: (n * 7) % 60,
        })
        .returning()
    )[0]!;
    await audit(db, actor, {
      action: 'create',
      table: 'users',
      id: row.user_id,
      new: { email, role_id: ROLE[role], brokerage_id: brokerageId },
    });
    return row;
  };

  for (const [i, b] of BROKERAGES.entries()) {
    const brokerage = (
      await db
        .insert(brokerages)
        .values({ ...b, created_at: ctx.daysAgo(500 - i * 10) })
        .returning()
    )[0]!;
    await audit(db, actor, { action: 'create', table: 'brokerages', id: brokerage.brokerage_id, new: b });
    ctx.brokerageIds.push(brokerage.brokerage_id);
    const [bf, bl] = personName(i * 4);
    const broker = await add('Broker', bf, bl, i === 0 ? 'broker@demo.test' : `broker${i + 1}@demo.test`, brokerage.brokerage_id, i);
    ctx.brokerIds.push(broker.user_id);
    for (let a = 1; a <= 3; a++) {
      const [af, al] = personName(i * 4 + a);
      const email = i === 0 && a === 1 ? 'agent@demo.test' : `agent${i + 1}.${a}@demo.test`;
      const agent = await add('Agent', af, al, email, brokerage.brokerage_id, i);
      ctx.agentIds.push(agent.user_id);
    }
  }

  const schools = [
    ['Pacific Real Estate Academy', 'school@demo.test', 0],
    ['Gulf Coast School of Real Estate', 'school2@demo.test', 1],
    ['Sunshine State Realty Institute', 'school3@demo.test', 2],
    ['Empire Real Estate Education', 'school4@demo.test', 3],
  ] as const;
  for (const [name, email, place] of schools) {
    const [first, ...rest] = name.split(' ');
    const school = await add('School', first!, rest.join(' '), email, null, place);
    ctx.schoolIds.push(school.user_id);
  }

  // An independent Agent, not with any brokerage.
  const independent = await add('Agent', 'Nora', 'Lindqvist', 'independent.agent@demo.test', null, 6);
  ctx.agentIds.push(independent.user_id);

  // A former agent, deactivated (shows the Inactive status), and one deleted: both keep their history.
  const former = await add('Agent', 'Victor', 'Lang', 'former.agent@demo.test', ctx.brokerageIds[1]!, 1);
  await db.update(users).set({ is_active: false }).where(eq(users.user_id, former.user_id));
  await audit(db, actor, { action: 'update', table: 'users', id: former.user_id, old: { is_active: true }, new: { is_active: false } });
  const gone = await add('Agent', 'Wendy', 'Moreau', 'gone.agent@demo.test', ctx.brokerageIds[3]!, 3);
  await db
    .update(users)
    .set({ is_active: false, deleted_at: ctx.daysAgo(20) })
    .where(eq(users.user_id, gone.user_id));
  await audit(db, actor, { action: 'delete', table: 'users', id: gone.user_id, old: { email: gone.email, role_id: gone.role_id } });
}
