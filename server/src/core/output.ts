/**
 * Answers and their declared shapes (docs/performance.md "API throughput", docs/architecture.md "Routers").
 *
 * Every procedure declares its output schema with `.output()`: the OpenAPI document, the integrators' types and
 * the client's types come from it. Parsing every answer against it again at run time (50 rows of 16 columns for
 * a list page) cost about a tenth of a list request, to prove something that holds by construction: services
 * build their answers from explicit column lists typed by the shared schemas. So the proof moves to where it
 * costs nothing:
 *   - development and tests (NODE_ENV other than production): every answer is parsed against the schema and must
 *     come out of the parse unchanged: no key stripped (a column the schema does not list, e.g. a password
 *     hash), no value coerced, no default filled in. Anything else fails the call with 500, so the server
 *     suite, which calls every procedure, fails on it;
 *   - production: the answer goes out as the service built it.
 * `applyOutputPolicy(appRouter)` sets this once, at start-up, on every procedure of the router.
 *
 * A workaround kept in this one file (docs/architecture.md "Where we reach into a dependency"): tRPC has no public
 * way to declare an output schema (for the OpenAPI document and the types) without parsing every answer with it,
 * so this replaces the output middleware in the procedure's definition (`_def.middlewares`, the entry whose `_type`
 * is 'output'). server/test/output-policy.test.ts fails if a tRPC upgrade moves either.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AnyRouter } from '@trpc/server';
import type { ZodType } from 'zod';
import { AppError } from '../base/errors.ts';

type Middleware = ((opts: { next: () => Promise<{ ok: boolean; data?: unknown }> }) => Promise<unknown>) & { _type?: string };
interface ProcedureDef {
  output?: unknown;
  middlewares: Middleware[];
}

/** The first place where `parsed` differs from `raw` (undefined: they are the same answer), for the error. */
export function outputDifference(raw: unknown, parsed: unknown, path = '$'): string | undefined {
  if (raw instanceof Date || parsed instanceof Date) {
    return raw instanceof Date && parsed instanceof Date && raw.getTime() === parsed.getTime() ? undefined : `${path}: changed`;
  }
  if (Array.isArray(raw) || Array.isArray(parsed)) {
    if (!Array.isArray(raw) || !Array.isArray(parsed)) return `${path}: changed`;
    if (raw.length !== parsed.length) return `${path}: length changed`;
    for (let i = 0; i < raw.length; i++) {
      const d = outputDifference(raw[i], parsed[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (raw !== null && typeof raw === 'object' && parsed !== null && typeof parsed === 'object') {
    const r = raw as Record<string, unknown>;
    const p = parsed as Record<string, unknown>;
    // A key whose value is undefined is not sent (JSON), whichever side has it.
    for (const key of Object.keys(r)) {
      if (r[key] !== undefined && !(key in p)) return `${path}.${key}: not in the declared output (stripped)`;
    }
    for (const key of Object.keys(p)) {
      if (p[key] !== undefined && r[key] === undefined) return `${path}.${key}: filled in by the schema`;
      const d = outputDifference(r[key], p[key], `${path}.${key}`);
      if (d) return d;
    }
    return undefined;
  }
  return isDeepStrictEqual(raw, parsed) ? undefined : `${path}: ${JSON.stringify(raw)} became ${JSON.stringify(parsed)}`;
}

/** The development and test check: parse, and refuse an answer the parse would change. */
function checkedOutput(parse: (value: unknown) => unknown, path: string): Middleware {
  const middleware: Middleware = async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    let parsed: unknown;
    try {
      parsed = await parse(result.data);
    } catch (cause) {
      throw new AppError('INTERNAL_SERVER_ERROR', `Output validation failed (${path})`, { cause });
    }
    const difference = outputDifference(result.data, parsed);
    if (difference) throw new AppError('INTERNAL_SERVER_ERROR', `Output of ${path} differs from its declared shape: ${difference}`);
    return result;
  };
  middleware._type = 'output';
  return middleware;
}

export function applyOutputPolicy(router: AnyRouter, production = process.env.NODE_ENV === 'production'): void {
  const procedures = router._def.procedures as Record<string, { _def: ProcedureDef }>;
  for (const [path, procedure] of Object.entries(procedures)) {
    const def = procedure._def;
    const at = def.middlewares.findIndex((m) => m._type === 'output');
    if (at === -1 || def.output === undefined) continue;
    if (production) def.middlewares.splice(at, 1);
    else {
      const schema = def.output as ZodType;
      def.middlewares[at] = checkedOutput((value) => schema.parseAsync(value), path);
    }
  }
}
