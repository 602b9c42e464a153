/**
 * Reads that run on every request, built and prepared once per connection instead of on every call
 * (docs/performance.md "API throughput"). `build` receives the query builder and returns a query whose varying
 * values are `sql.placeholder(name)`; the result runs it with `params` on whatever the handle reads from at that
 * moment (the reader, or the open transaction's connection, so a read inside a transaction still sees its
 * writes). On SQLite the prepared query is kept per connection and its rows are turned into objects by a mapper
 * made once for its columns (Drizzle's own mapping re-inspects every column of every row); on PostgreSQL it is a
 * named statement that node-postgres prepares once per pooled connection (a transaction's own handle prepares it
 * for that transaction).
 *
 * `preparedShapes` is the same for reads whose SQL depends on which filters a request sets (a list's filters,
 * sort and scope): one prepared read per shape (a string, or an object of what decides the SQL, keyed by
 * shapeKeyOf); the values still go in as placeholders.
 */
import { Column, fillPlaceholders, is, SQL, type Placeholder } from 'drizzle-orm';
import type { Drizzle, DbOrTx } from './types.ts';
import { RAW } from './handles.ts';

interface Executable<R> {
  execute(params?: Record<string, unknown>): R | Promise<R>;
}
interface Preparable<R> {
  prepare(name: string): Executable<R>;
}

/** The parts of Drizzle's better-sqlite3 prepared query this module reads (drizzle-orm/better-sqlite3/session). */
interface SqlitePrepared {
  stmt: { raw(on: boolean): { all(...params: unknown[]): unknown[][] } };
  query: { params: Array<unknown | Placeholder> };
  fields?: Array<{ path: string[]; field: unknown }>;
  customResultMapper?: unknown;
}

type Decode = ((value: unknown) => unknown) | null;
const identity = Column.prototype.mapFromDriverValue;

/** A plain select's rows as objects, without Drizzle's per-row inspection; undefined when the query is not one. */
function fastSqlite<R>(prepared: unknown): Executable<R> | undefined {
  const p = prepared as Partial<SqlitePrepared>;
  if (!p.stmt || !p.query || !p.fields || p.customResultMapper || !p.fields.every((f) => f.path.length === 1)) return undefined;
  const keys = p.fields.map((f) => f.path[0]!);
  const decoders: Decode[] = p.fields.map(({ field }) => {
    type Decoder = { mapFromDriverValue(value: unknown): unknown };
    const decoder: Decoder | undefined = is(field, Column)
      ? field
      : is(field, SQL)
        ? (field as unknown as { decoder: Decoder }).decoder
        : (field as { sql?: { decoder: Decoder } }).sql?.decoder;
    if (!decoder || decoder.mapFromDriverValue === identity) return null;
    return (value: unknown) => decoder.mapFromDriverValue(value);
  });
  const { stmt, query } = p as SqlitePrepared;
  const n = keys.length;
  return {
    execute(values) {
      const rows = stmt.raw(true).all(...fillPlaceholders(query.params, values ?? {}));
      const out = new Array<Record<string, unknown>>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const o: Record<string, unknown> = {};
        for (let j = 0; j < n; j++) {
          const v = row[j];
          const decode = decoders[j];
          o[keys[j]!] = v === null || !decode ? v : decode(v);
        }
        out[i] = o;
      }
      return out as R;
    },
  };
}

export function preparedRead<P extends Record<string, unknown>, R>(
  name: string,
  build: (d: Pick<Drizzle, 'select'>) => Preparable<R>,
): (h: DbOrTx, params: P) => Promise<R> {
  const byConnection = new WeakMap<object, Executable<R>>();
  return async (h, params) => {
    const d = (h as unknown as Record<symbol, Drizzle>)[RAW]!;
    let query = byConnection.get(d);
    if (!query) {
      const prepared = build(d).prepare(name);
      query = fastSqlite<R>(prepared) ?? prepared;
      byConnection.set(d, query);
    }
    return (await query.execute(params)) as R;
  };
}

/** Shapes kept per read (most recently used); a rarer shape is built and prepared again when it comes back. */
const SHAPES_KEPT = 64;

/**
 * A shape's key: a string as it is, an object's values in order (lists joined by commas, booleans as t/f), so two
 * shapes with the same key build the same SQL. A shape holds only what decides the SQL, never a value.
 */
function shapeKeyOf(shape: unknown): string {
  if (typeof shape !== 'object' || shape === null) return String(shape);
  return Object.values(shape)
    .map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v)))
    .join('|');
}

export function preparedShapes<S extends string | object, P extends Record<string, unknown>, R>(
  name: string,
  build: (d: Pick<Drizzle, 'select'>, shape: S) => Preparable<R>,
): (h: DbOrTx, shape: S, params: P) => Promise<R> {
  const shapes = new Map<string, (h: DbOrTx, params: P) => Promise<R>>();
  return (h, shape, params) => {
    const key = shapeKeyOf(shape);
    let read = shapes.get(key);
    if (read) {
      shapes.delete(key);
    } else {
      // A PostgreSQL statement name is at most 63 bytes and names one SQL text: the shape goes in as its number.
      read = preparedRead<P, R>(`${name}_${(shapeIds.get(`${name}:${key}`) ?? nextShapeId(`${name}:${key}`)).toString(36)}`, (d) =>
        build(d, shape),
      );
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
    }
    shapes.set(key, read);
    return read(h, params);
  };
}

/** Shape keys of every preparedShapes read, numbered (per name, the key prefixed by it). */
const shapeIds = new Map<string, number>();
function nextShapeId(shape: string): number {
  const id = shapeIds.size + 1;
  shapeIds.set(shape, id);
  return id;
}
