/**
 * fast-check arbitraries built from the JSON Schemas of the OpenAPI document: valid values (what the
 * schema allows) and invalid ones (wrong types, missing required fields, out-of-range numbers, huge
 * strings). Covers the keywords the document uses (type, enum, const, anyOf/oneOf, properties,
 * required, min/max, exclusiveMinimum, minLength/maxLength, pattern, format date, items).
 */
import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** An id of an existing row, picked when the request is sent (the database changes as the run goes). */
export class IdRef {
  constructor(
    readonly table: string,
    readonly pick: number,
  ) {}
}

/** Which table an id field points to, by field name (path `{id}`s are mapped by the path). */
export const ID_FIELDS: Record<string, string> = {
  user_id: 'users',
  school_id: 'users',
  brokerage_id: 'brokerages',
  license_id: 'licenses',
  course_id: 'courses',
  completion_id: 'completions',
  payment_id: 'payments',
};

const dateArb = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2045-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const wordArb = fc.constantFrom('Ethics', 'Sales', 'North', 'Pat', 'Lee', 'Realty', 'CE', 'Main St', 'x', 'Ünïcode', '{{first_name}}');

const emailArb = fc
  .tuple(fc.constantFrom('pat', 'lee', 'sam', 'x.y'), fc.nat({ max: 1_000_000 }), fc.constantFrom('example.test', 'mail.example'))
  .map(([n, i, d]) => `${n}${i}@${d}`);
const passwordArb = fc.string({ minLength: 4, maxLength: 20 }).map((t) => `Aa1!${t.replace(/\s/g, '')}Zz9x`);

/** Field names whose text has a shape the schema cannot say (a date behind a pipe, an email, a strong password). */
function namedStringArb(name: string): fc.Arbitrary<string> | undefined {
  if (name.endsWith('_date') || name === 'date') return dateArb;
  if (name === 'email' || name.endsWith('_email')) return emailArb;
  if (/password/i.test(name)) return passwordArb;
  return undefined;
}

function stringArb(s: JsonSchema, name: string): fc.Arbitrary<string> {
  const named = s.pattern || s.format ? undefined : namedStringArb(name);
  if (named) return fc.oneof({ weight: 4, arbitrary: named }, { weight: 1, arbitrary: stringArb(s, '') });
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 60, Math.max(min, 60));
  if (s.format === 'date' || s.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return dateArb;
  if (s.pattern) {
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity) && v.trim().length >= Math.min(min, 1));
  }
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.array(wordArb, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')) },
      { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    )
    .filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min: number = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : -1e6);
  let max: number = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : 1e6);
  if (integer) {
    if (s.exclusiveMinimum !== undefined && s.minimum === undefined) min = Math.floor(s.exclusiveMinimum) + 1;
    if (s.exclusiveMaximum !== undefined && s.maximum === undefined) max = Math.ceil(s.exclusiveMaximum) - 1;
    min = Math.max(min, Number.MIN_SAFE_INTEGER);
    max = Math.min(max, Number.MAX_SAFE_INTEGER);
    // Mostly small numbers (ids, pages, days), sometimes anywhere in range.
    const small = fc.integer({ min, max: Math.min(max, Math.max(min, 0) + 100) });
    return fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min, max }) });
  }
  const lo = Math.max(min, -1e6);
  const hi = Math.min(max, 1e6);
  return fc
    .integer({ min: Math.ceil(lo * 100), max: Math.floor(hi * 100) })
    .map((c) => c / 100)
    .filter(
      (v) => (s.exclusiveMinimum === undefined || v > s.exclusiveMinimum) && (s.exclusiveMaximum === undefined || v < s.exclusiveMaximum),
    );
}

/** Values the schema accepts (modulo refinements a JSON Schema cannot say, such as 30 February). */
export function validArb(s: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (!s || Object.keys(s).length === 0) return fc.constant({});
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.anyOf || s.oneOf) return fc.oneof(...((s.anyOf ?? s.oneOf) as JsonSchema[]).map((x) => validArb(x, name)));
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t: string) => validArb({ ...s, type: t }, name)));
  switch (s.type) {
    case 'string':
      return stringArb(s, name);
    case 'integer': {
      const table = ID_FIELDS[name];
      const ints = numberArb(s, true);
      return table ? fc.oneof({ weight: 3, arbitrary: fc.nat().map((n) => new IdRef(table, n)) }, { weight: 1, arbitrary: ints }) : ints;
    }
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validArb(s.items ?? {}, name), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object':
    default: {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = (s.required ?? []) as string[];
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validArb(v, k)]));
      const full = fc.record(model, { requiredKeys: required });
      // The edge every partial update must handle: only the required fields (often none: {}).
      const minimal = fc.record(Object.fromEntries(required.filter((k) => k in model).map((k) => [k, model[k]!])));
      return fc.oneof({ weight: 5, arbitrary: full }, { weight: 1, arbitrary: minimal });
    }
  }
}

/** A value of another JSON type than the schema wants (or out of its range). */
export function wrongValueArb(s: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const generic = fc.constantFrom<unknown>([], {}, 'not-a-value', -1, 1.5, true, null, '', 'x'.repeat(5000), 1e300);
  const specific: Array<fc.Arbitrary<unknown>> = [];
  if (type === 'integer' || type === 'number') {
    if (s.maximum !== undefined) specific.push(fc.constant(s.maximum + 1));
    if (s.minimum !== undefined) specific.push(fc.constant(s.minimum - 1));
    if (s.exclusiveMinimum !== undefined) specific.push(fc.constant(s.exclusiveMinimum));
    specific.push(fc.constant('12'), fc.constant(Number.MAX_SAFE_INTEGER * 4));
  }
  if (type === 'string') {
    if (s.maxLength !== undefined) specific.push(fc.constant('y'.repeat(s.maxLength + 1)));
    specific.push(fc.constant(42), fc.constant('   '), fc.constant('2027-02-30'));
  }
  if (s.enum) specific.push(fc.constant('Not-In-The-Enum'));
  return specific.length ? fc.oneof(generic, ...specific) : generic;
}

/** An invalid object for an object schema: a required field dropped, or one field of a wrong type. */
export function invalidObjectArb(s: JsonSchema): fc.Arbitrary<unknown> {
  const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>);
  const required = (s.required ?? []) as string[];
  const options: Array<fc.Arbitrary<unknown>> = [];
  if (required.length > 0) {
    options.push(
      fc.tuple(validArb(s), fc.constantFrom(...required)).map(([v, k]) => {
        const copy = { ...(v as object) } as Record<string, unknown>;
        delete copy[k];
        return copy;
      }),
    );
  }
  if (props.length > 0) {
    options.push(
      fc
        .constantFrom(...props)
        .chain(([k, ps]) => fc.tuple(validArb(s), fc.constant(k), wrongValueArb(ps)))
        .map(([v, k, bad]) => ({ ...(v as object), [k]: bad })),
    );
  }
  return options.length ? fc.oneof(...options) : fc.constant({ unexpected: 'field' });
}

/** Replaces each IdRef with an existing id (or leaves a number as is). */
export function resolveRefs(value: unknown, pick: (ref: IdRef) => number): unknown {
  if (value instanceof IdRef) return pick(value);
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, pick));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, pick)]));
  }
  return value;
}
