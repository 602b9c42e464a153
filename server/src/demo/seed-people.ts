import { eq } from 'drizzle-orm';
import { ROLE, type RoleName } from '@lm/shared';
import { brokerages, users } from '../db/schema/index.ts';
import type { DbOrTx } from '../db/client.ts';
import { audit } from '../core/audit.ts';
import type { DemoContext } from './seed.ts';

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
const CITIES = ['San Francisco', 'Austin', 'Miami', 'New York'];

/** Brokerages with a broker and agents in each of the four state bands, schools, and the demo logins. */
export function seedPeople(db: DbOrTx, ctx: DemoContext) {
  let n = 0;
  const add = (role: RoleName, first: string, last: string, email: string, brokerageId: number | null, state: string, city: string) => {
    n++;
    const row = db
      .insert(users)
      .values({
        email,
        password_hash: ctx.passwordHash,
        first_name: first,
        last_name: last,
        role_id: ROLE[role],
        brokerage_id: brokerageId,
        phone_number: `(555) 010-${String(1000 + n).slice(-4)}`,
        city,
        state,
        created_at: ctx.daysAgo(400 - n * 3),
        last_login: n % 5 === 0 ? null : ctx.daysAgo(n % 20),
        login_count: (n * 7) % 60,
      })
      .returning()
      .get();
    audit(
      db,
      { userId: ctx.adminId, ip: '127.0.0.1' },
      { action: 'create', table: 'users', id: row.user_id, new: { email, role_id: ROLE[role] } },
    );
    return row;
  };

  BROKERAGES.forEach((b, i) => {
    const brokerage = db
      .insert(brokerages)
      .values({ ...b, created_at: ctx.daysAgo(500 - i * 10) })
      .returning()
      .get();
    audit(db, { userId: ctx.adminId, ip: '127.0.0.1' }, { action: 'create', table: 'brokerages', id: brokerage.brokerage_id, new: b });
    ctx.brokerageIds.push(brokerage.brokerage_id);
    const state = STATES[i]!;
    const city = CITIES[i]!;
    const broker = add(
      'Broker',
      FIRST[i * 4]!,
      LAST[i * 4]!,
      i === 0 ? 'broker@demo.test' : `broker${i + 1}@demo.test`,
      brokerage.brokerage_id,
      state,
      city,
    );
    ctx.brokerIds.push(broker.user_id);
    for (let a = 1; a <= 3; a++) {
      const email = i === 0 && a === 1 ? 'agent@demo.test' : `agent${i + 1}.${a}@demo.test`;
      const agent = add('Agent', FIRST[i * 4 + a]!, LAST[i * 4 + a]!, email, brokerage.brokerage_id, state, city);
      ctx.agentIds.push(agent.user_id);
    }
  });
  const schools = [
    ['Pacific Real Estate Academy', 'school@demo.test', 'CA', 'Los Angeles'],
    ['Gulf Coast School of Real Estate', 'school2@demo.test', 'TX', 'Houston'],
  ] as const;
  for (const [name, email, state, city] of schools) {
    const [first, ...rest] = name.split(' ');
    const school = add('School', first!, rest.join(' '), email, null, state, city);
    ctx.schoolIds.push(school.user_id);
  }
  // One former agent, deactivated, to show the Inactive status.
  const former = add('Agent', 'Victor', 'Lang', 'former.agent@demo.test', ctx.brokerageIds[1]!, 'TX', 'Austin');
  db.update(users).set({ is_active: false }).where(eq(users.user_id, former.user_id)).run();
}
