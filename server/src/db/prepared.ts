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
 *
 * With `keep: true` a shape's answers are also kept until the database changes (`keptUntilChange`): for the
 * lists' counts, which read every matching row on every page although the rows rarely change between two pages.
 */
import { Column, fillPlaceholders, is, SQL, type Placeholder } from 'drizzle-orm';
import type { Drizzle, DbOrTx, Tx } from './types.ts';
import { RAW, READ_VERSION, type ReadVersion } from './handles.ts';

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
  // The row builder is generated once per query, as an object literal of its keys: every row is created with its
  // final shape at once (a loop assigning keys one by one costs about ten times as much per row, and more garbage).
  // The keys are the query's own field names (code, never input), quoted by JSON.stringify.
  const fieldsOf = keys.map(
    (key, j) => `${JSON.stringify(key)}: ${decoders[j] ? `r[${j}] === null ? null : d[${j}](r[${j}])` : `r[${j}]`}`,
  );
  const toObjects = new Function(
    'd',
    `return function toObjects(rows) {
      const out = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) { const r = rows[i]; out[i] = { ${fieldsOf.join(', ')} }; }
      return out;
    };`,
  )(decoders) as (rows: unknown[][]) => R;
  return {
    execute(values) {
      return toObjects(stmt.raw(true).all(...fillPlaceholders(query.params, values ?? {})));
    },
  };
}

export function preparedRead<P extends Record<string, unknown>, R>(
  name: string,
  build: (d: Pick<Drizzle, 'select'>) => Preparable<R>,
): (h: DbOrTx, params: P) => Promise<R> {
  return preparedOn(name, build);
}

/**
 * An insert that every mutation of a kind runs (the audit entry), prepared as a read is; it takes a transaction and
 * runs on its connection. A column's `$defaultFn` is not called again per run: give such a column a placeholder.
 */
export function preparedWrite<P extends Record<string, unknown>>(
  name: string,
  build: (d: Pick<Drizzle, 'insert'>) => Preparable<unknown>,
): (tx: Tx, params: P) => Promise<void> {
  const run = preparedOn<P, unknown>(name, build);
  return async (tx, params) => {
    await run(tx, params);
  };
}

function preparedOn<P extends Record<string, unknown>, R>(
  name: string,
  build: (d: Drizzle) => Preparable<R>,
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
  options: { keep?: boolean } = {},
): (h: DbOrTx, shape: S, params: P) => Promise<R> {
  const shapes = new Map<string, (h: DbOrTx, params: P) => Promise<R>>();
  const read = (h: DbOrTx, shape: S, params: P) => {
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
  return options.keep ? keptUntilChange(read) : read;
}

/** Answers kept per database and version; beyond this the oldest is dropped. */
const ANSWERS_KEPT = 256;

/**
 * A read whose answers are kept, per database and per shape and values, until anything commits to the database
 * (docs/performance.md "API throughput"). Exact by construction: the key includes the database's read version
 * (db/handles.ts READ_VERSION), taken before the read runs, and any commit since changes it; inside a transaction,
 * and where there is no such version (PostgreSQL, whose other instances write too), every call reads. Kept answers
 * are shared between callers, which must not change them.
 */
export function keptUntilChange<S, P extends Record<string, unknown>, R>(
  read: (h: DbOrTx, shape: S, params: P) => Promise<R>,
): (h: DbOrTx, shape: S, params: P) => Promise<R> {
  const kept = new WeakMap<object, { version: number; answers: Map<string, R> }>();
  return async (h, shape, params) => {
    const version = (h as { [READ_VERSION]?: ReadVersion | undefined })[READ_VERSION]?.();
    if (version === undefined) return read(h, shape, params);
    const key = `${shapeKeyOf(shape)}\u0000${JSON.stringify(params)}`;
    let entry = kept.get(h);
    if (entry?.version !== version) {
      entry = { version, answers: new Map() };
      kept.set(h, entry);
    }
    const known = entry.answers.get(key);
    if (known !== undefined) return known;
    const answer = await read(h, shape, params);
    // Another call may have seen a newer version meanwhile: keep the answer only under the version it was read at.
    if (kept.get(h) === entry) {
      if (entry.answers.size >= ANSWERS_KEPT) entry.answers.delete(entry.answers.keys().next().value!);
      entry.answers.set(key, answer);
    }
    return answer;
  };
}

/** Shape keys of every preparedShapes read, numbered (per name, the key prefixed by it). */
const shapeIds = new Map<string, number>();
function nextShapeId(shape: string): number {
  const id = shapeIds.size + 1;
  shapeIds.set(shape, id);
  return id;
}
