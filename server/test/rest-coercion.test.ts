/**
 * Query strings and path parameters arrive as text (docs/architecture.md "The REST adapter"): every number a
 * published GET/DELETE input or a path parameter carries is parsed from text by a pipe (`numberFromText` of
 * shared/src/text.ts for ids, z.preprocess / transform) or, for query-only page and filter numbers, declared
 * `z.coerce`. A plain `z.number()` there would answer 400 to every REST call that sets it; a boolean must be
 * `queryBoolean` (exactly "true"/"false"): `z.coerce.boolean()` would read "false" as true. Body values are never
 * coerced (server/test/exact-input.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { appRouter } from '../src/router.ts';

interface ZodLike {
  _zod?: { def: { type: string; coerce?: boolean; innerType?: ZodLike; element?: ZodLike; in?: ZodLike; shape?: Record<string, ZodLike> } };
}
interface ProcedureLike {
  _def: { inputs: ZodLike[]; meta?: { openapi?: { method: string; path: string } } };
}

/** The type a query value is parsed as: optional/nullable/default/array unwrapped; a pipe parses text itself. */
function leaf(schema: ZodLike): ZodLike {
  const def = schema._zod?.def;
  if (!def) return schema;
  if (['optional', 'nullable', 'default', 'prefault'].includes(def.type)) return leaf(def.innerType!);
  if (def.type === 'array') return leaf(def.element!);
  return schema;
}

function textProblems(): string[] {
  const problems: string[] = [];
  for (const [path, procedure] of Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureLike>)) {
    const openapi = procedure._def.meta?.openapi;
    const input = procedure._def.inputs[0];
    if (!openapi || !input) continue;
    const object = leaf(input)._zod?.def;
    if (object?.type !== 'object') continue;
    const fromQuery = openapi.method === 'GET' || openapi.method === 'DELETE';
    for (const [key, field] of Object.entries(object.shape!)) {
      if (!fromQuery && !openapi.path.includes(`{${key}}`)) continue;
      const def = leaf(field)._zod!.def;
      if (def.type === 'boolean') problems.push(`${path}.${key}: a boolean from text (use a string pipe)`);
      else if (['number', 'bigint', 'date'].includes(def.type) && !def.coerce)
        problems.push(`${path}.${key}: ${def.type} without z.coerce`);
    }
  }
  return problems;
}

describe('REST inputs from text', () => {
  it('every query and path number is parsed from text (a pipe, or z.coerce on a query)', () => {
    expect(textProblems()).toEqual([]);
  });

  it('the check finds a plain number (it can fail)', async () => {
    const { z } = await import('zod');
    const probe = z.object({ page: z.number().optional() });
    const shape = leaf(probe as unknown as ZodLike)._zod!.def.shape!.page!;
    expect(leaf(shape)._zod!.def.coerce).toBeFalsy();
    expect(leaf(z.coerce.number().optional() as unknown as ZodLike)._zod!.def.coerce).toBe(true);
  });
});
