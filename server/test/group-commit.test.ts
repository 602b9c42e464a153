/**
 * Transactions that arrive together (docs/architecture.md "Data layer"): on SQLite they share a COMMIT (group
 * commit), each in a savepoint of its own. Whatever the engine: a failing transaction rolls back only its own
 * writes, the others commit, and a transaction's answer comes only once its writes are committed (a read
 * outside any transaction sees them at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { brokerages } from '../src/db/schema/index.ts';
import { AppError } from '../src/base/errors.ts';
import { ENGINE } from '../src/db/client.ts';
import type { SqliteDb } from '../src/db/sqlite/driver.ts';
import { createTestEnv, type TestEnv } from './helpers.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env.close();
});

describe('transactions arriving together', () => {
  it('40 at once, every fifth failing after its write: the failures leave nothing, the rest are committed when answered', async () => {
    const tag = `gc-${Date.now()}`;
    // On SQLite, count the COMMITs the writer runs: the 40 arrive together, so they share a few.
    let commits = 0;
    const writer = ENGINE === 'sqlite' ? (env.db as SqliteDb).writer : undefined;
    const exec = writer?.exec.bind(writer);
    if (writer && exec) {
      writer.exec = (source: string) => {
        if (source === 'COMMIT') commits++;
        return exec(source);
      };
    }
    const seenAtAnswer: boolean[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        env.db
          .transaction(async (tx) => {
            await tx.insert(brokerages).values({ name: `${tag}-${i}` });
            // A nested transaction (a savepoint within the savepoint) that fails on its own, caught: only its write goes.
            await env.db
              .transaction(async (inner) => {
                await inner.insert(brokerages).values({ name: `${tag}-${i}-inner` });
                throw new AppError('CONFLICT', 'inner');
              })
              .catch(() => undefined);
            if (i % 5 === 4) throw new AppError('BAD_REQUEST', `no ${i}`);
            return i;
          })
          .then(async (n) => {
            // Answered: committed, so a plain read (the reader connection on SQLite) sees it.
            const [row] = await env.db
              .select()
              .from(brokerages)
              .where(eq(brokerages.name, `${tag}-${n}`));
            seenAtAnswer.push(row !== undefined);
            return n;
          }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value);
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 5 !== 4));
    expect(failed.map((f) => (f.reason as Error).message).sort()).toEqual([
      'no 14',
      'no 19',
      'no 24',
      'no 29',
      'no 34',
      'no 39',
      'no 4',
      'no 9',
    ]);
    expect(seenAtAnswer.every(Boolean)).toBe(true);
    const stored = (
      await env.db
        .select({ name: brokerages.name })
        .from(brokerages)
        .where(like(brokerages.name, `${tag}-%`))
    ).map((r) => r.name);
    expect(stored.sort()).toEqual(ok.map((i) => `${tag}-${i}`).sort());
    if (writer && exec) {
      writer.exec = exec;
      expect(commits).toBeGreaterThan(0);
      expect(commits).toBeLessThanOrEqual(4);
    }
  });

  it('a transaction started after a group is answered on its own (nothing waits for company)', async () => {
    const [row] = await env.db.transaction((tx) => tx.insert(brokerages).values({ name: 'alone' }).returning());
    const [seen] = await env.db.select().from(brokerages).where(eq(brokerages.brokerage_id, row!.brokerage_id));
    expect(seen?.name).toBe('alone');
  });
});
