/**
 * Answers match their declared shapes (core/output.ts, docs/performance.md "API throughput"): outside production
 * every answer is parsed and must come out unchanged, which is what lets production skip the parse.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyOutputPolicy, outputDifference } from '../src/core/output.ts';
import { createCallerFactory, publicProcedure, router } from '../src/core/trpc.ts';
import { appRouter } from '../src/router.ts';
import type { Context } from '../src/core/context.ts';

const row = z.object({ id: z.number(), name: z.string(), note: z.string().nullable() });

function testRouter(answer: () => unknown, production: boolean) {
  const r = router({
    one: publicProcedure.output(row).query(() => answer() as z.infer<typeof row>),
    many: publicProcedure.output(z.array(row)).query(() => [answer()] as Array<z.infer<typeof row>>),
  });
  applyOutputPolicy(r, production);
  return createCallerFactory(r)({} as Context);
}

describe('outside production', () => {
  it('passes an answer of exactly the declared shape', async () => {
    const caller = testRouter(() => ({ id: 1, name: 'A', note: null }), false);
    expect(await caller.one()).toEqual({ id: 1, name: 'A', note: null });
    expect(await caller.many()).toEqual([{ id: 1, name: 'A', note: null }]);
  });

  it('refuses a column the schema does not list, even deep in a list', async () => {
    const caller = testRouter(() => ({ id: 1, name: 'A', note: null, password_hash: 'x' }), false);
    await expect(caller.one()).rejects.toThrow(/\$\.password_hash: not in the declared output/);
    await expect(caller.many()).rejects.toThrow(/\$\[0\]\.password_hash/);
  });

  it('refuses what the parse would coerce, fill in or reject', async () => {
    await expect(testRouter(() => ({ id: 1, name: 'A' }), false).one()).rejects.toThrow(/Output validation failed/);
    expect(outputDifference({ id: 1 }, { id: 1, extra: 0 })).toMatch(/filled in/);
    expect(outputDifference({ n: '1' }, { n: 1 })).toMatch(/"1" became 1/);
    expect(outputDifference({ a: [1, 2] }, { a: [1] })).toMatch(/length changed/);
    expect(outputDifference({ a: undefined, b: 1 }, { b: 1 })).toBeUndefined();
  });

  it('is in force on every procedure of the app that declares an output', () => {
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { output?: unknown; middlewares: Array<{ name: string }> } }
    >;
    const declared = Object.entries(procedures).filter(([, p]) => p._def.output !== undefined);
    expect(declared.length).toBeGreaterThan(90);
    for (const [, p] of declared) {
      const names = p._def.middlewares.map((m) => m.name);
      expect(names).not.toContain('outputValidatorMiddleware');
      expect(names).toContain('middleware');
    }
  });
});

describe('in production', () => {
  it('sends the answer as the service built it, without parsing it again', async () => {
    const caller = testRouter(() => ({ id: 1, name: 'A', note: null, extra: true }), true);
    expect(await caller.one()).toEqual({ id: 1, name: 'A', note: null, extra: true });
  });
});
