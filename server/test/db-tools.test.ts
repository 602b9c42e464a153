/**
 * The test tools that put a world back (authz) must put it back exactly: the tables a change wrote, counted by the
 * write counters, copied back from the snapshot, and on PostgreSQL the tables that reference them along with them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rawExec, rawRows } from '../src/db/raw.ts';
import { licenses, users } from '../src/db/schema/index.ts';
import { createTestEnv, type TestEnv } from './helpers.ts';
import { seedWorld, type World } from './authz/world.ts';
import { installWriteCounters, NOT_SNAPSHOTTED, restoreWorld, snapshotWorld, writeCounts, type WorldSnapshot } from './db-tools.ts';

let env: TestEnv;
let world: World;
let snap: WorldSnapshot;

/** Every snapshotted table's rows, in a stable order. */
async function contents(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of snap.tables) out[t] = await rawRows(env.db, sql.raw(`SELECT * FROM "${t}" ORDER BY 1`));
  return out;
}

/** The tables whose write counts moved since `before`. */
async function written(before: Map<string, number>): Promise<string[]> {
  const now = await writeCounts(env.db);
  return [...before.keys()].filter((t) => now.get(t) !== before.get(t)).sort();
}

beforeAll(async () => {
  env = await createTestEnv();
  world = await seedWorld(env);
  snap = await snapshotWorld(env.db, path.join(env.dir, 'db-tools-world.sqlite'));
  await installWriteCounters(env.db, new Set(NOT_SNAPSHOTTED));
}, 60_000);
afterAll(async () => env?.close());

describe('putting a world back', () => {
  it('counts the writes of each table and puts back only those tables, as they were', async () => {
    const seeded = await contents();
    const before = await writeCounts(env.db);
    const licenseId = world.licenseOf.get(world.agent1.user_id)!;
    await env.db.transaction((tx) => tx.update(licenses).set({ license_number: 'CHANGED-1' }).where(eq(licenses.license_id, licenseId)));
    expect(await written(before)).toEqual(['licenses']);

    await restoreWorld(env.db, snap, ['licenses']);
    expect(await contents()).toEqual(seeded);
  });

  it('puts back a table that other tables reference without losing their rows', async () => {
    const seeded = await contents();
    const before = await writeCounts(env.db);
    // users is referenced by sessions, licenses, payments, …: on PostgreSQL its rows cannot be deleted and
    // inserted again alone.
    await env.db.transaction(async (tx) => {
      await tx.update(users).set({ first_name: 'Changed' }).where(eq(users.user_id, world.agent1.user_id));
      await rawExec(tx, sql`DELETE FROM sessions WHERE user_id = ${world.agent2.user_id}`);
    });
    expect(await written(before)).toEqual(['sessions', 'users']);

    await restoreWorld(env.db, snap, await written(before));
    expect(await contents()).toEqual(seeded);
  });

  it('with no tables named, puts back every table', async () => {
    const seeded = await contents();
    await env.db.transaction(async (tx) => {
      await rawExec(tx, sql`DELETE FROM sessions`);
      await tx.update(licenses).set({ license_number: sql`license_number || '-CHANGED'` });
    });
    await restoreWorld(env.db, snap);
    expect(await contents()).toEqual(seeded);
  });
});
