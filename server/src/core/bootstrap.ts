import crypto from 'node:crypto';
import { count } from 'drizzle-orm';
import { normalizeEmail, passwordProblems, ROLE } from '@lm/shared';
import { users } from '../db/schema/index.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import type { Config } from '../config.ts';
import { audit, SYSTEM_ACTOR } from './audit.ts';
import { hashPassword } from './passwords.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/** A strong random password that satisfies the password rule (upper, lower, digit). */
export function generatePassword(): string {
  for (;;) {
    const candidate = crypto.randomBytes(15).toString('base64url');
    if (!passwordProblems(candidate, 12)) return candidate;
  }
}

/**
 * First start: with no users, create the Admin from ADMIN_EMAIL / ADMIN_PASSWORD, or generate a
 * password and print it once. Returns what was created, or null when users already exist.
 */
export async function ensureAdmin(
  db: Db,
  config: Config,
  print: (line: string) => void,
): Promise<{ email: string; generated: boolean } | null> {
  const hasUsers = async (handle: DbOrTx) => ((await handle.select({ n: count() }).from(users))[0]?.n ?? 0) > 0;
  if (await hasUsers(db)) return null;
  const email = normalizeEmail(config.adminEmail ?? DEFAULT_ADMIN_EMAIL);
  const generated = !config.adminPassword;
  const password = config.adminPassword ?? generatePassword();
  const hash = await hashPassword(password);
  // Checked again inside the transaction: instances starting together on one PostgreSQL database
  // create one Admin (the transaction is serialisable; the loser sees the winner's user and stops).
  const created = await db.transaction(async (tx) => {
    if (await hasUsers(tx)) return false;
    const [row] = await tx
      .insert(users)
      .values({ email, password_hash: hash, first_name: 'System', last_name: 'Administrator', role_id: ROLE.Admin })
      .returning({ user_id: users.user_id });
    await audit(tx, SYSTEM_ACTOR, {
      action: 'create',
      table: 'users',
      id: row!.user_id,
      new: { email, role_id: ROLE.Admin, reason: 'first start' },
    });
    return true;
  });
  if (!created) return null;
  if (generated) {
    print('');
    print('  First start: created the Admin account.');
    print(`    email:    ${email}`);
    print(`    password: ${password}`);
    print('  This password is shown only once. Sign in and change it under Profile.');
    print('');
  } else {
    print(`First start: created the Admin account ${email} from ADMIN_EMAIL / ADMIN_PASSWORD.`);
  }
  return { email, generated };
}
