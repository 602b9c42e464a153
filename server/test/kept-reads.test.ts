/**
 * Reads kept until the database changes (db/prepared.ts keptUntilChange, docs/performance.md "API throughput"):
 * the lists' counts are not recounted while nothing commits, and never answer from before a commit, whoever made
 * it (a request, another connection, another process), nor from inside a transaction that is then rolled back.
 * On PostgreSQL nothing is kept (other instances write too): the same answers, every call reading.
 */
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../src/db/client.ts';
import { keptUntilChange } from '../src/db/prepared.ts';
import { rawExec } from '../src/db/raw.ts';
import type { SqliteDb } from '../src/db/sqlite/driver.ts';
import type { DbOrTx } from '../src/db/types.ts';
import { users } from '../src/db/schema/index.ts';
import { callerFor, createTestEnv, seedRoles, seedUser, type Roles, type TestEnv } from './helpers.ts';

let env: TestEnv;
let roles: Roles;
beforeAll(async () => {
  env = await createTestEnv();
  roles = await seedRoles(env);
}, 60_000);
afterAll(async () => {
  await env.close();
});

const total = async () => (await callerFor(env, roles.admin.user_id).users.list({ limit: 2 })).pagination.total;

/** A second connection to the same database, as another process would write. */
async function writeFromOutside(statement: string): Promise<void> {
  if (ENGINE === 'sqlite') {
    const other = new Database((env.db as SqliteDb).file);
    try {
      other.pragma('busy_timeout = 5000');
      other.exec(statement);
    } finally {
      other.close();
    }
  } else {
    await rawExec(env.db, sql.raw(statement));
  }
}

describe('kept reads', () => {
  it('read once while nothing commits, again after any commit, every time inside a transaction', async () => {
    let reads = 0;
    const read = keptUntilChange(async (_h: DbOrTx, shape: string, params: { n: number }) => {
      reads++;
      return [{ shape, n: params.n }];
    });
    const first = await read(env.db, 'a', { n: 1 });
    const again = await read(env.db, 'a', { n: 1 });
    expect(again).toEqual(first);
    // On SQLite the very answer kept, on PostgreSQL a second read.
    expect(again === first).toBe(ENGINE === 'sqlite');
    expect(reads).toBe(ENGINE === 'sqlite' ? 1 : 2);
    // Other values or another shape are other answers.
    expect(await read(env.db, 'a', { n: 2 })).toEqual([{ shape: 'a', n: 2 }]);
    expect(await read(env.db, 'b', { n: 1 })).toEqual([{ shape: 'b', n: 1 }]);
    const before = reads;
    await seedUser(env, 'Agent');
    await read(env.db, 'a', { n: 1 });
    expect(reads).toBe(before + 1);
    await env.db.transaction(async (tx) => {
      await read(env.db, 'a', { n: 1 });
      await read(tx, 'a', { n: 1 });
    });
    expect(reads).toBe(before + 3);
  });

  it('the users count follows writes by the app, by another connection and by a rolled-back transaction', async () => {
    const start = await total();
    expect(await total()).toBe(start);

    await seedUser(env, 'Agent');
    expect(await total()).toBe(start + 1);

    const email = `outside-${Date.now()}@test.example`;
    await writeFromOutside(
      `INSERT INTO users (email, password_hash, first_name, last_name, role_id, is_active, created_at, updated_at)
       VALUES ('${email}', 'x', 'Out', 'Side', 3, ${ENGINE === 'sqlite' ? 1 : 'true'}, ${ENGINE === 'sqlite' ? "'2026-01-01T00:00:00.000Z'" : 'now()'}, ${ENGINE === 'sqlite' ? "'2026-01-01T00:00:00.000Z'" : 'now()'})`,
    );
    expect(await total()).toBe(start + 2);

    // Inside a transaction the count sees the transaction's own insert; after the rollback it is gone again.
    let inside = 0;
    await expect(
      env.db.transaction(async (tx) => {
        await tx.insert(users).values({
          email: `rolled-back-${Date.now()}@test.example`,
          password_hash: 'x',
          first_name: 'Rolled',
          last_name: 'Back',
          role_id: 3,
          is_active: true,
        });
        inside = await total();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(inside).toBe(start + 3);
    expect(await total()).toBe(start + 2);

    await writeFromOutside(
      `UPDATE users SET deleted_at = ${ENGINE === 'sqlite' ? "'2026-01-02T00:00:00.000Z'" : 'now()'} WHERE email = '${email}'`,
    );
    expect(await total()).toBe(start + 1);
  });
});
