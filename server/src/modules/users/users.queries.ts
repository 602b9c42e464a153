import { eq, sql } from 'drizzle-orm';
import { roleName, type RoleName, type User } from '@lm/shared';
import { brokerages, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { decoded } from '../../db/prepared.ts';

/** Columns of a user as the API shows it: never password_hash. */
export const publicUserColumns = {
  user_id: users.user_id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
  role_id: users.role_id,
  brokerage_id: users.brokerage_id,
  brokerage_name: brokerages.name,
  phone_number: users.phone_number,
  address: users.address,
  city: users.city,
  state: users.state,
  zip_code: users.zip_code,
  is_active: users.is_active,
  created_at: users.created_at,
  last_login: users.last_login,
  // The role's name beside its id, decoded as the row is read (no copy of every row to add it afterwards).
  role_name: decoded(sql`${users.role_id}`, (id): RoleName => roleName(Number(id))),
};

export async function getPublicUser(db: DbOrTx, userId: number): Promise<User | null> {
  const [row] = await db
    .select(publicUserColumns)
    .from(users)
    .leftJoin(brokerages, eq(brokerages.brokerage_id, users.brokerage_id))
    .where(eq(users.user_id, userId));
  return row ?? null;
}

/** The condition "this user's e-mail is `email`", ignoring case (the unique index users_email_lower_unique). */
export function emailIs(email: string) {
  return sql`lower(${users.email}) = lower(${email.trim()})`;
}

/** The user (deleted ones included) with this e-mail, ignoring case. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<typeof users.$inferSelect | undefined> {
  const [row] = await db.select().from(users).where(emailIs(email));
  return row;
}
