/**
 * Reads that run on every request, built and prepared once per connection instead of on every call
 * (docs/performance.md "API throughput"). `build` receives the query builder and returns a query whose varying
 * values are `sql.placeholder(name)`; the result runs it with `params` on whatever the handle reads from at that
 * moment (the reader, or the open transaction's connection, so a read inside a transaction still sees its
 * writes). On SQLite the prepared query is kept per connection; on PostgreSQL it is a named statement that
 * node-postgres prepares once per pooled connection (a transaction's own handle prepares it for that transaction).
 * Only documented Drizzle APIs are used: `prepare()`, `execute()`, SQLite's `values()` and a column's
 * `mapFromDriverValue()`.
 *
 * `preparedShapes` is the same for reads whose SQL depends on which filters a request sets (a list's filters,
 * sort and scope): one prepared read per shape (a string, or an object of what decides the SQL, keyed by
 * shapeKeyOf); the values still go in as placeholders. `preparedSelect` is that for a read of table columns
 * (the lists' pages, a license with its holder), whose SQLite rows are built from arrays of values.
 *
 * With `keep: true` a shape's answers are also kept until the database changes (`keptUntilChange`): for the
 * lists' counts, which read every matching row on every page although the rows rarely change between two pages.
 */
import { Column, is, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteSelectBuilder } from 'drizzle-orm/sqlite-core';
import type { Drizzle, DbOrTx, Tx } from './types.ts';
import { RAW, READ_VERSION, type ReadVersion } from './handles.ts';

interface Executable<R> {
  execute(params?: Record<string, unknown>): R | Promise<R>;
}
interface Preparable<R> {
  prepare(name: string): Executable<R>;
}
/** SQLite's prepared select also answers its rows as arrays of values (Drizzle's documented `.values()`). */
interface HasValues {
  values(params?: Record<string, unknown>): unknown[][];
}

/** What a read selects, by the key each has in a row: table columns, and expressions made by `decoded()`. */
export type Columns = Record<string, SQLiteColumn | SQL>;

type Decode = (value: unknown) => unknown;
const decoders = new WeakMap<SQL, Decode>();

/**
 * An expression whose value is decoded as the row is read (Drizzle's `mapWith`), in a form a `preparedSelect` can
 * read it back from: e.g. cents in the database as dollars in the row.
 */
export function decoded<T>(expr: SQL, decode: (value: unknown) => T): SQL<T> {
  const out = expr.mapWith(decode) as SQL<T>;
  decoders.set(out, decode);
  return out;
}

/** A column whose driver value is its value (Drizzle's base `Column.prototype.mapFromDriverValue`): nothing to call. */
const IDENTITY: Decode = (value) => value;

function decoderOf(key: string, field: SQLiteColumn | SQL): Decode {
  if (is(field, Column)) {
    if (field.mapFromDriverValue === Column.prototype.mapFromDriverValue) return IDENTITY;
    return (value) => field.mapFromDriverValue(value);
  }
  const decode = decoders.get(field);
  // A programming error, found when the module loads: every field says how its value is read.
  if (!decode) throw new TypeError(`preparedSelect: "${key}" is neither a column nor made by decoded()`);
  return decode;
}

/**
 * Rows as objects from SQLite's arrays of values: each value decoded by its field as Drizzle would (a boolean, a
 * JSON text, cents), null kept null. Drizzle's own `execute()` looks up every field's decoder again on every row;
 * this finds them once per read (docs/performance.md "API throughput").
 */
function rowsFromValues<R>(columns: Columns, prepared: HasValues): Executable<R> {
  const keys = Object.keys(columns);
  const decode = keys.map((key) => decoderOf(key, columns[key]!));
  const width = keys.length;
  return {
    execute(params) {
      const rows = prepared.values(params);
      const out = new Array<Record<string, unknown>>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        const row: Record<string, unknown> = {};
        for (let j = 0; j < width; j++) {
          const v = r[j];
          const d = decode[j]!;
          row[keys[j]!] = v === null || d === IDENTITY ? v : d(v);
        }
        out[i] = row;
      }
      return out as R;
    },
  };
}

/**
 * An insert that every mutation of a kind runs (the audit entry, a license's create), prepared as a read is; it takes
 * a transaction and runs on its connection, and answers what the insert returns (its `returning()` rows, if any).
 * A column's `$defaultFn` is not called again per run: give such a column a placeholder.
 */
export function preparedWrite<P extends Record<string, unknown>, R = unknown>(
  name: string,
  build: (d: Pick<Drizzle, 'insert'>) => Preparable<R>,
): (tx: Tx, params: P) => Promise<R> {
  const run = preparedOn<P, R>(name, build);
  return (tx, params) => run(tx, params);
}

/**
 * preparedWrite with one prepared statement per shape (see preparedShapes): for an update whose SET list depends on
 * the columns a request changes. A column's `$onUpdateFn` is not called again per run: give it a placeholder too.
 */
export function preparedWriteShapes<S extends string | object, P extends Record<string, unknown>, R = unknown>(
  name: string,
  build: (d: Pick<Drizzle, 'insert' | 'update'>, shape: S) => Preparable<R>,
): (tx: Tx, shape: S, params: P) => Promise<R> {
  const run = preparedShapes<S, P, R>(name, build);
  return (tx, shape, params) => run(tx, shape, params);
}

function preparedOn<P extends Record<string, unknown>, R>(
  name: string,
  build: (d: Drizzle) => Preparable<R>,
  columns?: Columns,
): (h: DbOrTx, params: P) => Promise<R> {
  const byConnection = new WeakMap<object, Executable<R>>();
  return async (h, params) => {
    const d = (h as unknown as Record<symbol, Drizzle>)[RAW]!;
    let query = byConnection.get(d);
    if (!query) {
      const prepared = build(d).prepare(name);
      query = columns && h.engine === 'sqlite' ? rowsFromValues<R>(columns, prepared as unknown as HasValues) : prepared;
      byConnection.set(d, query);
    }
    return (await query.execute(params)) as R;
  };
}

/** What `select(columns)` starts from: the builder a read of table columns goes on from (`.from(...)`). */
export type SelectOf<C extends Columns> = SQLiteSelectBuilder<C, 'sync', unknown>;

/**
 * A read of table columns, one prepared statement per shape (see preparedShapes): `from` gets `select(columns)` and
 * adds the rest (`.from(...).where(...)`). On SQLite its rows are built from arrays of values by `columns`
 * (rowsFromValues), which is why the selection is given here and not inside `from`.
 */
export function preparedSelect<C extends Columns, S extends string | object, P extends Record<string, unknown>, R>(
  name: string,
  columns: C,
  from: (select: SelectOf<C>, shape: S) => Preparable<R>,
  options: { keep?: boolean } = {},
): (h: DbOrTx, shape: S, params: P) => Promise<R> {
  for (const [key, field] of Object.entries(columns)) decoderOf(key, field);
  return preparedShapes<S, P, R>(name, (d, shape) => from(d.select(columns) as unknown as SelectOf<C>, shape), { ...options, columns });
}

/** preparedSelect for a read whose SQL is always the same. */
export function preparedSelectOne<C extends Columns, P extends Record<string, unknown>, R>(
  name: string,
  columns: C,
  from: (select: SelectOf<C>) => Preparable<R>,
): (h: DbOrTx, params: P) => Promise<R> {
  const read = preparedSelect<C, '', P, R>(name, columns, (select) => from(select));
  return (h, params) => read(h, '', params);
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
  build: (d: Pick<Drizzle, 'select' | 'insert' | 'update'>, shape: S) => Preparable<R>,
  options: { keep?: boolean; columns?: Columns } = {},
): (h: DbOrTx, shape: S, params: P) => Promise<R> {
  const shapes = new Map<string, (h: DbOrTx, params: P) => Promise<R>>();
  const read = (h: DbOrTx, shape: S, params: P) => {
    const key = shapeKeyOf(shape);
    let read = shapes.get(key);
    if (read) {
      shapes.delete(key);
    } else {
      // A PostgreSQL statement name is at most 63 bytes and names one SQL text: the shape goes in as its number.
      read = preparedOn<P, R>(
        `${name}_${(shapeIds.get(`${name}:${key}`) ?? nextShapeId(`${name}:${key}`)).toString(36)}`,
        (d) => build(d, shape),
        options.columns,
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
