/**
 * Demo data: realistic records for every domain, written through the same tables the app uses.
 * Each domain adds its own seed-*.ts and one call below.
 */
import { ROLE } from '@lm/shared';
import { users } from '../db/schema/index.ts';
import type { Db } from '../db/client.ts';
import { hashPassword } from '../core/passwords.ts';
import { audit, SYSTEM_ACTOR } from '../core/audit.ts';
import type { DemoContext } from './context.ts';
import { seedPeople } from './seed-people.ts';
import { seedLicensing } from './seed-licensing.ts';
import { seedCourses } from './seed-courses.ts';
import { seedOperations } from './seed-operations.ts';

export type { DemoContext } from './context.ts';

export const DEMO_PASSWORD = 'Demo-Passw0rd';

export const DEMO_LOGINS = [
  { role: 'Admin', email: 'admin@demo.test' },
  { role: 'Broker', email: 'broker@demo.test' },
  { role: 'Agent', email: 'agent@demo.test' },
  { role: 'School', email: 'school@demo.test' },
];

export async function seedDemo(db: Db): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [admin] = await tx
      .insert(users)
      .values({
        email: 'admin@demo.test',
        password_hash: passwordHash,
        first_name: 'Olivia',
        last_name: 'Bennett',
        role_id: ROLE.Admin,
        created_at: new Date(Date.now() - 600 * 86_400_000).toISOString(),
      })
      .returning();
    await audit(tx, SYSTEM_ACTOR, {
      action: 'create',
      table: 'users',
      id: admin!.user_id,
      new: { email: admin!.email, role_id: ROLE.Admin, reason: 'demo' },
    });
    const ctx: DemoContext = {
      passwordHash,
      adminId: admin!.user_id,
      brokerageIds: [],
      brokerIds: [],
      agentIds: [],
      schoolIds: [],
      licenseIds: [],
      daysAgo: (days) => new Date(Date.now() - days * 86_400_000).toISOString(),
    };
    await seedPeople(tx, ctx);
    await seedLicensing(tx, ctx);
    await seedCourses(tx, ctx);
    await seedOperations(tx, ctx);
  });
}
